#pragma once
// Source lines from a code object's co_linetable, the location table of CPython 3.11 to 3.13
// (Objects/locations.md in CPython): a sequence of entries, each covering 1 to 8 code units
// (2 bytes each) with a line delta and optional columns. Decoded in user space, once per code
// object: the kernel only records the instruction's offset.

#include <cstdint>
#include <optional>
#include <span>

namespace causeway::collector {

// The line of the instruction `instr_offset` bytes into the code, or nothing when the table says
// the instruction has no line (an artificial instruction) or the table ends before it. An offset
// below 0 (a frame whose first instruction has not run) is the line of the `def`, as CPython's
// PyCode_Addr2Line says.
std::optional<int> line_for_offset(std::span<const std::uint8_t> line_table, int first_line,
                                   std::int64_t instr_offset);

}  // namespace causeway::collector
