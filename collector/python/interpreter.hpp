#pragma once
// Finds the CPython interpreter of a running process: the file that defines _PyRuntime (the
// python3.X executable, or a libpython3.X.so it loaded), its version (the Py_Version it exports,
// 3.11+), where _PyRuntime lies in the process (PIE and shared libraries: plus the load base from
// /proc/PID/maps) and the structure offsets of that version (collector/python/offsets.hpp).

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "collector/python/offsets.hpp"

namespace causeway::collector {

struct PythonInterpreter {
    std::string path;                  // the file that defines _PyRuntime
    std::uint32_t version_hex = 0;     // PY_VERSION_HEX
    std::uint64_t runtime_addr = 0;    // &_PyRuntime in the process
    std::uint32_t runtime_size = 0;    // its size (bytes); 0 when the symbol does not say
    std::uint64_t code_type_addr = 0;  // &PyCode_Type in the process (what a code object's
                                       // ob_type points to); 0 when not exported
    PythonOffsets offsets;
    std::string offsets_source;  // "_Py_DebugOffsets" or "table"

    std::string version() const;  // "3.11.2"
};

// What a process runs: no interpreter at all (std::nullopt), a readable one, or an error that says
// why the interpreter it has cannot be read (a version without offsets, no _PyRuntime symbol...).
Result<std::optional<PythonInterpreter>> find_python_interpreter(
    int pid, const std::string& proc_root = "/proc");

// Whether a mapped file's name looks like a CPython interpreter or its library (python3.11,
// libpython3.12.so.1.0): only those are opened, so that a process with a large library (libtorch)
// costs no symbol-table scan, and no file of another program is opened by accident.
bool looks_like_python(const std::string& path);

}  // namespace causeway::collector
