#include "report/chain_text.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/measure/python_lines.hpp"
#include "report/human_units.hpp"

namespace causeway::report {
namespace {

using analysis::CauseKind;
using analysis::Fact;
using analysis::fact;
using analysis::VerdictClass;

// "pt_data_worker (4 processes, 100% of the preempted time)", "hogd in container 3f2a1b2c3d4e
// (pid 7, ...)": competitors of one name together, with their container where they share one.
// The DataLoader's index feeder threads, which run in the training process under its name, are
// named as what they are: "the index feeder threads of python3 (pid 727, ...)".
std::string top_name_group(const std::vector<analysis::Competitor>& competitors) {
    struct Group {
        double share = 0;
        std::set<std::int64_t> pids;
        std::vector<std::optional<analysis::ContainerIdentity>> containers;
    };
    std::map<std::string, Group> by_name;
    for (const auto& c : competitors) {
        Group& group = by_name[c.role == analysis::Role::kDataLoaderFeeder
                                   ? "the index feeder threads of " + c.comm
                                   : c.comm];
        group.share += c.share;
        group.pids.insert(c.pid);
        group.containers.push_back(c.container);
    }
    auto top = std::max_element(by_name.begin(), by_name.end(), [](const auto& a, const auto& b) {
        return a.second.share < b.second.share;
    });
    if (top == by_name.end()) {
        return "threads the trace does not name";
    }
    const Group& group = top->second;
    const bool one_container =
        std::all_of(group.containers.begin(), group.containers.end(),
                    [&](const auto& container) { return container == group.containers.front(); });
    std::size_t processes = group.pids.size();
    return top->first +
           (one_container ? analysis::in_container_text(group.containers.front()) : "") + " (" +
           (processes == 1 ? "pid " + std::to_string(*group.pids.begin())
                           : std::to_string(processes) + " processes") +
           ", " + format_percent(group.share) + " of the preempted time)";
}

// "cudaStreamSynchronize: 20 of 200 calls slow (> 1.20 ms); p99 40.0 ms = 350x p50 (114 us)..."
std::string slow_op_symptom(const analysis::CausalChain& chain) {
    std::int64_t p50 = fact<Fact::kP50Ns>(chain);
    std::int64_t p99 = fact<Fact::kP99Ns>(chain);
    std::string text =
        chain.op.value_or("") + ": " + std::to_string(fact<Fact::kSlowCalls>(chain)) + " of " +
        std::to_string(fact<Fact::kCalls>(chain)) + " calls slow (> " +
        format_duration(fact<Fact::kThresholdNs>(chain)) + "); p99 " + format_duration(p99);
    if (p50 > 0) {
        text += " = " + format_ratio(static_cast<double>(p99) / static_cast<double>(p50)) +
                " p50 (" + format_duration(p50) + ")";
    }
    return text + ", max " + format_duration(fact<Fact::kMaxNs>(chain));
}

// What the GPU-driving thread waited for, by the actor that ended its sleeps.
std::string waited_for(const analysis::CausalChain& chain) {
    const analysis::Actor& actor = chain.actor;
    switch (actor.kind) {
        case CauseKind::kDataLoaderWorkers:
            return "batches from its DataLoader workers (" + actor.name + ")";
        case CauseKind::kProducerThread:
        case CauseKind::kWakerThread:
            return "thread " + actor.name + " (tid " + std::to_string(actor.tid) + ")";
        case CauseKind::kProcessesOutside:
            return "process " + actor.name + " outside the tree";
        case CauseKind::kDiskIo:
            return "the disk";
        case CauseKind::kNetwork:
            return "the network";
        case CauseKind::kTimer:
            return "a timer: it sleeps";
        case CauseKind::kInterrupt:
            return "device interrupts";
        case CauseKind::kSeveral:
            return "several sources, none large alone";
        default:
            return fact<Fact::kWakersUnrecorded>(chain) != 0
                       ? "its input (a queue, pipe or file; this trace does not record wakers)"
                       : "its input (a queue, pipe or file; the wakeups were not seen)";
    }
}

// "prep_locker (tid 140, pid 100)"
std::string lock_holder(const analysis::Actor& holder) {
    return holder.name + " (tid " + std::to_string(holder.tid) + ", pid " +
           std::to_string(holder.pid) + ")";
}

bool also_waited(const analysis::CausalChain& chain) {
    return std::any_of(chain.effects.begin(), chain.effects.end(), [](const analysis::Effect& e) {
        return e.kind == analysis::EffectKind::kWoken && e.ns > 0;
    });
}

// Who took the CPU, after "... of its loop went to ".
std::string cpu_taken_by(const analysis::CausalChain& chain) {
    const std::string group = top_name_group(chain.competitors);
    switch (chain.actor.kind) {
        case CauseKind::kDataLoaderWorkers:
            return "its DataLoader workers, " + group + ", on saturated CPUs" +
                   (also_waited(chain) ? "; it also waited for their batches" : "") + ".";
        case CauseKind::kProcessesOutside:
            return "processes outside the traced tree, " + group + ".";
        case CauseKind::kTreeThreads:
            return "other threads of the traced processes, " + group + ".";
        case CauseKind::kSeveral:
            return "several competitors, none large alone: " + group + " first.";
        default:
            return chain.competitors.empty() ? "waiting in the run queue after wakeups."
                                             : group + ".";
    }
}

// "; cgroup /kubepods/pod1/c2 (v1) allows 0.30 CPUs (30.0 ms per 100 ms), throttled in 25 of its
// 30 periods (2.10 s)" where the recorder sampled it, else "".
std::string cpu_limit_text(const analysis::CausalChain& chain) {
    if (!analysis::has_fact<Fact::kCgroup>(chain)) {
        return "";
    }
    const double cpus = fact<Fact::kQuotaCpus>(chain);
    const std::int64_t period_ns = fact<Fact::kPeriodUs>(chain) * 1000;
    return "; cgroup " + fact<Fact::kCgroup>(chain) + " (v" +
           std::to_string(fact<Fact::kCgroupVersion>(chain)) + ") allows " +
           format_decimal(cpus, 2) + " CPUs (" +
           format_duration(static_cast<std::int64_t>(cpus * static_cast<double>(period_ns))) +
           " per " + format_duration(period_ns) + "), throttled in " +
           std::to_string(fact<Fact::kNrThrottled>(chain)) + " of its " +
           std::to_string(fact<Fact::kNrPeriods>(chain)) + " periods (" +
           format_duration(fact<Fact::kThrottledNs>(chain)) + ")";
}

// "a lock (futex)", "a pipe, socket or queue read", ...
const char* wait_description(analysis::WaitKind kind) {
    using analysis::WaitKind;
    switch (kind) {
        case WaitKind::kLock:
            return "a lock (futex)";
        case WaitKind::kGil:
            return "Python's GIL";
        case WaitKind::kRead:
            return "a pipe, socket or queue read";
        case WaitKind::kPoll:
            return "poll/epoll";
        case WaitKind::kDiskIo:
            return "disk I/O";
        case WaitKind::kTimer:
            return "a sleep (timer)";
        case WaitKind::kChild:
            return "a child process";
        case WaitKind::kNoSyscall:
            return "the kernel (a page fault or kernel wait)";
        case WaitKind::kOther:
            return "another system call";
        case WaitKind::kUnknown:
            break;
    }
    return "an unrecorded wait";
}

}  // namespace

std::string late_cause_text(const std::string& cause) {
    static const std::map<std::string, std::string> kWords = {
        {"own_compute", "its own work on a CPU between CUDA calls"},
        {"cuda_calls", "its own CUDA calls"},
        {"dataloader_workers", "its DataLoader workers"},
        {"tree_threads", "other threads of its process taking its CPU"},
        {"processes_outside", "processes outside the job taking its CPU"},
        {"run_queue", "waiting for a CPU"},
        {"timer", "sleeping (a timer)"},
        {"disk_io", "waiting for the disk"},
        {"network", "waiting for the network"},
        {"lock_holder", "waiting for a lock"},
        {"gil_holder", "waiting for Python's GIL"},
        {"cpu_quota", "its CPU quota (throttled)"},
        {"producer_thread", "waiting for another thread's data"},
        {"waker_thread", "waiting for another thread"},
        {"unattributed", "nothing this trace attributes"},
    };
    auto words = kWords.find(cause);
    return words != kWords.end() ? words->second : cause;
}

std::string symptom_text(const analysis::CausalChain& chain) {
    const std::string share = format_percent(chain.time_lost_share);
    switch (chain.root_cause_class) {
        case VerdictClass::kGpuBound:
            return "the host waits for the GPU in synchronisation " + share + " of its loop" +
                   (chain.op ? " (mostly " + *chain.op + ", p50 " +
                                   format_duration(fact<Fact::kOpP50Ns>(chain)) + ", " +
                                   std::to_string(fact<Fact::kOpCalls>(chain)) + " calls)"
                             : "");
        case VerdictClass::kTransferBound:
            return "copies take " + share +
                   " of the loop: " + std::to_string(fact<Fact::kCopies>(chain)) + " copies, " +
                   format_bytes(static_cast<double>(fact<Fact::kCopyBytes>(chain))) + " at " +
                   format_throughput(fact<Fact::kThroughputBytesPerS>(chain));
        case VerdictClass::kAllocationChurn:
            return std::to_string(fact<Fact::kCalls>(chain)) + " allocation and free calls take " +
                   share + " of the loop";
        case VerdictClass::kColdStart:
            return "the first call of " + std::to_string(fact<Fact::kOps>(chain)) +
                   " ops took far longer than later ones: " + format_duration(chain.time_lost_ns) +
                   " extra, " + share + " of a " + format_duration(fact<Fact::kSpanNs>(chain)) +
                   " loop";
        case VerdictClass::kCpuContended:
            return chain.op ? slow_op_symptom(chain)
                            : "the threads that drive the GPU were runnable but not running for " +
                                  format_duration(chain.time_lost_ns) + " (" + share +
                                  " of their loop), between CUDA calls";
        case VerdictClass::kInputBound:
            return "the thread that drives the GPU slept " +
                   format_duration(fact<Fact::kSleptNs>(chain)) + " (" +
                   format_percent(fact<Fact::kSleptShare>(chain)) +
                   " of its loop) between CUDA calls, waiting for " + waited_for(chain);
        case VerdictClass::kLockContended:
            return "the thread that drives the GPU slept " +
                   format_duration(fact<Fact::kSleptNs>(chain)) + " (" + share +
                   " of its loop) between CUDA calls on a lock, each time woken by " +
                   lock_holder(chain.actor);
        case VerdictClass::kGilContended:
            return "the thread that drives the GPU slept " +
                   format_duration(fact<Fact::kSleptNs>(chain)) + " (" + share +
                   " of its loop) between CUDA calls waiting for Python's GIL, " +
                   std::to_string(fact<Fact::kHandovers>(chain)) +
                   " times, each time handed over by " + lock_holder(chain.actor);
        case VerdictClass::kCpuThrottled:
            return chain.op
                       ? slow_op_symptom(chain)
                       : "the threads that drive the GPU were runnable while their CPU sat "
                         "idle for " +
                             format_duration(chain.time_lost_ns) + " (" + share + " of their loop)";
        case VerdictClass::kHostBound:
            return "the thread that drives the GPU was on a CPU between CUDA calls " +
                   format_duration(chain.time_lost_ns) + " (" + share +
                   " of its loop), its own work, not receiving a batch";
        case VerdictClass::kCollectiveWait:
            return "the other ranks waited for " + chain.actor.name + " in " +
                   std::to_string(fact<Fact::kArrivedLast>(chain)) + " of " +
                   std::to_string(fact<Fact::kCollectives>(chain)) + " collectives (" +
                   chain.op.value_or("NCCL") + "): " + format_duration(chain.time_lost_ns) + ", " +
                   share + " of their loops; it arrived " +
                   format_duration(fact<Fact::kLateAvgNs>(chain)) +
                   " after the next-to-last rank on average";
        case VerdictClass::kHealthy:
        case VerdictClass::kInsufficientData:
            break;  // verdicts without a chain
    }
    return "";
}

std::string root_cause_text(const analysis::CausalChain& chain) {
    const std::string share = format_percent(chain.time_lost_share);
    switch (chain.root_cause_class) {
        case VerdictClass::kGpuBound:
            return "The GPU is the bottleneck: the host has queued its work and waits for the "
                   "device " +
                   share + " of the loop; the device had work " +
                   format_percent(fact<Fact::kDeviceBusyShare>(chain)) + " of it (GPU-BOUND from " +
                   format_percent(fact<Fact::kSyncMinShare>(chain)) +
                   " in synchronisation, or from " +
                   format_percent(fact<Fact::kDeviceBusyMinShare>(chain)) +
                   " with the device busy when the synchronisations lost their CPU).";
        case VerdictClass::kTransferBound:
            return "Host-device copies dominate the loop" +
                   std::string(fact<Fact::kPageableShare>(chain) >= 0.5
                                   ? ", mostly from pageable memory that the driver must stage "
                                     "before the DMA"
                                   : "") +
                   ".";
        case VerdictClass::kAllocationChurn:
            return "Memory is allocated and freed over and over inside the loop instead of being "
                   "reused; each call synchronises with the driver.";
        case VerdictClass::kColdStart:
            return "One-time start-up (CUDA context creation, module loading, first allocations) "
                   "dominates this short run.";
        case VerdictClass::kCpuContended:
            return "The thread that drives the GPU loses its CPU: " + share +
                   " of its loop went to " + cpu_taken_by(chain);
        case VerdictClass::kInputBound:
            return "The thread that drives the GPU waits for " + waited_for(chain) + ": " + share +
                   " of its loop, so the GPU has no work queued.";
        case VerdictClass::kCpuThrottled:
            return "The thread that drives the GPU is throttled by a CPU quota: " + share +
                   " of its loop it was runnable but held off the CPU, because its group had "
                   "used its CPU time for the period (a container's CPU limit)" +
                   cpu_limit_text(chain) + ".";
        case VerdictClass::kHostBound:
            return "The thread that drives the GPU computes between CUDA calls (" + share +
                   " of its loop: preprocessing, framework dispatch, Python) while the device "
                   "waits for its next work.";
        case VerdictClass::kGilContended:
            return "The thread that drives the GPU waits for Python's GIL, held by thread " +
                   lock_holder(chain.actor) + ": " + share +
                   " of its loop. The holder runs Python code and gives the GIL up only when the "
                   "interpreter's switch interval forces it to, so after each CUDA call the "
                   "training thread waits up to that interval to run again.";
        case VerdictClass::kLockContended:
            return "The thread that drives the GPU waits for a lock held by thread " +
                   lock_holder(chain.actor) + ": " + share +
                   " of its loop. The holder releases it only after its own work under the lock.";
        case VerdictClass::kCollectiveWait:
            return "The ranks of the job wait in their collectives for " + chain.actor.name +
                   " (pid " + std::to_string(chain.actor.pid) + "): no rank leaves a collective " +
                   "before the last has arrived, so its delay is every rank's. It was late for " +
                   late_cause_text(fact<Fact::kLateCause>(chain)) + " (" +
                   format_percent(fact<Fact::kLateCauseShare>(chain)) +
                   " of its lateness: its GPU-driving thread's time there beyond the next "
                   "rank's).";
        case VerdictClass::kHealthy:
        case VerdictClass::kInsufficientData:
            break;  // verdicts without a chain
    }
    return "";
}

std::string effect_text(const analysis::CausalChain& chain, const analysis::Effect& effect) {
    using analysis::EffectKind;
    std::string what;
    switch (effect.kind) {
        case EffectKind::kPreempted:
            what = chain.actor.kind == CauseKind::kCpuQuota
                       ? "runnable, held off the CPU by its group's quota"
                       : "runnable but not running while they held its CPU";
            break;
        case EffectKind::kRunqWait:
            what = chain.actor.kind == CauseKind::kRunQueue
                       ? "waiting for a CPU after wakeups"
                       : "waiting for a CPU after wakeups (the run-queue wait, shared by "
                         "preempted time)";
            break;
        case EffectKind::kWoken:
            what =
                "asleep between CUDA calls in " +
                std::string(wait_description(effect.wait.value_or(analysis::WaitKind::kUnknown))) +
                ", " + std::to_string(effect.count) + (effect.count == 1 ? " wait" : " waits") +
                (chain.actor.kind == CauseKind::kUnrecordedWaker ? ", waker not recorded"
                                                                 : ", ended by this actor");
            break;
        case EffectKind::kPeerWait:
            what = "the other ranks waited for it in " + std::to_string(effect.count) +
                   (effect.count == 1 ? " collective" : " collectives");
            break;
        case EffectKind::kInDevice:
        case EffectKind::kInCopies:
        case EffectKind::kInAllocation:
        case EffectKind::kFirstCallExcess:
        case EffectKind::kOnCpu:
            return symptom_text(chain);  // the device's or the thread's own time: the symptom
    }
    return format_duration(effect.ns) + " (" + format_percent(effect.share) + " of the loop) " +
           what;
}

std::string code_summary(const analysis::CausalChain& chain) {
    std::string text;
    if (chain.gpu_thread_line) {
        text = "waits at " + analysis::describe_line(*chain.gpu_thread_line);
    }
    if (chain.actor_line) {
        std::string who =
            chain.actor.kind == CauseKind::kDataLoaderWorkers ? "workers spend CPU"
            : chain.actor.kind == CauseKind::kGilHolder       ? chain.actor.name + " holds the GIL"
            : chain.actor.kind == CauseKind::kLateRank        ? chain.actor.name + " is late"
                                                              : chain.actor.name + " spends CPU";
        text +=
            (text.empty() ? "" : "; ") + who + " at " + analysis::describe_line(*chain.actor_line);
    }
    return text;
}

// "about 2.1x", with its range where the ends differ at one decimal: "about 2.1x (1.9-2.3x)".
std::string about(double speedup, double low, double high) {
    auto x = [](double value) { return format_decimal(value, 1) + "x"; };
    return "about " + x(speedup) +
           (x(low) == x(high) ? "" : " (" + format_decimal(low, 1) + "-" + x(high) + ")");
}

// The advised fix a prediction is for, as the speed-up's subject.
std::string fix_subject(analysis::RecommendationKind fix) {
    switch (fix) {
        case analysis::RecommendationKind::kPinnedCopies:
            return "copying from pinned memory";
        case analysis::RecommendationKind::kMoreWorkers:
            return "the workers advised";
        default:
            return "the advised fix";
    }
}

std::string speedup_text(const analysis::CriticalPathCost& cost) {
    std::string text =
        std::string(cost.device_twice_as_fast ? "a device twice as fast" : "removing this") + ": " +
        about(cost.speedup, cost.speedup_low, cost.speedup_high);
    if (cost.advised_fix) {
        const analysis::AdvisedFixPrediction& fix = *cost.advised_fix;
        text += "; " + fix_subject(fix.fix) + ": " +
                about(fix.speedup, fix.speedup_low, fix.speedup_high);
    }
    return text + (cost.upper_bound ? ", the most pinning can give (pinned copies still DMA)" : "");
}

std::string critical_path_text(const analysis::CriticalPathCost& cost) {
    return format_duration(cost.cost_ns) + " of the loop (" + format_percent(cost.share) + "); " +
           speedup_text(cost);
}

}  // namespace causeway::report
