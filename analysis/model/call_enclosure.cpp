#include "analysis/model/call_enclosure.hpp"

namespace causeway::analysis {

FlagColumn mark_enclosed_driver_calls(const TraceModel& model) {
    const CudaCalls& c = model.calls;
    FlagColumn enclosed(c.size());
    for (const auto& calls : model.calls_by_thread) {
        // The innermost runtime call still open at the current call's entry (calls of a thread
        // are sequential; only runtime -> driver nesting happens).
        std::int64_t open_start_ns = -1;
        std::int64_t open_end_ns = -1;
        for (std::uint32_t i : calls) {
            const OpInfo& op = model.ops[static_cast<std::size_t>(c.op_index[i])];
            if (!op.driver()) {
                open_start_ns = c.ts_ns[i];
                open_end_ns = c.end_ns(i);
            } else if (c.ts_ns[i] >= open_start_ns && c.end_ns(i) <= open_end_ns) {
                enclosed.set(i);
            }
        }
    }
    return enclosed;
}

}  // namespace causeway::analysis
