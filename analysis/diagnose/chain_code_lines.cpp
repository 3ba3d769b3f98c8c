// The user's Python lines behind a chain: where the threads that drive the GPU waited (or lost
// their CPU), and where the workers that took their CPU spent it. Read from the Python frames of
// CUDA call stacks and of switch-out stacks.
#include <algorithm>
#include <set>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/measure/python_lines.hpp"
#include "analysis/model/gil_holders.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

const std::vector<PythonFrame>* python_frames_of(const TraceModel& model, std::int64_t stack_id) {
    auto it = model.python_frames.find(stack_id);
    return it == model.python_frames.end() ? nullptr : &it->second;
}

const ThreadAccount* primary_account(const CallAccounting& acc, int thread_index) {
    auto it = std::find_if(acc.primary.begin(), acc.primary.end(),
                           [&](const ThreadAccount& t) { return t.thread_index == thread_index; });
    return it == acc.primary.end() ? nullptr : &*it;
}

// The off-CPU interval of `thread` that starts at `ts_ns` (a switch-out), if it was stored.
const OffCpuInterval* interval_at(const TraceModel& model, int thread, std::int64_t ts_ns) {
    const auto& intervals = model.offcpu_by_thread[static_cast<std::size_t>(thread)];
    auto it =
        std::lower_bound(intervals.begin(), intervals.end(), ts_ns,
                         [](const OffCpuInterval& o, std::int64_t ts) { return o.ts_ns < ts; });
    return it != intervals.end() && it->ts_ns == ts_ns ? &*it : nullptr;
}

// Inside the GPU thread's loop (its first call to its last return), as the chain's time is.
bool in_loop(const ThreadAccount& primary, std::int64_t ts_ns) {
    return ts_ns >= primary.span_start_ns && ts_ns < primary.span_end_ns;
}

bool belongs_to(const Cause& cause, const CauseKey& key) {
    return cause.key == key ||
           std::find(cause.members.begin(), cause.members.end(), key) != cause.members.end();
}

// The cause a GPU thread's switch-out at `o` is blamed on: who took its CPU when preempted, who
// ended its sleep when it slept between calls; nullopt for a sleep inside a call (the device's).
std::optional<CauseKey> switch_out_cause(const ChainInputs& in, const ThreadAccount& primary,
                                         const OffCpuInterval& o) {
    if (o.preempted) {
        return competitor_cause(in.model, in.roles, o.next_thread_index);
    }
    // gap_sleeps are in time order.
    auto sleep = std::lower_bound(
        primary.gap_sleeps.begin(), primary.gap_sleeps.end(), o.ts_ns,
        [](const SleepOverlap& s, std::int64_t ts) { return s.interval->ts_ns < ts; });
    if (sleep == primary.gap_sleeps.end() || sleep->interval != &o) {
        return std::nullopt;
    }
    return sleep_cause(in.model, in.roles, o);
}

// The whole wait for the GIL that `last`, a sleep of `thread`, ends: it and the sleeps of the
// same wait before it (gil_holders.hpp).
std::int64_t gil_wait_ns(const TraceModel& model, int thread, const OffCpuInterval& last) {
    const auto& intervals = model.offcpu_by_thread[static_cast<std::size_t>(thread)];
    auto index = static_cast<std::size_t>(&last - intervals.data());
    std::int64_t ns = last.dur_ns;
    while (index > 0 && intervals[index - 1].gil &&
           intervals[index].ts_ns - intervals[index - 1].end_ns() <= kGilRecheckNs) {
        add_to(ns, intervals[--index].dur_ns);
    }
    return ns;
}

void tally_calls(const ChainInputs& in, const std::vector<std::uint32_t>& calls, LineTally& tally) {
    const CudaCalls& c = in.model.calls;
    for (std::uint32_t i : calls) {
        if (c.stack_id[i] < 0 || primary_account(in.accounting, c.thread_index[i]) == nullptr) {
            continue;
        }
        if (const auto* frames = python_frames_of(in.model, c.stack_id[i])) {
            tally.add(*frames, c.dur_ns[i]);
        }
    }
}

// The evidence names the line (chain.gpu_thread_line), worded by report/evidence_text.
void add_gpu_thread_line(CausalChain& chain, const CodeLine& line, EvidenceKind kind) {
    chain.evidence.push_back(make_evidence(kind, line.share));
    chain.gpu_thread_line = line;
}

}  // namespace

void add_actor_code_lines(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    if (in.model.python_frames.empty()) {
        return;
    }
    LineTally waits, actor;
    for (const SwitchOutSample& sample : in.model.switch_outs) {
        const auto* frames = python_frames_of(in.model, sample.stack_id);
        if (frames == nullptr) {
            continue;
        }
        if (sample.role == tracedb::SwitchRole::kGilHolder) {
            const ThreadAccount* primary =
                sample.gpu_thread_index >= 0
                    ? primary_account(in.accounting, sample.gpu_thread_index)
                    : nullptr;
            const OffCpuInterval* ended =
                primary != nullptr
                    ? interval_at(in.model, sample.gpu_thread_index, sample.gpu_switch_out_ns)
                    : nullptr;
            if (ended != nullptr && ended->gil && in_loop(*primary, ended->ts_ns) &&
                belongs_to(cause, sleep_cause(in.model, in.roles, *ended))) {
                // Weighed by the whole wait it ended.
                actor.add(*frames, gil_wait_ns(in.model, sample.gpu_thread_index, *ended));
            }
            continue;
        }
        if (sample.role == tracedb::SwitchRole::kCompetitor) {
            const ThreadAccount* primary =
                sample.gpu_thread_index >= 0
                    ? primary_account(in.accounting, sample.gpu_thread_index)
                    : nullptr;
            if (primary == nullptr || !in_loop(*primary, sample.gpu_switch_out_ns) ||
                !belongs_to(cause, competitor_cause(in.model, in.roles, sample.thread_index))) {
                continue;
            }
            // Weighed by how long the GPU thread stayed off the CPU this thread took.
            const OffCpuInterval* taken =
                interval_at(in.model, sample.gpu_thread_index, sample.gpu_switch_out_ns);
            actor.add(*frames, taken != nullptr ? taken->dur_ns : 0);
            continue;
        }
        const ThreadAccount* primary = primary_account(in.accounting, sample.thread_index);
        const OffCpuInterval* o =
            primary != nullptr ? interval_at(in.model, sample.thread_index, sample.ts_ns) : nullptr;
        if (o == nullptr || !in_loop(*primary, o->ts_ns)) {
            continue;
        }
        if (auto key = switch_out_cause(in, *primary, *o); key && belongs_to(cause, *key)) {
            waits.add(*frames, o->dur_ns);
        }
    }
    if (auto line = waits.top()) {
        add_gpu_thread_line(chain, *line,
                            chain.root_cause_class == VerdictClass::kCpuContended ||
                                    chain.root_cause_class == VerdictClass::kCpuThrottled
                                ? EvidenceKind::kGpuThreadLostCpuAt
                                : EvidenceKind::kGpuThreadWaitsAt);
    } else {
        LineTally slow;
        tally_calls(in, in.accounting.slow_calls, slow);
        if (auto slow_line = slow.top()) {
            add_gpu_thread_line(chain, *slow_line, EvidenceKind::kGpuThreadSlowCallsAt);
        }
    }
    if (auto line = actor.top()) {
        chain.evidence.push_back(make_evidence(chain.root_cause_class == VerdictClass::kGilContended
                                                   ? EvidenceKind::kActorHeldGilAt
                                                   : EvidenceKind::kActorSpentCpuAt,
                                               line->share));
        chain.actor_line = line;
    }
}

void add_late_rank_line(const ChainInputs& in, const PerThreadTime& late, CausalChain& chain) {
    if (in.model.python_frames.empty()) {
        return;
    }
    LineTally tally;
    for (const SwitchOutSample& sample : in.model.switch_outs) {
        const auto* frames = python_frames_of(in.model, sample.stack_id);
        // Its own switch-outs, also those where it left a CPU taken from another rank.
        if (frames == nullptr || sample.role == tracedb::SwitchRole::kGilHolder) {
            continue;
        }
        const int q = queue_of_thread(in.queues, sample.thread_index);
        if (q < 0 || static_cast<std::size_t>(q) >= late.size()) {
            continue;
        }
        const OffCpuInterval* off = interval_at(in.model, sample.thread_index, sample.ts_ns);
        if (off == nullptr) {
            continue;
        }
        // Weighed by how much of the lateness it spent off its CPU from there: every window its
        // time off the CPU overlaps, also one the other ranks opened while it was already away
        // (a rank that starts a sleep before they arrive is late for the rest of that sleep).
        const auto& windows = late[static_cast<std::size_t>(q)];
        std::int64_t lateness_ns = 0;
        for (auto window = std::partition_point(
                 windows.begin(), windows.end(),
                 [&](const WeightedInterval& w) { return w.end_ns <= sample.ts_ns; });
             window != windows.end() && window->start_ns < off->end_ns(); ++window) {
            lateness_ns +=
                std::min(off->end_ns(), window->end_ns) - std::max(sample.ts_ns, window->start_ns);
        }
        if (lateness_ns > 0) {
            tally.add(*frames, lateness_ns);
        }
    }
    if (auto line = tally.top()) {
        chain.evidence.push_back(make_evidence(EvidenceKind::kLateRankWasAt, line->share));
        chain.actor_line = line;
    }
}

void add_device_code_line(const ChainInputs& in, CausalChain& chain) {
    if (in.model.python_frames.empty()) {
        return;
    }
    std::set<OpCategory> categories;
    if (chain.root_cause_class == VerdictClass::kGpuBound) {
        categories = {OpCategory::kSync};
    } else if (chain.root_cause_class == VerdictClass::kTransferBound) {
        categories = {OpCategory::kCopy};
    } else if (chain.root_cause_class == VerdictClass::kAllocationChurn) {
        categories = {OpCategory::kAlloc, OpCategory::kFree};
    }
    LineTally tally;
    if (chain.root_cause_class == VerdictClass::kColdStart) {
        tally_calls(in, in.accounting.cold_calls, tally);
    } else {
        const CudaCalls& c = in.model.calls;
        for (const ThreadAccount& primary : in.accounting.primary) {
            std::vector<std::uint32_t> calls;
            for (std::uint32_t i :
                 in.model.calls_by_thread[static_cast<std::size_t>(primary.thread_index)]) {
                if (!c.enclosed[i] && in.range.contains(c.ts_ns[i]) &&
                    categories.count(
                        in.model.ops[static_cast<std::size_t>(c.op_index[i])].category) > 0) {
                    calls.push_back(i);
                }
            }
            tally_calls(in, calls, tally);
        }
    }
    if (auto line = tally.top()) {
        add_gpu_thread_line(chain, *line, EvidenceKind::kGpuThreadWaitsAt);
    }
}

}  // namespace causeway::analysis
