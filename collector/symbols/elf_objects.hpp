#pragma once
// Data symbols of an ELF file (the interpreter's _PyRuntime, Py_Version, PyCode_Type) and the
// bytes the file initialises them with, plus how the file's addresses move when it is mapped.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace causeway::collector {

struct ElfObjects {
    struct Segment {
        std::uint64_t offset = 0, vaddr = 0, file_size = 0;
    };
    std::string path;
    bool position_independent = false;               // ET_DYN: addresses move by the load base
    std::vector<Segment> segments;                   // PT_LOAD
    std::map<std::string, std::uint64_t> addresses;  // wanted objects found: name -> vaddr
    std::map<std::string, std::uint64_t> sizes;      // and their sizes (st_size, bytes)

    // The file's bytes at [vaddr, vaddr + size); shorter (or empty) where the file holds less
    // (.bss is not in the file).
    std::vector<std::uint8_t> read(std::uint64_t vaddr, std::size_t size) const;
    // The load base of a mapping of this file at `start` whose first byte is file offset
    // `file_offset` (from /proc/PID/maps); 0 for a file that is not position independent.
    std::optional<std::uint64_t> load_base(std::uint64_t start, std::uint64_t file_offset) const;
};

// The data objects among `names` defined in the file's symbol tables (dynamic first).
Result<ElfObjects> read_elf_objects(const std::string& path, const std::vector<std::string>& names);

}  // namespace causeway::collector
