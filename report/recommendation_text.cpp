#include "report/recommendation_text.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/measure/python_lines.hpp"
#include "report/chain_text.hpp"
#include "report/human_units.hpp"

namespace causeway::report {
namespace {

using analysis::Fact;
using analysis::fact;
using analysis::RecommendationKind;

// Below this share of the loop on the host's critical path (the device idle, waiting for it),
// host-side changes cannot shorten the step much: GPU-BOUND's advice says so only then.
constexpr double kHostCriticalShareNegligible = 0.15;

// "hogd (pid 7), stress (pid 9)": up to four competitors of one role, each named once (the
// competitors are threads: a process's threads of one name are one of them).
std::string describe_group(const std::vector<analysis::Competitor>& competitors,
                           analysis::Role role) {
    std::vector<std::string> listed;
    for (const auto& c : competitors) {
        if (c.role != role || listed.size() == 4) {
            continue;
        }
        std::string name = c.comm + " (pid " + std::to_string(c.pid) +
                           analysis::in_container_text(c.container) + ")";
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) {
            listed.push_back(std::move(name));
        }
    }
    std::string names;
    for (const std::string& name : listed) {
        names += (names.empty() ? "" : ", ") + name;
    }
    return names;
}

// "metrics's Python work (train.py:57 in summarise)": the GIL holder and the line it held it at.
std::string gil_work(const analysis::CausalChain& chain) {
    std::string work = chain.actor.name + "'s Python work";
    return chain.actor_line ? work + " (" + analysis::describe_line(*chain.actor_line) + ")" : work;
}

std::string persistent_workers_text(const analysis::CausalChain& chain,
                                    const analysis::Recommendation& r) {
    const std::string generations = std::to_string(fact<Fact::kWorkerGenerations>(r));
    // Contention pays the forks on the CPU; an input wait pays the workers' start-up.
    if (chain.root_cause_class == analysis::VerdictClass::kCpuContended) {
        return "Set persistent_workers=True: a new set of workers was forked " + generations +
               " times (every epoch), each paying fork and page-allocation costs.";
    }
    return "Set persistent_workers=True: a new set of DataLoader workers was forked " +
           generations + " times, and each epoch waits for them to start.";
}

}  // namespace

std::string recommendation_text(const analysis::CausalChain& chain,
                                const analysis::Recommendation& r) {
    switch (r.kind) {
        case RecommendationKind::kIndexInMemory:
            return "If the dataset is already in memory (tensors), index it directly "
                   "(x[i:i+batch_size]) instead of a DataLoader with workers: no worker processes "
                   "competing for the CPU and no inter-process copies.";
        case RecommendationKind::kFewerWorkers:
            return "Otherwise use fewer DataLoader workers: " +
                   std::to_string(fact<Fact::kWorkers>(r)) + " workers on " +
                   std::to_string(fact<Fact::kCpus>(r)) +
                   " CPUs leave the training thread no core of its own; try num_workers=" +
                   std::to_string(fact<Fact::kNumWorkers>(r)) +
                   (fact<Fact::kCpus>(r) > 2 ? " or fewer." : ".");
        case RecommendationKind::kWorkersYieldCpu:
            return "Otherwise keep DataLoader workers from preempting the training thread: try "
                   "num_workers=" +
                   std::to_string(fact<Fact::kNumWorkers>(r)) +
                   ", or os.nice(10) in worker_init_fn.";
        case RecommendationKind::kPersistentWorkers:
            return persistent_workers_text(chain, r);
        case RecommendationKind::kStopCompetitors:
            return "Stop " + describe_group(chain.competitors, analysis::Role::kCompetitor) +
                   " or keep them off the training cores (taskset, cgroup cpusets).";
        case RecommendationKind::kLimitIntraOpThreads:
            return "Limit intra-op threads (torch.set_num_threads, OMP_NUM_THREADS) to the cores "
                   "left free (" +
                   describe_group(chain.competitors, analysis::Role::kOther) + " took the CPU).";
        case RecommendationKind::kOwnCore:
            return "Give the training thread a core of its own: fewer busy threads and processes "
                   "on this machine, or pin them away from it (taskset, cgroup cpusets).";
        case RecommendationKind::kMoreWorkers:
            return "Load faster in parallel: raise num_workers from " +
                   std::to_string(fact<Fact::kNumWorkers>(r)) + " to " +
                   std::to_string(fact<Fact::kMoreNumWorkers>(r)) + " (about " +
                   format_decimal(fact<Fact::kIdleCpus>(r), 1) + " of " +
                   std::to_string(fact<Fact::kCpus>(r)) +
                   " CPUs were idle while the training thread waited), or raise prefetch_factor.";
        case RecommendationKind::kWorkersOutnumberCpus:
            return "More workers will not help: " + std::to_string(fact<Fact::kNumWorkers>(r)) +
                   " workers already outnumber the " + std::to_string(fact<Fact::kCpus>(r)) +
                   " CPUs, and about " + format_decimal(fact<Fact::kIdleCpus>(r), 1) +
                   " CPUs were idle while the training thread waited. The training thread "
                   "receives each batch itself (one inter-process hand-over per batch): send "
                   "fewer, larger tensors per batch, or fetch whole batches in one __getitems__.";
        case RecommendationKind::kBackgroundLoading:
            return "Prepare batches in the background (DataLoader num_workers > 0, prefetching): "
                   "the training thread waited while CPUs had room.";
        case RecommendationKind::kCheaperLoading:
            return "The CPUs are saturated, so more workers will not help: make loading cheaper "
                   "(pre-process once, cache decoded samples, index in-memory tensors directly).";
        case RecommendationKind::kDataInMemory:
            return "Reading from disk holds the loop: keep the data set in the page cache or in "
                   "memory, move it to faster storage, or prefetch it in background workers.";
        case RecommendationKind::kRemoveSleep:
            return "The training loop sleeps (a time.sleep, a polling interval or a timed wait): "
                   "remove or shorten the sleep.";
        case RecommendationKind::kPrefetchNetworkInput:
            return "Input arrives over the network: prefetch it, cache it locally, or read it with "
                   "more parallel streams.";
        case RecommendationKind::kFasterProducer:
            return "The training thread waits for " + chain.actor.name + " (tid " +
                   std::to_string(chain.actor.tid) +
                   "): make its work cheaper or run more producers, so that the next input is "
                   "ready when the step ends.";
        case RecommendationKind::kFasterOutsideProcess:
            return "The training thread waits for " + chain.actor.name +
                   ", a process outside the traced tree: speed it up "
                   "or record it too (trace its process tree).";
        case RecommendationKind::kShorterCriticalSection:
            return "Shorten " + chain.actor.name +
                   "'s critical section or move its work out of the lock (copy "
                   "what it needs under the lock, compute outside it); a queue or double buffer "
                   "instead of a shared lock lets the training thread go on.";
        case RecommendationKind::kAvoidGil:
            return "If " + chain.actor.name +
                   " runs Python code, the lock may be the GIL: move its work to a process, or to "
                   "code that releases the GIL (torch ops, numpy).";
        case RecommendationKind::kFasterDeviceWork: {
            const std::string device =
                "Speed up the device work (mixed precision with torch.autocast, fused or larger "
                "kernels, torch.compile)";
            const double host = fact<Fact::kHostCriticalShare>(r);
            if (host < kHostCriticalShareNegligible) {
                return device +
                       "; host-side changes such as more DataLoader workers or pinned "
                       "memory will not shorten the step.";
            }
            return device + "; the device also waits for the host " + format_percent(host) +
                   " of the loop: the other chains say why.";
        }
        case RecommendationKind::kReuseDeviceBuffers:
            return "Reuse device buffers: allocate once outside the loop, rely on PyTorch's "
                   "caching allocator (do not call torch.cuda.empty_cache() in the loop), or use "
                   "cudaMallocAsync memory pools.";
        case RecommendationKind::kReusePinnedBuffers:
            return "Allocate pinned host buffers once and reuse them: cudaMallocHost/cudaFreeHost "
                   "take " +
                   format_percent(fact<Fact::kPinnedShare>(r)) + " of the allocation time.";
        case RecommendationKind::kPinnedCopies:
            return "Copy from pinned memory: DataLoader(pin_memory=True) and "
                   ".to(device, non_blocking=True), so copies skip the staging copy and overlap "
                   "compute." +
                   (fact<Fact::kLinkWidth>(r) > 0
                        ? " Pinned, they would move about " +
                              format_throughput(fact<Fact::kPinnedBytesPerS>(r)) +
                              " over the GPU's " +
                              format_decimal(static_cast<double>(fact<Fact::kLinkMts>(r)) / 1000.0,
                                             1) +
                              " GT/s x" + std::to_string(fact<Fact::kLinkWidth>(r)) + " PCIe link."
                        : std::string());
        case RecommendationKind::kBatchSmallCopies:
            return "Batch small copies: " + format_percent(fact<Fact::kSmallShare>(r)) + " of " +
                   std::to_string(fact<Fact::kCopies>(r)) +
                   " copies are under 64 KiB, so per-call overhead dominates; move whole batches "
                   "or stack tensors before copying.";
        case RecommendationKind::kFewerBytes:
            return "Move fewer bytes: keep tensors on the GPU between steps, copy in lower "
                   "precision, or overlap copies with compute on a separate stream.";
        case RecommendationKind::kSteadyStateWindow:
            return "Record a longer run, or analyse the steady state with --window starting after "
                   "start-up; for a service, warm up (one dummy step) before taking traffic.";
        case RecommendationKind::kLazyModuleLoading:
            return "The first kernel launch loads modules: keep CUDA_MODULE_LOADING=LAZY (the "
                   "default since CUDA 11.7) and avoid loading unused kernels.";
        case RecommendationKind::kMoveHostWork:
            return "Move the per-batch work out of the training thread: into the DataLoader's "
                   "workers (Dataset.__getitem__, collate_fn) or onto the GPU, so the device's "
                   "next work is queued while it is prepared.";
        case RecommendationKind::kCheaperHostWork:
            return "Or make it cheaper: fewer, larger operations instead of many small ones, "
                   "torch.compile or CUDA graphs to cut the per-launch dispatch, no Python loops "
                   "over samples.";
        case RecommendationKind::kRaiseCpuLimit:
            return "Raise the CPU limit of the job's container or cgroup (Kubernetes "
                   "resources.limits.cpu; cpu.max, or cpu.cfs_quota_us under cgroup v1)" +
                   (fact<Fact::kQuotaCpus>(r) > 0
                        ? ", now " + format_decimal(fact<Fact::kQuotaCpus>(r), 2) + " CPUs"
                        : std::string()) +
                   ", or drop the limit and keep the request" +
                   (fact<Fact::kCpusUsedUnthrottled>(r) > 0
                        ? " (while the quota let it run, the job used " +
                              format_decimal(fact<Fact::kCpusUsedUnthrottled>(r), 1) +
                              " CPUs: request that many)"
                        : std::string()) +
                   ": the thread waited, runnable, until the group's next quota period.";
        case RecommendationKind::kWiderCpuset:
            return "The job may run on only " + std::to_string(fact<Fact::kCpusAllowed>(r)) +
                   " of the machine's " + std::to_string(fact<Fact::kCpus>(r)) +
                   " CPUs (its cpuset.cpus, or a taskset/numactl pinning): give it more (a wider "
                   "cpuset; in Kubernetes more CPUs under the static CPU manager policy) or drop "
                   "the pinning, so its threads stop taking turns on the same CPUs.";
        case RecommendationKind::kLateRankFirst:
            return "Make " + chain.actor.name +
                   " arrive on time: every collective waits for it, so what delays it (" +
                   late_cause_text(fact<Fact::kLateCause>(chain)) +
                   ") delays the whole job; the chains of that cause say what to change on it.";
        case RecommendationKind::kBalanceRanks:
            return "If " + chain.actor.name +
                   " has more to do than the others (a larger shard, uneven batch sizes, "
                   "logging, evaluation or checkpointing on that rank alone), even the work out "
                   "or move the extra work off the step.";
        case RecommendationKind::kGilWorkToProcess:
            return "Move " + gil_work(chain) +
                   " out of the training process, into a DataLoader worker or a "
                   "multiprocessing.Process: the threads of one process share one GIL, and the "
                   "training thread needs it back after every CUDA call.";
        case RecommendationKind::kReleaseGil:
            return "Or make that work release the GIL: vectorised torch or NumPy operations "
                   "instead of Python loops, or a time.sleep between its rounds.";
        case RecommendationKind::kShorterSwitchInterval:
            return "Until then, sys.setswitchinterval(0.001) in the training process makes the "
                   "holder hand the GIL over sooner: the " +
                   std::to_string(fact<Fact::kHandovers>(r)) + " waits took " +
                   format_duration(fact<Fact::kWaitNs>(r)) +
                   " each on average, most of the interpreter's 5 ms switch interval. It "
                   "shortens the waits, it does not remove them.";
    }
    return {};
}

}  // namespace causeway::report
