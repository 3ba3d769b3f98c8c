#include "collector/symbols/elf_symbols.hpp"

#include <gelf.h>
#include <libelf.h>

#include <set>

#include "collector/symbols/elf_function_symbols.hpp"

namespace causeway::collector {

namespace {

// Adds the wanted functions of one symbol table (SHT_DYNSYM or SHT_SYMTAB) to `offsets`.
void scan_symbols(Elf* elf, Elf_Scn* table, const GElf_Shdr& header,
                  const std::set<std::string>& wanted,
                  std::map<std::string, std::uint64_t>& offsets) {
    for_each_function_symbol(elf, table, header, [&](const GElf_Sym& symbol, const char* name) {
        if (wanted.count(name) == 0 || offsets.count(name) != 0) {
            return;
        }
        GElf_Shdr section;
        if (gelf_getshdr(elf_getscn(elf, symbol.st_shndx), &section) == nullptr) {
            return;
        }
        // Virtual address -> file offset through the section that holds the code.
        offsets[name] = symbol.st_value - section.sh_addr + section.sh_offset;
    });
}

}  // namespace

Result<std::map<std::string, std::uint64_t>> function_offsets(
    const std::string& path, const std::vector<std::string>& names) {
    auto file = open_elf(path);
    if (!file) {
        return file.error();
    }
    Elf* elf = file->elf.get();
    std::set<std::string> wanted(names.begin(), names.end());
    std::map<std::string, std::uint64_t> offsets;
    for (Elf64_Word type : {SHT_DYNSYM, SHT_SYMTAB}) {
        for (Elf_Scn* section = elf_nextscn(elf, nullptr); section != nullptr;
             section = elf_nextscn(elf, section)) {
            GElf_Shdr header;
            if (gelf_getshdr(section, &header) != nullptr && header.sh_type == type) {
                scan_symbols(elf, section, header, wanted, offsets);
            }
        }
    }
    return offsets;
}

}  // namespace causeway::collector
