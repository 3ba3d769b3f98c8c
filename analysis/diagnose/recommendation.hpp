#pragma once
// What a causal chain recommends, as a fact: a kind and the numbers it rests on. The words are
// the report layer's (report/recommendation_text.hpp), which also reads the chain's actor and
// competitors for the names it quotes.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/diagnose/fact_param.hpp"

namespace causeway::analysis {

enum class RecommendationKind {
    kIndexInMemory,           // index an in-memory data set directly instead of DataLoader workers
    kFewerWorkers,            // {workers, cpus, num_workers}: workers leave the trainer no core
    kWorkersYieldCpu,         // {num_workers}: one worker fewer, or nice the workers
    kPersistentWorkers,       // {worker_generations}: workers forked again every epoch
    kStopCompetitors,         // processes outside the tree took the CPU (the chain's competitors)
    kLimitIntraOpThreads,     // other threads of the tree took the CPU (the chain's competitors)
    kOwnCore,                 // several kinds of thread took the CPU
    kMoreWorkers,             // {num_workers, more_num_workers, idle_cpus, cpus}
    kWorkersOutnumberCpus,    // {num_workers, idle_cpus, cpus}: idle CPUs, yet more workers
                              // than CPUs already
    kBackgroundLoading,       // no workers yet, CPUs have room
    kCheaperLoading,          // CPUs saturated: more workers will not help
    kDataInMemory,            // the loop waits for disk reads
    kRemoveSleep,             // the loop sleeps
    kPrefetchNetworkInput,    // input arrives over the network
    kFasterProducer,          // the loop waits for a thread of the tree (the chain's actor)
    kFasterOutsideProcess,    // the loop waits for a process outside the tree (the chain's actor)
    kShorterCriticalSection,  // the loop waits for a lock (the chain's actor holds it)
    kAvoidGil,                // the lock may be the GIL
    kFasterDeviceWork,        // {host_critical_share}: the device itself is the bottleneck
    kReuseDeviceBuffers,      // device memory allocated and freed in the loop
    kReusePinnedBuffers,      // {pinned_share}: pinned host buffers allocated in the loop
    kPinnedCopies,            // copies from pageable memory
    kBatchSmallCopies,        // {small_share, copies}: many copies under 64 KiB
    kFewerBytes,              // copies dominate although pinned and large
    kSteadyStateWindow,       // start-up dominates a short run
    kLazyModuleLoading,       // the first kernel launch loads modules
    kMoveHostWork,            // the training thread's own work: into DataLoader workers or the GPU
    kCheaperHostWork,         // the training thread's own work: fewer, larger ops; CUDA graphs
    kRaiseCpuLimit,           // {quota_cpus where sampled, cpus_used_unthrottled where measured}
    kGilWorkToProcess,        // the GIL holder's Python work: into another process
    kReleaseGil,              // the GIL holder's Python work: code that releases the GIL
    kShorterSwitchInterval,   // {wait_ns, handovers}: a shorter sys.setswitchinterval
    kWiderCpuset,             // {cpus_allowed, cpus}: pinned to fewer CPUs than it keeps busy
    kLateRankFirst,           // {rank}: the ranks wait for one; fix what delays it (the chain's
                              // facts say what it was doing)
    kBalanceRanks,            // {rank}: or give it less of the work
    kLast = kBalanceRanks,    // the schemas list every kind up to this one (report/)
};

// 'index_in_memory', 'fewer_workers', ... (stable: programs read it).
const char* recommendation_kind_name(RecommendationKind kind);

struct Recommendation {
    RecommendationKind kind = RecommendationKind::kIndexInMemory;
    FactParams params{};  // numbers only: counts are integers, shares ratios 0..1
};

// The first of `recommendations` of `kind`, or nullptr.
const Recommendation* find_recommendation(const std::vector<Recommendation>& recommendations,
                                          RecommendationKind kind);

}  // namespace causeway::analysis
