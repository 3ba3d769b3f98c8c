// CPU-CONTENDED: the threads that drive the GPU were runnable but not running (preempted, or
// woken and waiting for a CPU) because an actor held their CPU, measured against their own
// off-CPU intervals. Switches of other threads are never evidence: a thread that was not
// preempted is not contended.
#include <algorithm>
#include <map>
#include <set>

#include "analysis/diagnose/chain_builders.hpp"
#include "analysis/human_units.hpp"
#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

constexpr std::size_t kMaxCompetitors = 8;

std::vector<Competitor> name_competitors(const TraceModel& model, const Roles& roles,
                                         const CompetitorTime& time) {
    std::int64_t total = 0;
    for (const auto& [thread, ns] : time) {
        add_to(total, ns);
    }
    std::vector<Competitor> out;
    for (const auto& [thread, ns] : time) {
        Competitor c;
        c.preempted_ns = ns;
        c.share = total > 0 ? static_cast<double>(ns) / static_cast<double>(total) : 0;
        if (thread < 0) {
            c.comm = "<thread not recorded>";
            c.role = Role::kCompetitor;
        } else {
            const ThreadInfo& t = model.threads[static_cast<std::size_t>(thread)];
            const ProcessInfo& p = model.process_of_thread(thread);
            c.comm = t.comm;
            c.pid = p.pid;
            c.tid = t.tid;
            c.in_tree = p.in_tree;
            c.role = roles.thread[static_cast<std::size_t>(thread)];
        }
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const Competitor& a, const Competitor& b) {
        return a.preempted_ns > b.preempted_ns;
    });
    if (out.size() > kMaxCompetitors) {
        out.resize(kMaxCompetitors);
    }
    return out;
}

// "pt_data_worker (4 processes, 100% of the preempted time)": competitors of one name together.
std::string top_name_group(const std::vector<Competitor>& competitors) {
    std::map<std::string, std::pair<double, std::set<std::int64_t>>> by_name;
    for (const auto& c : competitors) {
        by_name[c.comm].first += c.share;
        by_name[c.comm].second.insert(c.pid);
    }
    auto top = std::max_element(by_name.begin(), by_name.end(), [](const auto& a, const auto& b) {
        return a.second.first < b.second.first;
    });
    if (top == by_name.end()) {
        return "threads the trace does not name";
    }
    std::size_t processes = top->second.second.size();
    return top->first + " (" +
           (processes == 1 ? "pid " + std::to_string(*top->second.second.begin())
                           : std::to_string(processes) + " processes") +
           ", " + format_percent(top->second.first) + " of the preempted time)";
}

// The competitor time of the cause's own threads.
CompetitorTime of_cause(const CompetitorTime& time, const Cause& cause) {
    CompetitorTime mine;
    for (const auto& [thread, ns] : time) {
        if (std::find(cause.threads.begin(), cause.threads.end(), thread) != cause.threads.end() ||
            (thread < 0 && cause.key.kind == CauseKind::kUnknownCompetitor)) {
            mine[thread] = ns;
        }
    }
    return mine;
}

std::int64_t total_of(const CompetitorTime& time) {
    std::int64_t total = 0;
    for (const auto& [thread, ns] : time) {
        add_to(total, ns);
    }
    return total;
}

void add_symptom(const ChainInputs& in, std::int64_t lost, double share, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    // The slow op whose calls lost the most time waiting for a CPU.
    const OpAccount* worst = nullptr;
    for (const auto& op : acc.ops) {
        if (op.slow_split.runnable_waiting_ns() > 0 &&
            (worst == nullptr ||
             op.slow_split.runnable_waiting_ns() > worst->slow_split.runnable_waiting_ns())) {
            worst = &op;
        }
    }
    if (worst != nullptr) {
        chain.op = in.model.ops[static_cast<std::size_t>(worst->op_index)].name;
        chain.symptom = slow_op_symptom(in.model, *worst);
    } else {
        chain.symptom = "the threads that drive the GPU were runnable but not running for " +
                        format_duration(lost) + " (" + format_percent(share) +
                        " of their loop), between CUDA calls";
    }
}

void add_context_evidence(const ChainInputs& in, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    const TimeSplit& slow = acc.slow_split;
    if (!acc.slow_calls.empty()) {
        double slow_share = slow.total_ns > 0 ? static_cast<double>(slow.runnable_waiting_ns()) /
                                                    static_cast<double>(slow.total_ns)
                                              : 0.0;
        chain.evidence.push_back(evidence(
            "slow_calls_runnable_waiting_share", slow_share, "ratio",
            "the " + std::to_string(acc.slow_calls.size()) + " slow calls spent " +
                format_percent(slow_share) + " of their " + format_duration(slow.total_ns) +
                " runnable but not running on their own thread (asleep " +
                format_percent(slow.total_ns > 0 ? static_cast<double>(slow.blocked_ns) /
                                                       static_cast<double>(slow.total_ns)
                                                 : 0.0) +
                ")"));
    }
    const SystemContext& ctx = acc.slow_calls.empty() ? in.during_span : in.during_slow_calls;
    std::int64_t cpus = in.model.session.cpu_count;
    if (ctx.covered_ns > 0) {
        chain.evidence.push_back(evidence(
            "runnable_tree_threads", ctx.runnable_tree_threads, "count",
            "runnable threads of the traced tree: " + format_decimal(ctx.runnable_tree_threads, 1) +
                " on average for " + std::to_string(cpus) + " CPUs" +
                (acc.slow_calls.empty() ? "" : " during the slow calls")));
        if (ctx.page_allocs_per_s > 0) {
            chain.evidence.push_back(
                evidence("page_allocs_per_s", ctx.page_allocs_per_s, "per_s",
                         "page allocations of the tree: " + format_rate(ctx.page_allocs_per_s) +
                             (acc.slow_calls.empty() ? "" : " during the slow calls") +
                             " (run average " + format_rate(ctx.page_allocs_per_s_overall) + ")"));
        }
        if (ctx.snapshots > 0) {
            chain.evidence.push_back(evidence(
                "cpu_busy_pct", ctx.cpu_busy_pct, "pct",
                "system: CPUs " + format_decimal(ctx.cpu_busy_pct, 0) + "% busy, " +
                    format_decimal(ctx.procs_running, 1) + " runnable tasks (procs_running)"));
        }
    }
    const DataLoaderFacts& loader = in.loader;
    if (loader.has_workers()) {
        chain.evidence.push_back(
            evidence("dataloader_workers", loader.max_concurrent_workers, "count",
                     std::to_string(loader.max_concurrent_workers) +
                         " DataLoader workers at once on " + std::to_string(cpus) + " CPUs (" +
                         std::to_string(loader.workers_seen) + " worker processes over the run)"));
    }
}

void recommend_for_workers(const ChainInputs& in, CausalChain& chain) {
    const DataLoaderFacts& loader = in.loader;
    std::int64_t cpus = in.model.session.cpu_count;
    chain.recommendations.push_back({RecommendationKind::kIndexInMemory});
    if (loader.workers_at_least_cores()) {
        chain.recommendations.push_back(
            {RecommendationKind::kFewerWorkers,
             {{"workers", static_cast<std::int64_t>(loader.max_concurrent_workers)},
              {"cpus", static_cast<std::int64_t>(cpus)},
              {"num_workers", std::max<std::int64_t>(1, cpus - 1)}}});
    } else {
        chain.recommendations.push_back(
            {RecommendationKind::kWorkersYieldCpu,
             {{"num_workers",
               static_cast<std::int64_t>(std::max(1, loader.max_concurrent_workers - 1))}}});
    }
    if (loader.reforked) {
        chain.recommendations.push_back(
            {RecommendationKind::kPersistentWorkers,
             {{"worker_generations", static_cast<std::int64_t>(loader.worker_generations)}}});
    }
}

}  // namespace

void describe_cpu_contention(const ChainInputs& in, const Cause& cause, CausalChain& chain) {
    const CallAccounting& acc = in.accounting;
    std::int64_t lost = chain.time_lost_ns;
    double share = chain.time_lost_share;
    add_symptom(in, lost, share, chain);
    add_context_evidence(in, chain);
    const CompetitorTime& slow_time = of_cause(acc.competitors_slow, cause);
    const CompetitorTime& who =
        total_of(slow_time) >= 1'000'000 ? slow_time : of_cause(acc.competitors_all, cause);
    chain.competitors = name_competitors(in.model, in.roles, who);

    chain.root_cause = "The thread that drives the GPU loses its CPU: " + format_percent(share) +
                       " of its loop went to ";
    switch (cause.key.kind) {
        case CauseKind::kDataLoaderWorkers:
            chain.root_cause += "its DataLoader workers, " + top_name_group(chain.competitors) +
                                ", on saturated CPUs" +
                                (cause.woken_ns() > 0 ? "; it also waited for their batches" : "") +
                                ".";
            recommend_for_workers(in, chain);
            break;
        case CauseKind::kProcessesOutside:
            chain.root_cause +=
                "processes outside the traced tree, " + top_name_group(chain.competitors) + ".";
            chain.recommendations.push_back({RecommendationKind::kStopCompetitors});
            break;
        case CauseKind::kTreeThreads:
            chain.root_cause +=
                "other threads of the traced processes, " + top_name_group(chain.competitors) + ".";
            chain.recommendations.push_back({RecommendationKind::kLimitIntraOpThreads});
            break;
        case CauseKind::kSeveral:
            chain.root_cause +=
                "several competitors, none large alone: " + top_name_group(chain.competitors) +
                " first.";
            chain.recommendations.push_back({RecommendationKind::kOwnCore});
            break;
        default:
            chain.root_cause += chain.competitors.empty()
                                    ? "waiting in the run queue after wakeups."
                                    : top_name_group(chain.competitors) + ".";
            break;
    }
    const TimeSplit& slow = acc.slow_split;
    double coverage = acc.slow_excess_ns > 0 && slow.runnable_waiting_ns() > 0
                          ? static_cast<double>(slow.runnable_waiting_ns()) /
                                static_cast<double>(acc.slow_excess_ns)
                          : share;
    chain.confidence = std::max(confidence_from(coverage, 0.5, 0.2),
                                share >= 0.3 ? Confidence::kMedium : Confidence::kLow);
}

}  // namespace causeway::analysis
