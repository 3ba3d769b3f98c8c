#pragma once
// Which part of a trace a question is about: a process, an op, a time window.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/model/trace_model.hpp"
#include "base/duration_text.hpp"
#include "base/result.hpp"

namespace causeway::analysis {

// [start_ns, end_ns) on the session's time axis (ns since the start of recording).
struct TimeWindow {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;

    std::int64_t dur_ns() const { return end_ns - start_ns; }
    bool contains(std::int64_t ts_ns) const { return ts_ns >= start_ns && ts_ns < end_ns; }
};

struct TraceFilter {
    std::optional<std::int64_t> pid{};  // kernel pid; every process that had it
    std::optional<std::string> op{};    // cuda_op.name
    std::optional<TimeWindow> window{};
};

// Longest duration a person or a model may name (see tracedb/duration_text.hpp).
using causeway::kMaxDurationNs;

// Parses a duration with a unit: "250ms", "1.5s", "40us", "2m", "900ns"; a bare number is
// seconds. Refuses what is not a finite number from 0 to kMaxDurationNs, with a message that
// says the accepted forms and the range.
Result<std::int64_t> parse_duration_ns(const std::string& text);

// Parses "A..B", "A.." or "..B" (durations since the start of recording, see parse_duration_ns).
// An open end is the end of the trace: `trace_end_ns`. The window returned always has
// 0 <= start_ns < end_ns.
Result<TimeWindow> parse_window(const std::string& text, std::int64_t trace_end_ns);

// Checks the filter against the trace: an unknown pid or op is an error that lists what exists.
Status validate_filter(const TraceModel& model, const TraceFilter& filter);

// The filter resolved against one trace, for the hot loops.
class ResolvedFilter {
  public:
    ResolvedFilter(const TraceModel& model, const TraceFilter& filter);

    bool thread_selected(int thread_index) const {
        return thread_selected_[static_cast<std::size_t>(thread_index)] != 0;
    }
    bool process_selected(int process_index) const {
        return process_selected_[static_cast<std::size_t>(process_index)] != 0;
    }
    bool call_selected(std::size_t call) const;
    // call_selected() of a call whose thread is known to be selected: its op and its time.
    bool selected_in_thread(std::size_t call) const;
    bool op_selected(int op_index) const { return op_index_ < 0 || op_index == op_index_; }
    bool windowed() const { return windowed_; }
    // Whether selected_in_thread() holds for every call: no op and no window chosen.
    bool selects_every_op_and_time() const { return op_index_ < 0 && !windowed_; }
    // The window asked for, or the whole trace [0, end).
    const TimeWindow& window() const { return window_; }

  private:
    const TraceModel& model_;
    int op_index_ = -1;
    TimeWindow window_;
    bool windowed_ = false;  // without a window every call counts, even one past session.stop_ns
    std::vector<std::uint8_t> thread_selected_;
    std::vector<std::uint8_t> process_selected_;
};

// Length of the overlap of [a_start, a_end) and [b_start, b_end), 0 when they do not meet.
inline std::int64_t overlap_ns(std::int64_t a_start, std::int64_t a_end, std::int64_t b_start,
                               std::int64_t b_end) {
    std::int64_t start = a_start > b_start ? a_start : b_start;
    std::int64_t end = a_end < b_end ? a_end : b_end;
    return end > start ? end - start : 0;
}

}  // namespace causeway::analysis
