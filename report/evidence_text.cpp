#include "report/evidence_text.hpp"

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/measure/python_lines.hpp"
#include "report/chain_text.hpp"
#include "report/human_units.hpp"

namespace causeway::report {
namespace {

using analysis::EvidenceKind;
using analysis::Fact;
using analysis::fact;

// "45% of the time of 12 recorded Python stacks"
std::string stacks_note(const analysis::CodeLine& line) {
    return format_percent(line.share) + " of the time of " + std::to_string(line.stacks_total) +
           (line.stacks_total == 1 ? " recorded Python stack" : " recorded Python stacks") +
           (line.library ? "; no frame of the user's own code, so the innermost library frame"
                         : "");
}

std::string gpu_thread_line_text(const analysis::CausalChain& chain, const char* what) {
    if (!chain.gpu_thread_line) {
        return "";
    }
    const analysis::CodeLine& line = *chain.gpu_thread_line;
    return std::string("the GPU-driving thread ") + what + " at " + analysis::describe_line(line) +
           " (" + stacks_note(line) + ")";
}

// "metrics held the GIL at train.py:57 in f (40% of the time of 9 recorded Python stacks, sampled
// as it handed the GIL over)": the actor's line, what it did there and when it was sampled.
std::string actor_line_text(const analysis::CausalChain& chain, const char* what,
                            const char* sampled) {
    if (!chain.actor_line) {
        return "";
    }
    const analysis::CodeLine& line = *chain.actor_line;
    return chain.actor.name + " " + what + " at " + analysis::describe_line(line) + " (" +
           stacks_note(line) + ", " + sampled + ")";
}

// A count carried as the evidence's value.
std::string count_of(const analysis::Evidence& e) {
    return std::to_string(static_cast<std::int64_t>(e.value));
}

std::string during_slow_calls(const analysis::Evidence& e) {
    return fact<Fact::kDuringSlowCalls>(e) != 0 ? " during the slow calls" : "";
}

}  // namespace

std::string evidence_text(const analysis::Evidence& e) {
    const std::string pct = format_percent(e.value);
    switch (e.kind) {
        case EvidenceKind::kLoopCudaCalls:
            return count_of(e) +
                   " CUDA calls (driver calls inside runtime calls not counted twice)";
        case EvidenceKind::kLoopSpan:
            return "loop of the GPU-driving thread(s): " +
                   format_duration(static_cast<std::int64_t>(e.value));
        case EvidenceKind::kLoopInCudaShare:
            return "inside CUDA calls " + pct;
        case EvidenceKind::kLoopSyncShare:
            return "in synchronisation " + pct;
        case EvidenceKind::kLoopCopyShare:
            return "in copies " + pct;
        case EvidenceKind::kLoopOncpuBetweenCallsShare:
            return "on CPU between calls " + pct;
        case EvidenceKind::kLoopBlockedBetweenCallsShare:
            return "asleep between calls " + pct;
        case EvidenceKind::kLoopRunnableWaitingShare:
            return "runnable but not running " + pct;
        case EvidenceKind::kSyncNotPreemptedShare:
            return "in synchronisation and not preempted: " +
                   format_duration(fact<Fact::kLostNs>(e)) + " of " +
                   format_duration(fact<Fact::kSpanNs>(e)) + " (on CPU spinning " +
                   format_duration(fact<Fact::kOncpuNs>(e)) + ", asleep " +
                   format_duration(fact<Fact::kBlockedNs>(e)) + ")";
        case EvidenceKind::kSyncRunnableWaitingShare:
            return "inside the synchronisations the thread was runnable but not running only " +
                   pct + " of the time: the wait is the GPU's, not the CPU's";
        case EvidenceKind::kCpuBusyDuringLoop:
            return "CPUs were " + format_decimal(e.value, 0) + "% busy during the loop";
        case EvidenceKind::kCopyShare:
            return "inside copy calls " + format_duration(fact<Fact::kLostNs>(e)) + " of " +
                   format_duration(fact<Fact::kSpanNs>(e));
        case EvidenceKind::kPageableBytesShare:
            return pct + " of the copied bytes came from pageable (unpinned) memory";
        case EvidenceKind::kCopyThroughput:
            return "throughput inside the calls " + format_throughput(e.value);
        case EvidenceKind::kSmallCopiesShare:
            return pct + " of the copies move less than " +
                   format_bytes(static_cast<double>(fact<Fact::kSmallCopyBytes>(e)));
        case EvidenceKind::kAllocOpTime:
            return fact<Fact::kOp>(e) + ": " + std::to_string(fact<Fact::kCalls>(e)) + " calls, " +
                   format_duration(static_cast<std::int64_t>(e.value)) + " (p50 " +
                   format_duration(fact<Fact::kP50Ns>(e)) + ")";
        case EvidenceKind::kFirstCall:
            return "first " + fact<Fact::kOp>(e) + " took " +
                   format_duration(static_cast<std::int64_t>(e.value)) + " at " +
                   format_duration(fact<Fact::kTsNs>(e));
        case EvidenceKind::kSlowCallsRunnableWaitingShare:
            return "the " + std::to_string(fact<Fact::kSlowCalls>(e)) + " slow calls spent " + pct +
                   " of their " + format_duration(fact<Fact::kSlowNs>(e)) +
                   " runnable but not running on their own thread (asleep " +
                   format_percent(fact<Fact::kBlockedShare>(e)) + ")";
        case EvidenceKind::kRunnableTreeThreads:
            return "runnable threads of the traced tree: " + format_decimal(e.value, 1) +
                   " on average for " + std::to_string(fact<Fact::kCpus>(e)) + " CPUs" +
                   during_slow_calls(e);
        case EvidenceKind::kPageAllocsRate:
            return "page allocations of the tree: " + format_rate(e.value) + during_slow_calls(e) +
                   " (run average " + format_rate(fact<Fact::kOverallPerS>(e)) + ")";
        case EvidenceKind::kSystemCpuBusy:
            return "system: CPUs " + format_decimal(e.value, 0) + "% busy, " +
                   format_decimal(fact<Fact::kProcsRunning>(e), 1) +
                   " runnable tasks (procs_running)";
        case EvidenceKind::kDataLoaderWorkersOverRun:
            return count_of(e) + " DataLoader workers at once on " +
                   std::to_string(fact<Fact::kCpus>(e)) + " CPUs (" +
                   std::to_string(fact<Fact::kWorkersSeen>(e)) + " worker processes over the run)";
        case EvidenceKind::kCpuBusyOfCpus:
            return "CPUs were " + format_decimal(e.value, 0) + "% busy during the loop (" +
                   std::to_string(fact<Fact::kCpus>(e)) + " CPUs)";
        case EvidenceKind::kCpusAllowed:
            return "the GPU-driving process may run on " + count_of(e) + " of the machine's " +
                   std::to_string(fact<Fact::kCpus>(e)) +
                   " CPUs (its cpuset or CPU affinity), with " +
                   format_decimal(fact<Fact::kRunnableThreads>(e), 1) +
                   " threads of the tree runnable on average";
        case EvidenceKind::kTreePreemptedShare:
            return "the tree's threads were preempted " + pct + " of the time they were runnable";
        case EvidenceKind::kDataLoaderWorkers:
            return count_of(e) + " DataLoader workers at once on " +
                   std::to_string(fact<Fact::kCpus>(e)) + " CPUs";
        case EvidenceKind::kBlockedBetweenCallsShare:
            return "asleep outside CUDA calls " + pct + " of " +
                   format_duration(fact<Fact::kSpanNs>(e)) +
                   " (all causes); on CPU between calls " +
                   format_percent(fact<Fact::kOncpuShare>(e)) + ", inside CUDA calls " +
                   format_percent(fact<Fact::kInCallsShare>(e));
        case EvidenceKind::kLongWaits:
            return count_of(e) + " waits of at least " + format_duration(fact<Fact::kMinNs>(e)) +
                   " between calls, " + format_duration(fact<Fact::kAverageNs>(e)) + " on average";
        case EvidenceKind::kWakerRunnableWaiting: {
            std::string behind;
            if (analysis::has_fact<Fact::kBehindComm>(e)) {
                behind = ", mostly behind " + fact<Fact::kBehindComm>(e) + " (tid " +
                         std::to_string(fact<Fact::kBehindTid>(e)) + ")";
            }
            return "while the GPU thread waited for them, the threads that woke it were "
                   "themselves runnable but not running " +
                   format_duration(static_cast<std::int64_t>(e.value)) + " (" +
                   format_percent(fact<Fact::kWaitsShare>(e)) + " of those waits)" + behind;
        }
        case EvidenceKind::kOffcpuReasonUnknown:
            return count_of(e) +
                   " off-CPU intervals have no recorded reason (preempted or asleep), so this "
                   "chain's split between waiting and contention is not proven";
        case EvidenceKind::kRankArrivedLastShare:
            return "rank " + std::to_string(fact<Fact::kRank>(e)) + " arrived last at " + pct +
                   " of " + std::to_string(fact<Fact::kCollectives>(e)) + " collectives, " +
                   format_duration(fact<Fact::kLateAvgNs>(e)) + " late on average";
        case EvidenceKind::kLateRankCauseShare:
            return "rank " + std::to_string(fact<Fact::kRank>(e)) + " was late for " +
                   late_cause_text(fact<Fact::kCause>(e)) + ": its GPU-driving thread spent " +
                   pct + " of its lateness more there than the next-to-last rank's did";
        case EvidenceKind::kGainMayBeSmall: {
            const std::int64_t drains = fact<Fact::kDrains>(e);
            const std::int64_t waited = fact<Fact::kDrainsWaited>(e);
            return "removing this may gain as little as " + format_ratio(e.value) + ": " +
                   std::to_string(waited) + " of " + std::to_string(drains) +
                   " synchronisations waited for the device" +
                   (waited < drains ? " (the others found it done)" : "") +
                   ", so its work is known only within a range";
        }
        case EvidenceKind::kGpuThreadLostCpuAt:
        case EvidenceKind::kGpuThreadWaitsAt:
        case EvidenceKind::kGpuThreadSlowCallsAt:
        case EvidenceKind::kActorSpentCpuAt:
        case EvidenceKind::kActorHeldGilAt:
        case EvidenceKind::kLateRankWasAt:
            break;  // they quote the chain's lines
    }
    return "";
}

std::string evidence_text(const analysis::CausalChain& chain, const analysis::Evidence& e) {
    switch (e.kind) {
        case EvidenceKind::kGpuThreadLostCpuAt:
            return gpu_thread_line_text(chain, "lost its CPU");
        case EvidenceKind::kGpuThreadWaitsAt:
            return gpu_thread_line_text(chain, "waits");
        case EvidenceKind::kGpuThreadSlowCallsAt:
            return gpu_thread_line_text(chain, "makes its slow CUDA calls");
        case EvidenceKind::kActorHeldGilAt:
            return actor_line_text(chain, "held the GIL", "sampled as it handed the GIL over");
        case EvidenceKind::kActorSpentCpuAt:
            return actor_line_text(chain, "spent the CPU it took",
                                   "sampled when it gave that CPU up");
        case EvidenceKind::kLateRankWasAt:
            return actor_line_text(chain, "was late", "sampled when it left its CPU while late");
        default:
            return evidence_text(e);
    }
}

}  // namespace causeway::report
