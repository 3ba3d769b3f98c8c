#include "collector/symbols/elf_function_symbols.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

namespace causeway::collector {

Result<OpenElf> open_elf(const std::string& path) {
    if (elf_version(EV_CURRENT) == EV_NONE) {
        return Error{std::string("libelf is unusable: ") + elf_errmsg(-1)};
    }
    OpenElf file;
    file.fd = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!file.fd) {
        return Error{"cannot open " + path + ": " + std::strerror(errno)};
    }
    file.elf.reset(elf_begin(file.fd.get(), ELF_C_READ_MMAP, nullptr));
    if (!file.elf || elf_kind(file.elf.get()) != ELF_K_ELF) {
        return Error{path + " is not an ELF file"};
    }
    return file;
}

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
