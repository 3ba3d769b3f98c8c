#include "analysis/diagnose/verdict.hpp"

#include <algorithm>

#include "analysis/human_units.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

double share(std::int64_t ns, std::int64_t span_ns) {
    return span_ns > 0 ? static_cast<double>(ns) / static_cast<double>(span_ns) : 0.0;
}

std::vector<Evidence> loop_numbers(const CallAccounting& acc) {
    std::int64_t span = acc.span_ns;
    std::int64_t sync = acc.by_category[static_cast<std::size_t>(OpCategory::kSync)].total_ns;
    std::int64_t copy = acc.by_category[static_cast<std::size_t>(OpCategory::kCopy)].total_ns;
    std::int64_t runnable =
        saturating_add(acc.in_calls.runnable_waiting_ns(), acc.gaps.runnable_waiting_ns());
    return {
        {"cuda_calls", static_cast<double>(acc.accounted_calls), "count",
         std::to_string(acc.accounted_calls) + " CUDA calls (driver calls inside runtime calls "
                                               "not counted twice)"},
        {"loop_ns", static_cast<double>(span), "ns",
         "loop of the GPU-driving thread(s): " + format_duration(span)},
        {"in_cuda_share", share(acc.in_calls.total_ns, span), "ratio",
         "inside CUDA calls " + format_percent(share(acc.in_calls.total_ns, span))},
        {"sync_share", share(sync, span), "ratio",
         "in synchronisation " + format_percent(share(sync, span))},
        {"copy_share", share(copy, span), "ratio",
         "in copies " + format_percent(share(copy, span))},
        {"between_calls_oncpu_share", share(acc.gaps.oncpu_ns(), span), "ratio",
         "on CPU between calls " + format_percent(share(acc.gaps.oncpu_ns(), span))},
        {"between_calls_blocked_share", share(acc.gaps.blocked_ns, span), "ratio",
         "asleep between calls " + format_percent(share(acc.gaps.blocked_ns, span))},
        {"runnable_waiting_share", share(runnable, span), "ratio",
         "runnable but not running " + format_percent(share(runnable, span))},
    };
}

}  // namespace

Verdict decide_verdict(const CallAccounting& accounting, const std::vector<CausalChain>& chains,
                       const DataQualityReport& quality, bool scheduling_known,
                       std::int64_t host_event_rows) {
    Verdict v;
    auto never_ran = std::find_if(quality.items.begin(), quality.items.end(), [](const auto& item) {
        return item.is(tracedb::DataQualityCounter::kCommandNotStarted) ||
               item.is(tracedb::DataQualityCounter::kCommandNeverRan);
    });
    if (accounting.accounted_calls == 0 && never_ran != quality.items.end()) {
        v.name = kInsufficientData;
        v.summary = "Nothing to diagnose: " + never_ran->description +
                    ". Check the command and record again.";
    } else if (accounting.accounted_calls == 0) {
        v.name = kInsufficientData;
        v.summary = host_event_rows > 0
                        ? "No CUDA calls were recorded (the trace holds " +
                              std::to_string(host_event_rows) +
                              " host-event rows only): the CUDA library was not found or not "
                              "used. Check the probe table and run `causeway check`."
                        : "The trace holds no CUDA calls and no host events: nothing to "
                          "diagnose. Record a run of the workload.";
    } else if (accounting.accounted_calls < kMinCallsForVerdict) {
        v.name = kInsufficientData;
        v.summary = "Only " + std::to_string(accounting.accounted_calls) +
                    " CUDA calls were recorded: too few to tell a bottleneck (at least " +
                    std::to_string(kMinCallsForVerdict) + " needed). Record a longer run.";
    } else if (!chains.empty()) {
        const CausalChain& top = chains.front();
        v.name = top.root_cause_class;
        v.summary = top.root_cause + " It cost " + format_duration(top.time_lost_ns) + " (" +
                    format_percent(top.time_lost_share) + " of the loop).";
    } else if (!scheduling_known) {
        v.name = kInsufficientData;
        v.summary =
            "No copy, synchronisation, allocation or start-up cost stands out, but "
            "without scheduling data CPU contention and input waits cannot be judged.";
    } else {
        v.name = kHealthy;
        v.summary = "No cause costs " + format_percent(0.10) +
                    " or more of the loop: the host keeps the GPU fed.";
    }
    if (quality.data_loss) {
        v.summary += " Warning: " + std::to_string(quality.events_lost) +
                     " events were lost while recording (see data quality); numbers may be "
                     "low.";
    }
    if (accounting.accounted_calls > 0) {
        v.numbers = loop_numbers(accounting);
    }
    return v;
}

}  // namespace causeway::analysis
