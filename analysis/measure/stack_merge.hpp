#pragma once
// Native and Python frames of one stack merged in call order, as py-spy's --native shows them:
// the native frames above the interpreter loop (the CUDA library, ctypes, a C extension), then
// the Python frames that loop was running, innermost first. The interpreter's own frames (the
// loop and what lies below it: Py_RunMain, main) are hidden and counted.
//
// What the trace cannot say: which Python frames each of several nested interpreter loops runs
// (a C extension that calls back into Python). Native frames between two loops are hidden with
// the interpreter's, and every Python frame follows the innermost loop.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct StackFrame {
    std::int64_t address = 0;
    std::optional<std::string> module;
    std::optional<std::string> symbol;
    std::optional<std::int64_t> offset;
};

struct MergedFrame {
    bool python = false;
    StackFrame native{};    // when !python
    PythonFrame code{};     // when python
    std::string package{};  // a Python library frame: what it is folded under ('torch',
                            // 'stdlib'); empty for the user's own code and native frames
};

struct MergedStack {
    std::vector<MergedFrame> frames;  // innermost first
    std::int64_t interpreter_frames_hidden = 0;
};

// The interpreter loop that runs Python frames (_PyEval_EvalFrameDefault in 3.11-3.13).
bool is_interpreter_loop(const StackFrame& frame);

// `native` and `python` innermost first. Without Python frames the native frames are returned
// unchanged; without an interpreter loop among the native frames (the walk stopped early, or
// native frames were off) the Python frames follow all native ones.
MergedStack merge_frames(const std::vector<StackFrame>& native,
                         const std::vector<PythonFrame>& python);

}  // namespace causeway::analysis
