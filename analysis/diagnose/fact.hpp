#pragma once
// The keys of the facts a diagnosis rests on (fact_param.hpp), each with its one name, the name
// JSON and the tests read, and the one type its value has. A key that is not here does not
// compile; a value of another type is refused where the fact is made, and a read returns the
// key's own type.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>

namespace causeway::analysis {

// Durations are in ns (`*_ns`) unless the name says otherwise, shares are ratios 0..1.
enum class Fact : std::uint8_t {
    kArrivedLast,
    kAverageNs,
    kBehindComm,
    kBehindTid,
    kBlockedNs,
    kBlockedShare,
    kCalls,
    kCause,
    kCgroup,
    kCgroupVersion,
    kCollectives,
    kCopies,
    kCopyBytes,
    kCpus,
    kCpusAllowed,
    kCpusUsedUnthrottled,
    kDeviceBusyMinShare,
    kDeviceBusyShare,
    kDrains,
    kDrainsWaited,
    kDuringSlowCalls,
    kHandovers,
    kHostCriticalShare,
    kHostEventRows,
    kIdleCpus,
    kInCallsShare,
    kLateAvgNs,
    kLateCause,
    kLateCauseShare,
    kLeftOut,
    kLinkMts,
    kLinkWidth,
    kLostNs,
    kMaxNs,
    kMinCalls,
    kMinNs,
    kMinShare,
    kMoreNumWorkers,
    kNrPeriods,
    kNrThrottled,
    kNumWorkers,
    kOncpuNs,
    kOncpuShare,
    kOp,
    kOpCalls,
    kOpP50Ns,
    kOps,
    kOverallPerS,
    kP50Ns,
    kP99Ns,
    kPageableShare,
    kPeriodUs,
    kPinnedBytesPerS,
    kPinnedShare,
    kProcsRunning,
    kQuotaCpus,
    kRank,
    kRunnableThreads,
    kSchedSwitches,
    kSleptNs,
    kSleptShare,
    kSlowCalls,
    kSlowNs,
    kSmallCopyBytes,
    kSmallShare,
    kSource,
    kSpanNs,
    kSwitchesPerSOther,
    kSwitchesPerSSlow,
    kSyncMinShare,
    kThresholdNs,
    kThrottledNs,
    kThroughputBytesPerS,
    kTsNs,
    kWaitNs,
    kWaitsShare,
    kWakersUnrecorded,
    kWhy,
    kWorkerGenerations,
    kWorkers,
    kWorkersSeen,
    kLast = kWorkersSeen,  // a fact added last moves kLast to it
};

enum class FactType : std::uint8_t { kCount, kRatio, kText };

struct FactInfo {
    Fact fact;
    std::string_view name;
    FactType type;
};

inline constexpr FactInfo kFacts[] = {
    {Fact::kArrivedLast, "arrived_last", FactType::kCount},
    {Fact::kAverageNs, "average_ns", FactType::kCount},
    {Fact::kBehindComm, "behind_comm", FactType::kText},
    {Fact::kBehindTid, "behind_tid", FactType::kCount},
    {Fact::kBlockedNs, "blocked_ns", FactType::kCount},
    {Fact::kBlockedShare, "blocked_share", FactType::kRatio},
    {Fact::kCalls, "calls", FactType::kCount},
    {Fact::kCause, "cause", FactType::kText},
    {Fact::kCgroup, "cgroup", FactType::kText},
    {Fact::kCgroupVersion, "cgroup_version", FactType::kCount},
    {Fact::kCollectives, "collectives", FactType::kCount},
    {Fact::kCopies, "copies", FactType::kCount},
    {Fact::kCopyBytes, "copy_bytes", FactType::kCount},
    {Fact::kCpus, "cpus", FactType::kCount},
    {Fact::kCpusAllowed, "cpus_allowed", FactType::kCount},
    {Fact::kCpusUsedUnthrottled, "cpus_used_unthrottled", FactType::kRatio},
    {Fact::kDeviceBusyMinShare, "device_busy_min_share", FactType::kRatio},
    {Fact::kDeviceBusyShare, "device_busy_share", FactType::kRatio},
    {Fact::kDrains, "drains", FactType::kCount},
    {Fact::kDrainsWaited, "drains_waited", FactType::kCount},
    {Fact::kDuringSlowCalls, "during_slow_calls", FactType::kCount},
    {Fact::kHandovers, "handovers", FactType::kCount},
    {Fact::kHostCriticalShare, "host_critical_share", FactType::kRatio},
    {Fact::kHostEventRows, "host_event_rows", FactType::kCount},
    {Fact::kIdleCpus, "idle_cpus", FactType::kRatio},
    {Fact::kInCallsShare, "in_calls_share", FactType::kRatio},
    {Fact::kLateAvgNs, "late_avg_ns", FactType::kCount},
    {Fact::kLateCause, "late_cause", FactType::kText},
    {Fact::kLateCauseShare, "late_cause_share", FactType::kRatio},
    {Fact::kLeftOut, "left_out", FactType::kCount},
    {Fact::kLinkMts, "link_mts", FactType::kCount},
    {Fact::kLinkWidth, "link_width", FactType::kCount},
    {Fact::kLostNs, "lost_ns", FactType::kCount},
    {Fact::kMaxNs, "max_ns", FactType::kCount},
    {Fact::kMinCalls, "min_calls", FactType::kCount},
    {Fact::kMinNs, "min_ns", FactType::kCount},
    {Fact::kMinShare, "min_share", FactType::kRatio},
    {Fact::kMoreNumWorkers, "more_num_workers", FactType::kCount},
    {Fact::kNrPeriods, "nr_periods", FactType::kCount},
    {Fact::kNrThrottled, "nr_throttled", FactType::kCount},
    {Fact::kNumWorkers, "num_workers", FactType::kCount},
    {Fact::kOncpuNs, "oncpu_ns", FactType::kCount},
    {Fact::kOncpuShare, "oncpu_share", FactType::kRatio},
    {Fact::kOp, "op", FactType::kText},
    {Fact::kOpCalls, "op_calls", FactType::kCount},
    {Fact::kOpP50Ns, "op_p50_ns", FactType::kCount},
    {Fact::kOps, "ops", FactType::kCount},
    {Fact::kOverallPerS, "overall_per_s", FactType::kRatio},
    {Fact::kP50Ns, "p50_ns", FactType::kCount},
    {Fact::kP99Ns, "p99_ns", FactType::kCount},
    {Fact::kPageableShare, "pageable_share", FactType::kRatio},
    {Fact::kPeriodUs, "period_us", FactType::kCount},
    {Fact::kPinnedBytesPerS, "pinned_bytes_per_s", FactType::kRatio},
    {Fact::kPinnedShare, "pinned_share", FactType::kRatio},
    {Fact::kProcsRunning, "procs_running", FactType::kRatio},
    {Fact::kQuotaCpus, "quota_cpus", FactType::kRatio},
    {Fact::kRank, "rank", FactType::kCount},
    {Fact::kRunnableThreads, "runnable_threads", FactType::kRatio},
    {Fact::kSchedSwitches, "sched_switches", FactType::kCount},
    {Fact::kSleptNs, "slept_ns", FactType::kCount},
    {Fact::kSleptShare, "slept_share", FactType::kRatio},
    {Fact::kSlowCalls, "slow_calls", FactType::kCount},
    {Fact::kSlowNs, "slow_ns", FactType::kCount},
    {Fact::kSmallCopyBytes, "small_copy_bytes", FactType::kCount},
    {Fact::kSmallShare, "small_share", FactType::kRatio},
    {Fact::kSource, "source", FactType::kText},
    {Fact::kSpanNs, "span_ns", FactType::kCount},
    {Fact::kSwitchesPerSOther, "switches_per_s_other", FactType::kRatio},
    {Fact::kSwitchesPerSSlow, "switches_per_s_slow", FactType::kRatio},
    {Fact::kSyncMinShare, "sync_min_share", FactType::kRatio},
    {Fact::kThresholdNs, "threshold_ns", FactType::kCount},
    {Fact::kThrottledNs, "throttled_ns", FactType::kCount},
    {Fact::kThroughputBytesPerS, "throughput_bytes_per_s", FactType::kRatio},
    {Fact::kTsNs, "ts_ns", FactType::kCount},
    {Fact::kWaitNs, "wait_ns", FactType::kCount},
    {Fact::kWaitsShare, "waits_share", FactType::kRatio},
    {Fact::kWakersUnrecorded, "wakers_unrecorded", FactType::kCount},
    {Fact::kWhy, "why", FactType::kText},
    {Fact::kWorkerGenerations, "worker_generations", FactType::kCount},
    {Fact::kWorkers, "workers", FactType::kCount},
    {Fact::kWorkersSeen, "workers_seen", FactType::kCount},
};

constexpr const FactInfo& fact_info(Fact fact) {
    return kFacts[static_cast<std::size_t>(fact)];
}

constexpr bool facts_in_enum_order() {
    for (std::size_t i = 0; i < std::size(kFacts); ++i) {
        if (static_cast<std::size_t>(kFacts[i].fact) != i) {
            return false;
        }
    }
    return true;
}
static_assert(facts_in_enum_order() &&
                  std::size(kFacts) == static_cast<std::size_t>(Fact::kLast) + 1,
              "kFacts lists every Fact once, in the enum's order");

constexpr std::string_view fact_name(Fact fact) {
    return fact_info(fact).name;
}

// The C++ type of a fact's value: std::int64_t, double or std::string.
template <Fact F>
using FactValue = std::conditional_t<
    fact_info(F).type == FactType::kCount, std::int64_t,
    std::conditional_t<fact_info(F).type == FactType::kRatio, double, std::string>>;

}  // namespace causeway::analysis
