#include "analysis/diagnose/diagnosis.hpp"

#include <algorithm>
#include <future>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/diagnose/dataloader_facts.hpp"
#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/diagnose/evidence_limits.hpp"
#include "analysis/diagnose/job_cpus.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/call_accounting.hpp"
#include "analysis/measure/collective_meetings.hpp"
#include "analysis/measure/system_context.hpp"
#include "analysis/model/freed_heap.hpp"

namespace causeway::analysis {
namespace {

Intervals primary_spans(const CallAccounting& acc) {
    Intervals spans;
    for (const auto& t : acc.primary) {
        spans.emplace_back(t.span_start_ns, t.span_end_ns);
    }
    std::sort(spans.begin(), spans.end());
    Intervals merged;
    for (const auto& s : spans) {
        if (!merged.empty() && s.first <= merged.back().second) {
            merged.back().second = std::max(merged.back().second, s.second);
        } else {
            merged.push_back(s);
        }
    }
    return merged;
}

std::int64_t host_event_rows(const TraceModel& model) {
    std::int64_t rows = static_cast<std::int64_t>(model.page_alloc.size() + model.snapshots.size() +
                                                  model.event_counts.size());
    for (const auto& list : model.offcpu_by_thread) {
        rows += static_cast<std::int64_t>(list.size());
    }
    return rows;
}

bool scheduling_known(const TraceModel& model) {
    return std::any_of(model.offcpu_by_thread.begin(), model.offcpu_by_thread.end(),
                       [](const auto& list) { return !list.empty(); });
}

// Off-CPU intervals whose reason the recorder did not know (an imported trace stores them as
// blocked) cannot tell preemption from sleep; chains that rest on that split stay LOW and say why.
void cap_chains_resting_on_unknown_reasons(const TraceModel& model,
                                           std::vector<CausalChain>& chains) {
    auto unknown = std::find_if(
        model.data_quality.begin(), model.data_quality.end(), [](const DataQualityItem& item) {
            return item.is(tracedb::DataQualityCounter::kOffcpuReasonUnknown) && item.value > 0;
        });
    if (unknown == model.data_quality.end()) {
        return;
    }
    for (auto& chain : chains) {
        VerdictClass c = chain.root_cause_class;
        if (c != VerdictClass::kInputBound && c != VerdictClass::kCpuContended &&
            c != VerdictClass::kCpuThrottled && c != VerdictClass::kLockContended &&
            c != VerdictClass::kGilContended && c != VerdictClass::kGpuBound) {
            continue;
        }
        chain.confidence = Confidence::kLow;
        chain.evidence.push_back(
            make_evidence(EvidenceKind::kOffcpuReasonUnknown, static_cast<double>(unknown->value)));
    }
}

// A chain whose cause is worth removing by its prediction but may gain little at the prediction's
// low end (the device's work, bounded by drains that found it done, may have been most of the
// step) is not proven to matter: at most MEDIUM, and it says how many drains measured the device.
// One that is not worth removing at all is LOW.
void hedge_chains_that_may_gain_little(const std::vector<DeviceQueue>& queues,
                                       std::vector<CausalChain>& chains) {
    std::int64_t drains = 0;
    std::int64_t waited = 0;
    for (const DeviceQueue& queue : queues) {
        drains += static_cast<std::int64_t>(queue.periods.size());
        waited += queue.waited_periods;
    }
    for (auto& chain : chains) {
        if (!worth_removing(chain)) {
            chain.confidence = Confidence::kLow;
        } else if (may_gain_little(chain)) {
            chain.confidence = std::min(chain.confidence, Confidence::kMedium);
            chain.evidence.push_back(
                make_evidence(EvidenceKind::kGainMayBeSmall, chain.critical_path->speedup_low,
                              {{Fact::kDrains, drains}, {Fact::kDrainsWaited, waited}}));
        }
    }
}

// The chain whose removal gains most comes first: by critical-path cost where both have one,
// else by the time they account for.
bool costs_more(const CausalChain& a, const CausalChain& b) {
    if (a.critical_path && b.critical_path) {
        return a.critical_path->cost_ns > b.critical_path->cost_ns;
    }
    return a.time_lost_ns > b.time_lost_ns;
}

}  // namespace

Diagnosis diagnose(const TraceModel& model, const DiagnosisOptions& options) {
    ResolvedFilter filter(model, options.filter);
    Roles roles = assign_roles(model);
    // The per-process table reads every call again on its own: it runs beside the chains.
    auto processes = std::async(std::launch::async, [&] {
        return process_breakdown(model, roles, options.filter, options.breakdown);
    });
    CallAccounting accounting = account_calls(model, roles, filter);
    give_back_freed_heap();
    // What the CPUs did while the slow calls ran and while the loop ran: beside the queues and
    // the causes' timelines, whose tails leave a CPU idle.
    auto during_slow_calls = std::async(std::launch::async, [&] {
        return context_during(model, accounting.slow_intervals, filter.window());
    });
    auto during_span = std::async(std::launch::async, [&] {
        return context_during(model, primary_spans(accounting), filter.window());
    });
    DataLoaderFacts loader = dataloader_facts(model, roles);
    const std::vector<Cause> causes = attribute_causes(model, roles, accounting);
    std::vector<CommunicatorRanks> ranks = align_ranks(model);
    // The device's queues and where each cause's time lies each read every call of the
    // GPU-driving threads, and neither needs the other: side by side.
    auto replayed = std::async(std::launch::async, [&] {
        std::vector<DeviceQueue> queues;
        for (const ThreadAccount& primary : accounting.primary) {
            queues.push_back(reconstruct_queue(model, filter, primary.thread_index));
        }
        mark_collectives(model, ranks, queues);
        forget_bounds(queues);
        return queues;
    });
    const CauseTimeline timeline = cause_timeline(model, roles, filter, accounting, causes,
                                                  /*every_category=*/!ranks.empty());
    const std::vector<DeviceQueue> queues = replayed.get();
    give_back_freed_heap();
    const CriticalPath critical_path(queues);
    ChainInputs inputs{
        .model = model,
        .roles = roles,
        .accounting = accounting,
        .loader = loader,
        .job_cpus = job_cpus(model, accounting),
        .causes = causes,
        .queues = queues,
        .critical_path = critical_path,
        .timeline = timeline,
        .ranks = ranks,
        .filter = filter,
        .range = filter.window(),
        .during_slow_calls = during_slow_calls.get(),
        .during_span = during_span.get(),
    };

    Diagnosis d;
    d.session = session_summary(model);
    d.range = filter.window();
    if (accounting.accounted_calls >= kMinCallsForVerdict) {
        // The job's view first: where a late rank's delay costs what its own cause does (its
        // lateness was that cause's time), the chain that names the rank and the cause leads.
        // Each chain replays the queues on its own: all of them side by side.
        auto actors = std::async(std::launch::async, [&] { return actor_chains(inputs); });
        std::vector<std::future<std::optional<CausalChain>>> device_builds;
        for (auto builder : {gpu_bound_chain, transfer_chain, allocation_churn_chain,
                             cold_start_chain, own_compute_chain}) {
            device_builds.push_back(std::async(std::launch::async, [&inputs, builder] {
                std::optional<CausalChain> chain = builder(inputs);
                if (chain) {
                    add_device_code_line(inputs, *chain);
                }
                return chain;
            }));
        }
        d.chains = collective_wait_chains(inputs);
        std::vector<CausalChain> device_chains;
        for (auto& build : device_builds) {
            if (std::optional<CausalChain> chain = build.get()) {
                device_chains.push_back(std::move(*chain));
            }
        }
        std::vector<CausalChain> actor = actors.get();
        for (auto* chains : {&actor, &device_chains}) {
            for (auto& chain : *chains) {
                d.chains.push_back(std::move(chain));
            }
        }
    }
    cap_chains_resting_on_unknown_reasons(model, d.chains);
    hedge_chains_that_may_gain_little(queues, d.chains);
    std::stable_sort(d.chains.begin(), d.chains.end(), costs_more);
    d.data_quality = data_quality_report(model);
    d.verdict = decide_verdict(accounting, d.chains, d.data_quality, scheduling_known(model),
                               host_event_rows(model));
    for (const auto& t : accounting.primary) {
        const ThreadInfo& thread = model.threads[static_cast<std::size_t>(t.thread_index)];
        d.gpu_threads.push_back(
            {model.process_of_thread(t.thread_index).pid, thread.tid, thread.comm});
    }
    d.processes = processes.get();
    d.evidence_limits = evidence_limits(model, roles, accounting);
    d.ranks = std::move(ranks);
    check_declared_facts(d);
    return d;
}

}  // namespace causeway::analysis
