#pragma once
// The shape of get_stacks (StacksAnswer).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/measure/python_lines.hpp"
#include "analysis/measure/stack_merge.hpp"
#include "analysis/measure/stacks.hpp"
#include "report/shapes/shared.hpp"
#include "report/tool_answers.hpp"

namespace causeway::analysis {

template <class V>
void describe(V& v, const StackOp& op) {
    v.field("op", op.op);
    v.field("calls", op.calls);
    v.field("total_ns", op.total_ns);
    v.field("max_ns", op.max_ns);
}

template <class V>
void describe(V& v, const StackFrame& f) {
    v.field("address", f.address);
    v.field("module", f.module, {.description = kUntrustedDescription});
    v.field("symbol", f.symbol, {.description = kUntrustedDescription});
    v.field("offset", f.offset);
}

// A Python frame of a stack; `package` is what a library frame is folded under ('torch',
// 'stdlib'), empty for the user's own code.
template <class V>
void describe_python_frame(V& v, const PythonFrame& f, const std::string& package) {
    v.field("file", f.file, {.description = kUntrustedDescription});
    v.field("function", f.function, {.description = kUntrustedDescription});
    v.field("line", f.line);
    v.field("library", !package.empty(),
            {.description =
                 "A frame of installed packages or the standard library (folded in the text)."});
    v.field("package", package,
            {.description = "What a library frame is folded under ('torch', 'stdlib'); empty for "
                            "the user's own code."});
}

inline constexpr std::array<const char*, 2> kFrameKinds = {"native", "python"};

template <class V>
void describe(V& v, const MergedFrame& f) {
    v.object_description(
        "A native frame (address, module, symbol, offset) or a Python frame (file, function, "
        "line, library, package).");
    v.fields_when(!f.python, [&] { describe(v, f.native); });
    v.fields_when(f.python, [&] { describe_python_frame(v, f.code, f.package); });
    v.field("kind", std::string(f.python ? "python" : "native"), {.allowed_values = kFrameKinds});
}

}  // namespace causeway::analysis

namespace causeway::report {

// A Python frame of get_stacks' python_frames.
struct PythonFrameShown {
    analysis::PythonFrame frame{};
    std::string package{};  // what a library frame is folded under; empty for the user's code
};

template <class V>
void describe(V& v, const PythonFrameShown& f) {
    analysis::describe_python_frame(v, f.frame, f.package);
}

std::vector<PythonFrameShown> python_frames_shown(const std::vector<analysis::PythonFrame>& frames);

// A stack of get_stacks: its frames cut to the answer's depth, with how many there were.
struct StackAtDepth {
    analysis::StackEntry stack{};
    std::size_t depth = 0;
};

template <class V>
void describe(V& v, const StackAtDepth& shown) {
    const analysis::StackEntry& s = shown.stack;
    v.field("stack_id", s.stack_id);
    v.field("pid", s.pid);
    v.field("calls", s.calls);
    v.field("total_ns", s.total_ns);
    v.field("ops", s.ops);
    v.field("frames", first(s.frames, shown.depth),
            {.description = "Innermost first, at most `depth`."});
    v.field("frames_total", s.frames.size());
    // Only where Python frames were recorded, so answers about other traces keep their shape.
    v.fields_when(!s.python_frames.empty(), [&] {
        v.field("python_frames", python_frames_shown(s.python_frames),
                {.description = "Present where Python frames were recorded: innermost first."});
        v.field("python_truncated", s.python_truncated,
                {.description = "true: the thread had more Python frames than the collector "
                                "keeps; the outermost are missing."});
        v.field("merged_frames", first(s.merged.frames, shown.depth),
                {.description = "Present where Python frames were recorded: native frames above "
                                "the interpreter loop, then the Python frames, innermost first, "
                                "at most `depth`."});
        v.field("merged_frames_total", s.merged.frames.size());
        v.field("interpreter_frames_hidden", s.merged.interpreter_frames_hidden,
                {.description = "Native frames of the interpreter loop and below it, not shown."});
        v.field("user_line", s.user_line,
                {.description = "The user's own innermost Python line of this stack; null when "
                                "no frame had a file."});
    });
}

std::vector<StackAtDepth> stacks_at_depth(const StacksAnswer& answer);

template <class V>
void describe(V& v, const StacksAnswer& answer) {
    v.object_description("Call stacks behind CUDA time.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    v.field("stacks_in_trace", answer.report.stacks_in_trace);
    v.field("calls_with_stack", answer.report.calls_with_stack);
    v.field("stacks", stacks_at_depth(answer),
            {.description = "By total CUDA time, at most `limit`."});
    v.field("note", answer.note, {.description = kNoteDescription});
}

}  // namespace causeway::report
