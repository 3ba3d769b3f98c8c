// CPU-CONTENDED: the threads that drive the GPU were runnable but not running (preempted, or
// woken and waiting for a CPU), measured against their own off-CPU intervals. Switches of other
// threads are never evidence: a thread that was not preempted is not contended.
#include <algorithm>
#include <map>
#include <set>

#include "analysis/chain_builders.hpp"
#include "analysis/human_units.hpp"

namespace causeway::analysis {
namespace {

constexpr std::size_t kMaxCompetitors = 8;

std::vector<Competitor> name_competitors(const TraceModel& model, const Roles& roles,
                                         const CompetitorTime& time) {
    std::int64_t total = 0;
    for (const auto& [thread, ns] : time) {
        total += ns;
    }
    std::vector<Competitor> out;
    for (const auto& [thread, ns] : time) {
        Competitor c;
        c.preempted_ns = ns;
        c.share = total > 0 ? static_cast<double>(ns) / static_cast<double>(total) : 0;
        if (thread < 0) {
            c.comm = "<thread not recorded>";
            c.role = role_name(Role::kCompetitor);
        } else {
            const ThreadInfo& t = model.threads[static_cast<std::size_t>(thread)];
            const ProcessInfo& p = model.process_of_thread(thread);
            c.comm = t.comm;
            c.pid = p.pid;
            c.tid = t.tid;
            c.in_tree = p.in_tree;
            c.role = role_name(roles.thread[static_cast<std::size_t>(thread)]);
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

// Shares of the preempted time by the competitor's role.
std::map<std::string, double> share_by_role(const Roles& roles, const CompetitorTime& time) {
    std::int64_t total = 0;
    std::map<std::string, std::int64_t> ns;
    for (const auto& [thread, t_ns] : time) {
        total += t_ns;
        ns[thread < 0 ? "competitor" : role_name(roles.thread[static_cast<std::size_t>(thread)])] +=
            t_ns;
    }
    std::map<std::string, double> shares;
    for (const auto& [role, role_ns] : ns) {
        shares[role] = total > 0 ? static_cast<double>(role_ns) / static_cast<double>(total) : 0;
    }
    return shares;
}

std::string describe_group(const std::vector<Competitor>& competitors, const std::string& role) {
    std::string names;
    int listed = 0;
    for (const auto& c : competitors) {
        if (c.role != role || listed == 4) {
            continue;
        }
        names += (listed++ ? ", " : "") + c.comm + " (pid " + std::to_string(c.pid) + ")";
    }
    return names;
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
    std::size_t processes = top->second.second.size();
    return top->first + " (" +
           (processes == 1 ? "pid " + std::to_string(*top->second.second.begin())
                           : std::to_string(processes) + " processes") +
           ", " + format_percent(top->second.first) + " of the preempted time)";
}

std::int64_t total_of(const CompetitorTime& time) {
    std::int64_t total = 0;
    for (const auto& [thread, ns] : time) {
        total += ns;
    }
    return total;
}

}  // namespace

std::optional<CausalChain> cpu_contention_chain(const ChainInputs& in) {
    const CallAccounting& acc = in.accounting;
    std::int64_t lost = acc.in_calls.runnable_waiting_ns() + acc.gaps.runnable_waiting_ns();
    double share = in.share_of_span(lost);
    if (acc.span_ns == 0 || share < kChainMinShare) {
        return std::nullopt;
    }
    CausalChain chain;
    chain.root_cause_class = kCpuContended;
    chain.time_lost_ns = lost;
    chain.time_lost_share = share;

    const TimeSplit& slow = acc.slow_split;
    double slow_share = slow.total_ns > 0 ? static_cast<double>(slow.runnable_waiting_ns()) /
                                                static_cast<double>(slow.total_ns)
                                          : 0.0;
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

    chain.evidence.push_back(evidence(
        "runnable_waiting_share", share, "ratio",
        "the GPU-driving thread was runnable but not running for " + format_duration(lost) + " (" +
            format_percent(share) + " of " + format_duration(acc.span_ns) + "): preempted " +
            format_duration(acc.in_calls.preempted_ns + acc.gaps.preempted_ns) +
            ", waiting for a CPU after a wakeup " +
            format_duration(acc.in_calls.wakeup_wait_ns + acc.gaps.wakeup_wait_ns)));
    if (!acc.slow_calls.empty()) {
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
    chain.evidence.push_back(
        evidence("between_calls_runnable_waiting_ns",
                 static_cast<double>(acc.gaps.runnable_waiting_ns()), "ns",
                 "between CUDA calls: " + format_duration(acc.gaps.runnable_waiting_ns()) +
                     " runnable but not running, inside CUDA calls: " +
                     format_duration(acc.in_calls.runnable_waiting_ns())));

    const CompetitorTime& who =
        total_of(acc.competitors_slow) >= 1'000'000 ? acc.competitors_slow : acc.competitors_all;
    chain.competitors = name_competitors(in.model, in.roles, who);
    auto roles = share_by_role(in.roles, who);

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

    double workers = roles["dataloader_worker"];
    double outside = roles["competitor"];
    double own = roles["other"] + roles["pin_memory"];
    chain.root_cause =
        "The thread that drives the GPU loses its CPU: it was runnable but not "
        "running for " +
        format_percent(share) + " of its loop";
    if (chain.competitors.empty()) {
        chain.root_cause += ", waiting in the run queue after wakeups.";
    } else {
        chain.root_cause += ", mostly to " + top_name_group(chain.competitors) + ".";
    }
    if (workers >= 0.3) {
        if (loader.workers_at_least_cores()) {
            chain.recommendations.push_back(
                "Use fewer DataLoader workers: " + std::to_string(loader.max_concurrent_workers) +
                " workers on " + std::to_string(cpus) + " CPUs took " + format_percent(workers) +
                " of the CPU time the training thread was denied; try num_workers=" +
                std::to_string(std::max<std::int64_t>(1, cpus - 1)) +
                (cpus > 2 ? " or fewer." : "."));
        } else {
            chain.recommendations.push_back(
                "Keep DataLoader workers from preempting the training thread (" +
                format_percent(workers) +
                " of its lost CPU went to them): fewer workers, or os.nice(10) in worker_init_fn.");
        }
        chain.recommendations.push_back(
            "If the dataset is already in memory (tensors), index it directly "
            "(x[i:i+batch_size]) instead of a DataLoader with workers: no worker processes "
            "competing for the CPU and no inter-process copies.");
        if (loader.reforked) {
            chain.recommendations.push_back(
                "Set persistent_workers=True: a new set of workers was forked " +
                std::to_string(loader.worker_generations) +
                " times (every epoch), each paying fork and page-allocation costs.");
        }
    }
    if (outside >= 0.2) {
        chain.recommendations.push_back(
            "Processes outside the traced tree took " + format_percent(outside) +
            " of the CPU denied to the training thread (" +
            describe_group(chain.competitors, "competitor") +
            "): stop them or keep them off the training cores (taskset, cgroup cpusets).");
    }
    if (own >= 0.3) {
        chain.recommendations.push_back(
            "Threads of the traced processes themselves took " + format_percent(own) + " (" +
            describe_group(chain.competitors, "other") +
            "): limit intra-op threads (torch.set_num_threads, OMP_NUM_THREADS) to the cores "
            "left free.");
    }
    double coverage = acc.slow_excess_ns > 0 && slow.runnable_waiting_ns() > 0
                          ? static_cast<double>(slow.runnable_waiting_ns()) /
                                static_cast<double>(acc.slow_excess_ns)
                          : share;
    chain.confidence = std::max(confidence_from(coverage, 0.5, 0.2),
                                share >= 0.3 ? Confidence::kMedium : Confidence::kLow);
    return chain;
}

}  // namespace causeway::analysis
