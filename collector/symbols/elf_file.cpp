#include "collector/symbols/elf_file.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

namespace causeway::collector {

namespace {

using NameSet = std::set<std::string, std::less<>>;  // looked up by string_view

// Calls `visit` for the defined symbols of `type` in one symbol table (SHT_DYNSYM or SHT_SYMTAB).
void visit_table(Elf* elf, Elf_Scn* table, const GElf_Shdr& header, int type,
                 const std::function<void(const ElfSymbol&)>& visit) {
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
            visit({name, symbol.st_value, symbol.st_size, symbol.st_shndx});
        }
    }
}

}  // namespace

void ElfFile::ElfCloser::operator()(Elf* elf) const {
    elf_end(elf);
}

Result<ElfFile> ElfFile::open(const std::string& path) {
    if (elf_version(EV_CURRENT) == EV_NONE) {
        return Error{std::string("libelf is unusable: ") + elf_errmsg(-1)};
    }
    ElfFile file;
    file.path_ = path;
    file.fd_ = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!file.fd_) {
        return Error{"cannot open " + path + ": " + std::strerror(errno)};
    }
    file.elf_.reset(elf_begin(file.fd_.get(), ELF_C_READ_MMAP, nullptr));
    if (!file.elf_ || elf_kind(file.elf_.get()) != ELF_K_ELF) {
        return Error{path + " is not an ELF file"};
    }
    GElf_Ehdr header;
    std::size_t program_headers = 0;
    if (gelf_getehdr(file.elf_.get(), &header) == nullptr ||
        elf_getphdrnum(file.elf_.get(), &program_headers) != 0) {
        return Error{path + " has no readable ELF headers"};
    }
    file.position_independent_ = header.e_type == ET_DYN;
    for (std::size_t i = 0; i < program_headers; ++i) {
        GElf_Phdr segment;
        if (gelf_getphdr(file.elf_.get(), static_cast<int>(i), &segment) != nullptr &&
            segment.p_type == PT_LOAD) {
            file.load_segments_.push_back({segment.p_offset, segment.p_vaddr, segment.p_filesz,
                                           (segment.p_flags & PF_X) != 0});
        }
    }
    return file;
}

void ElfFile::for_each_defined_symbol(int type,
                                      const std::function<void(const ElfSymbol&)>& visit) const {
    for (Elf64_Word table_type : {SHT_DYNSYM, SHT_SYMTAB}) {
        for (Elf_Scn* section = elf_nextscn(elf_.get(), nullptr); section != nullptr;
             section = elf_nextscn(elf_.get(), section)) {
            GElf_Shdr header;
            if (gelf_getshdr(section, &header) != nullptr && header.sh_type == table_type) {
                visit_table(elf_.get(), section, header, type, visit);
            }
        }
    }
}

std::map<std::string, std::uint64_t> ElfFile::function_offsets(
    const std::vector<std::string>& names) const {
    NameSet wanted(names.begin(), names.end());
    std::map<std::string, std::uint64_t> offsets;
    for_each_defined_symbol(STT_FUNC, [&](const ElfSymbol& symbol) {
        if (wanted.count(symbol.name) == 0 || offsets.count(std::string(symbol.name)) != 0) {
            return;
        }
        GElf_Shdr section;
        if (gelf_getshdr(elf_getscn(elf_.get(), symbol.section_index), &section) == nullptr) {
            return;
        }
        // Virtual address -> file offset through the section that holds the code.
        offsets[std::string(symbol.name)] = symbol.vaddr - section.sh_addr + section.sh_offset;
    });
    return offsets;
}

std::map<std::string, ElfFile::DataObject> ElfFile::data_objects(
    const std::vector<std::string>& names) const {
    NameSet wanted(names.begin(), names.end());
    std::map<std::string, DataObject> objects;
    for_each_defined_symbol(STT_OBJECT, [&](const ElfSymbol& symbol) {
        if (wanted.count(symbol.name) != 0) {
            objects.emplace(symbol.name, DataObject{symbol.vaddr, symbol.size_bytes});
        }
    });
    return objects;
}

std::vector<std::uint8_t> ElfFile::read(std::uint64_t vaddr, std::size_t size) const {
    for (const auto& segment : load_segments_) {
        if (vaddr < segment.vaddr || vaddr >= segment.vaddr + segment.file_size) {
            continue;
        }
        std::size_t available = static_cast<std::size_t>(segment.vaddr + segment.file_size - vaddr);
        std::vector<std::uint8_t> bytes(std::min(size, available));
        ssize_t got = ::pread(fd_.get(), bytes.data(), bytes.size(),
                              static_cast<off_t>(vaddr - segment.vaddr + segment.offset));
        bytes.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
        return bytes;
    }
    return {};
}

std::optional<std::uint64_t> ElfFile::load_base(std::uint64_t start,
                                                std::uint64_t file_offset) const {
    if (!position_independent_) {
        return std::uint64_t{0};
    }
    for (const auto& segment : load_segments_) {
        // A mapping starts at the page that holds the segment's first byte.
        std::uint64_t page_offset = segment.offset & ~std::uint64_t{0xfff};
        if (file_offset == page_offset) {
            return start - (segment.vaddr - (segment.offset - page_offset));
        }
    }
    return std::nullopt;
}

}  // namespace causeway::collector
