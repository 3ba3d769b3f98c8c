#include "collector/elf_function_symbols.hpp"

namespace causeway::collector {

void for_each_function_symbol(Elf* elf, Elf_Scn* table, const GElf_Shdr& header,
                              const std::function<void(const GElf_Sym&, const char*)>& visit) {
    for_each_defined_symbol(elf, table, header, STT_FUNC, visit);
}

void for_each_defined_symbol(Elf* elf, Elf_Scn* table, const GElf_Shdr& header, int type,
                             const std::function<void(const GElf_Sym&, const char*)>& visit) {
    Elf_Data* data = elf_getdata(table, nullptr);
    if (data == nullptr || header.sh_entsize == 0) {
        return;
    }
    std::size_t count = header.sh_size / header.sh_entsize;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Sym symbol;
        if (gelf_getsym(data, static_cast<int>(i), &symbol) == nullptr ||
            GELF_ST_TYPE(symbol.st_info) != type || symbol.st_shndx == SHN_UNDEF ||
            symbol.st_value == 0) {
            continue;
        }
        const char* name = elf_strptr(elf, header.sh_link, symbol.st_name);
        if (name != nullptr) {
            visit(symbol, name);
        }
    }
}

}  // namespace causeway::collector
