#include "analysis/model/trace_filter.hpp"

#include <set>

namespace causeway::analysis {

Result<std::int64_t> parse_duration_ns(const std::string& text) {
    return parse_duration_ns(text, BareNumber::kSeconds);
}

Result<TimeWindow> parse_window(const std::string& text, std::int64_t trace_end_ns) {
    auto dots = text.find("..");
    if (dots == std::string::npos) {
        return Error{"window '" + text +
                     "' is not of the form A..B (e.g. 10s..20s, 2.5s.., ..500ms): times are "
                     "since the start of recording"};
    }
    TimeWindow window{0, trace_end_ns};
    std::string first = text.substr(0, dots);
    std::string second = text.substr(dots + 2);
    if (!first.empty()) {
        auto start = parse_duration_ns(first);
        if (!start) {
            return Error{"window start: " + start.error().message};
        }
        window.start_ns = *start;
    }
    if (!second.empty()) {
        auto stop = parse_duration_ns(second);
        if (!stop) {
            return Error{"window end: " + stop.error().message};
        }
        window.end_ns = *stop;
    }
    if (window.end_ns <= window.start_ns) {
        return Error{"window '" + text + "' is empty: its end must come after its start (the " +
                     "trace spans 0.." + std::to_string(trace_end_ns / 1'000'000) + "ms)"};
    }
    return window;
}

Status validate_filter(const TraceModel& model, const TraceFilter& filter) {
    if (filter.pid) {
        std::set<std::int64_t> pids;
        for (const auto& p : model.processes) {
            if (p.in_tree) {
                pids.insert(p.pid);
            }
            if (p.pid == *filter.pid) {
                return Ok{};
            }
        }
        std::string listed;
        for (auto pid : pids) {
            if (listed.size() > 200) {
                listed += ", ...";
                break;
            }
            listed += (listed.empty() ? "" : ", ") + std::to_string(pid);
        }
        return Error{"pid " + std::to_string(*filter.pid) +
                     " is not in this trace; traced pids: " + (listed.empty() ? "none" : listed) +
                     " (run `causeway explain` without --pid to see the process table)"};
    }
    if (filter.op && model.find_op(*filter.op) < 0) {
        std::string listed;
        for (const auto& op : model.ops) {
            listed += (listed.empty() ? "" : ", ") + op.name;
        }
        return Error{"unknown CUDA op '" + *filter.op + "'; known ops: " + listed};
    }
    if (filter.window && filter.window->start_ns >= model.end_ns() && model.end_ns() > 0) {
        return Error{"window starts at " + std::to_string(filter.window->start_ns / 1'000'000) +
                     "ms, after the end of the trace (" +
                     std::to_string(model.end_ns() / 1'000'000) + "ms)"};
    }
    return Ok{};
}

ResolvedFilter::ResolvedFilter(const TraceModel& model, const TraceFilter& filter)
    : model_(model),
      op_index_(filter.op ? model.find_op(*filter.op) : -1),
      window_(filter.window.value_or(TimeWindow{0, model.end_ns()})),
      windowed_(filter.window.has_value()),
      thread_selected_(model.threads.size(), 1),
      process_selected_(model.processes.size(), 1) {
    if (filter.pid) {
        for (std::size_t p = 0; p < model.processes.size(); ++p) {
            process_selected_[p] = model.processes[p].pid == *filter.pid ? 1 : 0;
        }
        for (std::size_t t = 0; t < model.threads.size(); ++t) {
            thread_selected_[t] =
                process_selected_[static_cast<std::size_t>(model.threads[t].process_index)];
        }
    }
    if (filter.op && op_index_ < 0) {
        // An unknown op selects nothing; validate_filter() reports it.
        std::fill(thread_selected_.begin(), thread_selected_.end(), 0);
    }
}

bool ResolvedFilter::call_selected(std::size_t call) const {
    return thread_selected(model_.calls.thread_index[call]) &&
           (selects_every_op_and_time() || selected_in_thread(call));
}

bool ResolvedFilter::selected_in_thread(std::size_t call) const {
    const CudaCalls& c = model_.calls;
    return (op_index_ < 0 || c.op_index[call] == op_index_) &&
           (!windowed_ || window_.contains(c.ts_ns[call]));
}

}  // namespace causeway::analysis
