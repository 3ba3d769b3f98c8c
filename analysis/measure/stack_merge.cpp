#include "analysis/measure/stack_merge.hpp"

#include <algorithm>

#include "analysis/measure/python_lines.hpp"

namespace causeway::analysis {

bool is_interpreter_loop(const StackFrame& frame) {
    return frame.symbol && (frame.symbol->rfind("_PyEval_EvalFrame", 0) == 0 ||
                            frame.symbol->rfind("PyEval_EvalCode", 0) == 0);
}

MergedStack merge_frames(const std::vector<StackFrame>& native,
                         const std::vector<PythonFrame>& python) {
    MergedStack merged;
    auto loop = python.empty() ? native.end()
                               : std::find_if(native.begin(), native.end(), is_interpreter_loop);
    for (auto it = native.begin(); it != loop; ++it) {
        merged.frames.push_back({.python = false, .native = *it});
    }
    merged.interpreter_frames_hidden = native.end() - loop;
    for (const PythonFrame& frame : python) {
        merged.frames.push_back({.python = true,
                                 .code = frame,
                                 .package = frame.file ? library_package(*frame.file) : "stdlib"});
    }
    return merged;
}

}  // namespace causeway::analysis
