#pragma once
// File offsets of functions in a shared library, for attaching uprobes by offset (one
// uprobe_multi link per library needs them all at once; libbpf 1.1 resolves names only one
// perf-event uprobe at a time).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace causeway::collector {

// name -> file offset for each of `names` defined as a function in the library's dynamic symbol
// table (or its full symbol table). Versioned names match by their plain name; names not found
// are absent from the map. An error when the file cannot be read as ELF.
Result<std::map<std::string, std::uint64_t>> function_offsets(
    const std::string& path, const std::vector<std::string>& names);

}  // namespace causeway::collector
