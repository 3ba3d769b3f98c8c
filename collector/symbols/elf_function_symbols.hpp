#pragma once
// The function (and data) symbols of one ELF symbol table, shared by uprobe attachment (file
// offsets of the CUDA entry points) and stack symbolization (address -> function name).

#include <gelf.h>
#include <libelf.h>

#include <functional>
#include <memory>
#include <string>

#include "base/result.hpp"
#include "base/unique_fd.hpp"

namespace causeway::collector {

struct ElfCloser {
    void operator()(Elf* elf) const { elf_end(elf); }
};

// An ELF file opened for reading (libelf mmaps it); the descriptor lives as long as the handle.
struct OpenElf {
    UniqueFd fd;
    std::unique_ptr<Elf, ElfCloser> elf;
};
// Errors name the file: unreadable, or not ELF.
Result<OpenElf> open_elf(const std::string& path);

// Calls `visit` for every function defined in the symbol table `table` (SHT_DYNSYM or
// SHT_SYMTAB): undefined and zero-address symbols are skipped, names are never null.
void for_each_function_symbol(Elf* elf, Elf_Scn* table, const GElf_Shdr& header,
                              const std::function<void(const GElf_Sym&, const char*)>& visit);

// The same for the defined symbols of one type (STT_FUNC, STT_OBJECT).
void for_each_defined_symbol(Elf* elf, Elf_Scn* table, const GElf_Shdr& header, int type,
                             const std::function<void(const GElf_Sym&, const char*)>& visit);

}  // namespace causeway::collector
