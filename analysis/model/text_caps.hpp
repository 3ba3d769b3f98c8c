#pragma once
// Text read from a trace comes from the traced system (process and thread names, command lines,
// symbols, library paths) or from whoever wrote the file, so its length is not ours to trust: it
// is capped where the analysis reads it, and every renderer (text, JSON, MCP) gets the capped
// text. A 10 MB process name would otherwise be printed once per place it appears. A cut text
// ends with a marker that says it was cut and how long it was.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "tracedb/sqlite.hpp"

namespace causeway::analysis {

// Process, thread and op names, host, kernel, versions: the kernel keeps 16 bytes of a name.
inline constexpr std::size_t kNameBytes = 256;
// Command lines, library paths, symbols, descriptions and error texts.
inline constexpr std::size_t kTextBytes = 4096;

// `text` when it has at most `max_bytes` bytes; otherwise its first bytes, cut at a character
// boundary, then " [... cut, N bytes]".
std::string capped(std::string_view text, std::size_t max_bytes);

// Column `column` of the current row, capped; empty when NULL.
std::string column_capped(const tracedb::Statement& stmt, int column, std::size_t max_bytes);
std::optional<std::string> optional_column_capped(const tracedb::Statement& stmt, int column,
                                                  std::size_t max_bytes);

}  // namespace causeway::analysis
