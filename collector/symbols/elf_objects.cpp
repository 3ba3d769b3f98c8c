#include "collector/symbols/elf_objects.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <set>

#include "base/unique_fd.hpp"
#include "collector/symbols/elf_function_symbols.hpp"

namespace causeway::collector {

std::vector<std::uint8_t> ElfObjects::read(std::uint64_t vaddr, std::size_t size) const {
    for (const auto& segment : segments) {
        if (vaddr < segment.vaddr || vaddr >= segment.vaddr + segment.file_size) {
            continue;
        }
        std::size_t available = static_cast<std::size_t>(segment.vaddr + segment.file_size - vaddr);
        std::vector<std::uint8_t> bytes(std::min(size, available));
        UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
        ssize_t got = fd ? ::pread(fd.get(), bytes.data(), bytes.size(),
                                   static_cast<off_t>(vaddr - segment.vaddr + segment.offset))
                         : -1;
        bytes.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
        return bytes;
    }
    return {};
}

std::optional<std::uint64_t> ElfObjects::load_base(std::uint64_t start,
                                                   std::uint64_t file_offset) const {
    if (!position_independent) {
        return std::uint64_t{0};
    }
    for (const auto& segment : segments) {
        // A mapping starts at the page that holds the segment's first byte.
        std::uint64_t page_offset = segment.offset & ~std::uint64_t{0xfff};
        if (file_offset == page_offset) {
            return start - (segment.vaddr - (segment.offset - page_offset));
        }
    }
    return std::nullopt;
}

Result<ElfObjects> read_elf_objects(const std::string& path,
                                    const std::vector<std::string>& names) {
    auto file = open_elf(path);
    if (!file) {
        return file.error();
    }
    Elf* elf = file->elf.get();
    GElf_Ehdr header;
    std::size_t program_headers = 0;
    if (gelf_getehdr(elf, &header) == nullptr || elf_getphdrnum(elf, &program_headers) != 0) {
        return Error{path + " has no readable ELF headers"};
    }
    ElfObjects objects;
    objects.path = path;
    objects.position_independent = header.e_type == ET_DYN;
    for (std::size_t i = 0; i < program_headers; ++i) {
        GElf_Phdr segment;
        if (gelf_getphdr(elf, static_cast<int>(i), &segment) != nullptr &&
            segment.p_type == PT_LOAD) {
            objects.segments.push_back({segment.p_offset, segment.p_vaddr, segment.p_filesz});
        }
    }
    std::set<std::string> wanted(names.begin(), names.end());
    for (Elf64_Word type : {SHT_DYNSYM, SHT_SYMTAB}) {
        for (Elf_Scn* section = elf_nextscn(elf, nullptr); section != nullptr;
             section = elf_nextscn(elf, section)) {
            GElf_Shdr table;
            if (gelf_getshdr(section, &table) == nullptr || table.sh_type != type) {
                continue;
            }
            for_each_defined_symbol(elf, section, table, STT_OBJECT,
                                    [&](const GElf_Sym& symbol, const char* name) {
                                        if (wanted.count(name) != 0) {
                                            objects.addresses.emplace(name, symbol.st_value);
                                            objects.sizes.emplace(name, symbol.st_size);
                                        }
                                    });
        }
    }
    return objects;
}

}  // namespace causeway::collector
