#pragma once
// Turns user-stack addresses of a traced process into frames: the file mapped at each address
// and, when the file's symbol table has it, the function and the offset into it. Memory maps are
// read per process (again when an address falls outside them: a library loaded since), symbol
// tables once per file.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "tracedb/records.hpp"

namespace causeway::collector {

// One function of a file: [start, start + size) in the file's virtual addresses.
struct FunctionSymbol {
    std::uint64_t start = 0;
    std::uint64_t size = 0;
    std::string name;
};

// A file's functions and how its file offsets map to virtual addresses (PT_LOAD segments).
struct ModuleSymbols {
    struct Segment {
        std::uint64_t offset, vaddr, size;
    };
    std::vector<Segment> segments;
    std::vector<FunctionSymbol> functions;  // sorted by start

    // The function containing the file offset, or nullptr.
    const FunctionSymbol* function_at_offset(std::uint64_t file_offset,
                                             std::uint64_t* offset_in_function) const;
    static ModuleSymbols load(const std::string& path);  // empty when unreadable
};

// One line of /proc/PID/maps that maps a file.
struct Mapping {
    std::uint64_t start = 0, end = 0, file_offset = 0;
    std::string path;
};
std::vector<Mapping> parse_mappings(const std::string& maps_text);

class StackSymbolizer {
  public:
    explicit StackSymbolizer(std::string proc_root = "/proc");
    // Frames for `addresses` (innermost first) of process `tgid`.
    std::vector<tracedb::StackFrameRecord> frames(std::uint32_t tgid,
                                                  const std::vector<std::uint64_t>& addresses);

  private:
    const Mapping* mapping_for(std::uint32_t tgid, std::uint64_t address);
    const ModuleSymbols& module(const std::string& path);

    std::string proc_root_;
    std::unordered_map<std::uint32_t, std::vector<Mapping>> mappings_;         // by tgid
    std::unordered_map<std::string, std::unique_ptr<ModuleSymbols>> modules_;  // by path
};

}  // namespace causeway::collector
