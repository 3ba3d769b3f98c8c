#pragma once
// Where CPython 3.11 to 3.13 keep what a stack walk reads: the structure offsets (bytes) of one
// interpreter version. The kernel part goes into the python_procs map (cw_python_process); the
// rest is what user space reads to name a frame (code object, bytes and str objects).
//
// Sources, in order: the interpreter's own _Py_DebugOffsets (3.13+, the first member of
// _PyRuntime, initialised in the binary's data, so read from the file), else the table below,
// whose entries come from offsetof() on each version's internal headers (Py_BUILD_CORE).
// tests/collector/python/python_offsets_test.cpp compiles such a program against every
// interpreter's headers found on the machine and compares.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "base/result.hpp"
#include "bpf/causeway_abi.h"

namespace causeway::collector {

struct PythonOffsets {
    int major = 0, minor = 0;
    // The kernel's walk (runtime_addr left 0: it is per process).
    cw_python_process walk{};
    // Naming a frame, in user space.
    std::uint16_t object_type = 8;  // PyObject.ob_type
    std::uint16_t code_filename = 0;
    std::uint16_t code_qualname = 0;
    std::uint16_t code_linetable = 0;
    std::uint16_t bytes_size = 0;  // PyVarObject.ob_size of a bytes object
    std::uint16_t bytes_data = 0;  // PyBytesObject.ob_sval
    std::uint16_t unicode_length = 0;
    std::uint16_t unicode_state = 0;
    std::uint16_t unicode_ascii_size = 0;    // sizeof(PyASCIIObject): where ASCII text starts
    std::uint16_t unicode_compact_size = 0;  // sizeof(PyCompactUnicodeObject): other text
};

// The table entry of a version, or nothing for a version without one.
std::optional<PythonOffsets> table_offsets(int major, int minor);

// The versions the table covers, as "3.11, 3.12, 3.13".
std::string supported_versions();

// Offsets from the bytes of a _Py_DebugOffsets (the start of _PyRuntime) of version
// `version_hex` (PY_VERSION_HEX). An error names what does not fit: no "xdebugpy" cookie, a
// free-threaded build, a layout of a version this build does not know.
Result<PythonOffsets> debug_offsets(std::span<const std::uint8_t> bytes, std::uint32_t version_hex);

// Bytes of _PyRuntime to read for debug_offsets().
inline constexpr std::size_t kDebugOffsetsBytes = 1024;

}  // namespace causeway::collector
