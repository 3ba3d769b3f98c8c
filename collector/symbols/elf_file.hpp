#pragma once
// One ELF file, opened once with libelf, read the ways the collector needs it: the file offsets of
// functions (uprobes attached by offset: one uprobe_multi link per library needs them all at once,
// libbpf 1.1 resolves names only one perf-event uprobe at a time), the defined symbols of a type
// (stack symbolization), data objects and the bytes the file initialises them with (the Python
// interpreter's _PyRuntime, Py_Version, PyCode_Type), and how the file's addresses move when it is
// mapped (PT_LOAD segments, load base).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "base/unique_fd.hpp"

struct Elf;  // libelf's handle; <libelf.h> stays out of the callers

namespace causeway::collector {

// One defined symbol of a symbol table.
struct ElfSymbol {
    std::string_view name;  // never null; valid while its ElfFile lives
    std::uint64_t vaddr = 0;
    std::uint64_t size_bytes = 0;
    std::size_t section_index = 0;  // the section that holds it (st_shndx)
};

class ElfFile {
  public:
    struct Segment {  // one PT_LOAD program header
        std::uint64_t offset = 0, vaddr = 0, file_size = 0;
        bool executable = false;  // PF_X
    };
    struct DataObject {
        std::uint64_t vaddr = 0;
        std::uint64_t size_bytes = 0;  // st_size
    };

    // Errors name the file: unreadable, not ELF, or its headers unreadable.
    static Result<ElfFile> open(const std::string& path);

    const std::string& path() const { return path_; }
    bool position_independent() const { return position_independent_; }  // ET_DYN
    const std::vector<Segment>& load_segments() const { return load_segments_; }

    // Calls `visit` for every defined symbol of `type` (STT_FUNC, STT_OBJECT), the dynamic symbol
    // table first, then the full one: undefined and zero-address symbols are skipped.
    void for_each_defined_symbol(int type,
                                 const std::function<void(const ElfSymbol&)>& visit) const;

    // name -> file offset of each of `names` defined as a function. Versioned names match by
    // their plain name; names not found are absent; the first table that defines a name wins.
    std::map<std::string, std::uint64_t> function_offsets(
        const std::vector<std::string>& names) const;

    // The data objects among `names`, the first table that defines a name winning.
    std::map<std::string, DataObject> data_objects(const std::vector<std::string>& names) const;

    // The file's bytes at [vaddr, vaddr + size); shorter (or empty) where the file holds less
    // (.bss is not in the file).
    std::vector<std::uint8_t> read(std::uint64_t vaddr, std::size_t size) const;

    // The load base of a mapping of this file at `start` whose first byte is file offset
    // `file_offset` (from /proc/PID/maps); 0 for a file that is not position independent (its
    // addresses are where it lies), absent when no segment starts in that page.
    std::optional<std::uint64_t> load_base(std::uint64_t start, std::uint64_t file_offset) const;

  private:
    struct ElfCloser {
        void operator()(Elf* elf) const;
    };

    ElfFile() = default;

    std::string path_;
    UniqueFd fd_;  // outlives elf_ (declared first): libelf mmaps through it
    std::unique_ptr<Elf, ElfCloser> elf_;
    bool position_independent_ = false;
    std::vector<Segment> load_segments_;
};

}  // namespace causeway::collector
