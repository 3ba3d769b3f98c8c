#pragma once
// The user call stacks behind CUDA time, where the recorder captured them: the stacks whose
// calls took the most time, with their native and Python frames (innermost first), merged in
// call order, and the user's own Python line that leads each.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/measure/stack_merge.hpp"
#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"
#include "base/result.hpp"
#include "tracedb/reader.hpp"

namespace causeway::analysis {

struct StackOp {
    std::string op;
    std::int64_t calls = 0;
    std::int64_t total_ns = 0;
    std::int64_t max_ns = 0;
};

struct StackEntry {
    std::int64_t stack_id = 0;
    std::int64_t pid = 0;
    std::int64_t calls = 0;
    std::int64_t total_ns = 0;
    std::vector<StackOp> ops;                // by total time
    std::vector<StackFrame> frames;          // native frames, innermost first
    std::vector<PythonFrame> python_frames;  // Python frames, innermost first
    MergedStack merged;                      // both in call order (stack_merge.hpp)
    // The user's own innermost Python line (python_lines.hpp); absent without Python frames.
    std::optional<CodeLine> user_line;
    std::optional<bool> python_truncated;  // stack.python_truncated
};

struct StackReport {
    std::int64_t calls_with_stack = 0;  // in the selection
    std::int64_t stacks_in_trace = 0;   // 0: the recording captured none
    std::vector<StackEntry> stacks;     // by total time, at most `limit`
};

// Groups the selected calls of the model by their stack; reads the frames of the top `limit`
// stacks through `reader`, a connection to the file the model was loaded from.
Result<StackReport> top_stacks(const tracedb::TraceReader& reader, const TraceModel& model,
                               const TraceFilter& filter, std::size_t limit);

}  // namespace causeway::analysis
