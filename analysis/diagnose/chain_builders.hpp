#pragma once
// One builder per root-cause class. Each looks at the measured evidence and returns a chain only
// when its own evidence crosses its threshold; recommendations are added only when the evidence
// supports them.

#include <limits>
#include <optional>
#include <vector>

#include "analysis/diagnose/actor_causes.hpp"
#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/cause_time.hpp"
#include "analysis/diagnose/dataloader_facts.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/call_accounting.hpp"
#include "analysis/measure/critical_path.hpp"
#include "analysis/measure/device_queue.hpp"
#include "analysis/measure/rank_alignment.hpp"
#include "analysis/measure/system_context.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// A cause must cost at least this share of the GPU-driving threads' span to become a chain.
inline constexpr double kChainMinShare = 0.10;
// Waiting for the GPU is the normal state of a well-fed training loop; it becomes the verdict
// only when it dominates.
inline constexpr double kGpuBoundMinShare = 0.30;
// Or when the synchronisations took kGpuBoundMinShare of the loop however they spent it on the
// host (on a CPU, or runnable but not running under other load) and the device had work for at
// least this share of the loop (its queue reconstructed from the calls, device_queue.hpp).
inline constexpr double kDeviceBusyMinShare = 0.50;
// The CPUs had no room for the traced tree when its runnable threads filled them, or when its
// threads were preempted at least this share of the time they were runnable. Judged from the
// tree's own scheduling, not from system-wide CPU use: a background job at a lower weight (a
// build in another autogroup) fills idle CPUs yet leaves them to the tree whenever it asks.
inline constexpr double kSaturatedPreemptedShare = 0.25;
// Without the tree's scheduling (an imported trace): at or above this average CPU use the
// machine had no core to spare.
inline constexpr double kSaturatedCpuBusyPct = 80.0;

struct ChainInputs {
    const TraceModel& model;
    const Roles& roles;
    const CallAccounting& accounting;
    const DataLoaderFacts& loader;
    std::int64_t job_cpus;                        // the CPUs the job may run on (job_cpus.hpp)
    const std::vector<Cause>& causes;             // attribute_causes()
    const std::vector<DeviceQueue>& queues;       // one per primary thread, in its order
    const CriticalPath& critical_path;            // their replay
    const CauseTimeline& timeline;                // where each cause's time lies on them
    const std::vector<CommunicatorRanks>& ranks;  // the NCCL job's ranks in the trace
    const ResolvedFilter& filter;                 // the calls the diagnosis is about
    TimeWindow range;
    SystemContext during_slow_calls;  // while slow calls ran
    SystemContext during_span;        // while the GPU-driving threads ran their loop

    double share_of_span(std::int64_t ns) const {
        return accounting.span_ns > 0
                   ? static_cast<double>(ns) / static_cast<double>(accounting.span_ns)
                   : 0.0;
    }
};

// One chain per cause of the GPU threads' time off a CPU (actor_causes.hpp) that costs at least
// kChainMinShare; smaller causes of one class together when they reach it.
std::vector<CausalChain> actor_chains(const ChainInputs& in);
// The class-specific part of an actor chain: the facts of its symptom and root cause, evidence,
// advice, confidence.
void describe_cpu_contention(const ChainInputs& in, const Cause& cause, CausalChain& chain);
void describe_waiting(const ChainInputs& in, const Cause& cause, CausalChain& chain);
// The CPUs' view while the GPU-driving threads slept: how busy, how many runnable threads, how
// often preempted, how many workers (chain_input_wait.cpp).
void add_wait_context_evidence(const ChainInputs& in, CausalChain& chain);
void describe_lock_wait(const ChainInputs& in, const Cause& cause, CausalChain& chain);
// GIL-CONTENDED (chain_gil_wait.cpp): the holder of the GIL, its line, and what frees the GIL.
void describe_gil_wait(const ChainInputs& in, const Cause& cause, CausalChain& chain);
void describe_cpu_quota(const ChainInputs& in, const Cause& cause, CausalChain& chain);

// The Python lines of an actor chain: where the GPU-driving threads were when they left a CPU
// for this cause (else at its slow calls), and where the actor's threads were when they gave
// up a CPU taken from them. Nothing when the trace holds no Python frames.
void add_actor_code_lines(const ChainInputs& in, const Cause& cause, CausalChain& chain);
// The Python line of a COLLECTIVE-WAIT's late rank (its actor_line): where its GPU-driving thread
// was when it left its CPU while late (`late`: per primary thread, the windows it was late in).
void add_late_rank_line(const ChainInputs& in, const PerThreadTime& late, CausalChain& chain);
// The Python line of a chain of the device's own time: the GPU-driving threads' calls of its
// class (sync calls for GPU-BOUND, copies, allocations, first calls), by their time.
void add_device_code_line(const ChainInputs& in, CausalChain& chain);

std::optional<CausalChain> gpu_bound_chain(const ChainInputs& in);
std::optional<CausalChain> transfer_chain(const ChainInputs& in);
std::optional<CausalChain> allocation_churn_chain(const ChainInputs& in);
std::optional<CausalChain> cold_start_chain(const ChainInputs& in);
std::optional<CausalChain> own_compute_chain(const ChainInputs& in);
// COLLECTIVE-WAIT (chain_collective_wait.cpp): one per communicator whose ranks waited for one
// of them.
std::vector<CausalChain> collective_wait_chains(const ChainInputs& in);

// What removing `removal`'s time from the GPU-driving threads saves; absent without a drain of
// the device's queue.
std::optional<CriticalPathCost> critical_path_cost(const ChainInputs& in,
                                                   const HostTimeRemoval& removal);
// The same for the union of `parts`, each per primary thread, sorted and disjoint
// (normalise_intervals).
std::optional<CriticalPathCost> union_cost(const ChainInputs& in,
                                           const std::vector<const PerThreadTime*>& parts);
// The same for one cause of actor_causes.hpp (with its members).
std::optional<CriticalPathCost> cause_cost(const ChainInputs& in, const Cause& cause);
// The same for the time each queue's source gives (critical_path.hpp).
std::optional<CriticalPathCost> source_cost(const ChainInputs& in,
                                            const RemovedTimeSources& sources);
// The advised fix `fix` predicted as `fix_cost` saves, at most `most` (its own ceiling: how much
// faster more workers load).
AdvisedFixPrediction advised_fix(RecommendationKind fix, const CriticalPathCost& fix_cost,
                                 double most = std::numeric_limits<double>::infinity());
// The same for the calls' own time in `categories`.
std::optional<CriticalPathCost> in_call_cost(const ChainInputs& in,
                                             std::initializer_list<OpCategory> categories);

// Shared by the builders.
// Whether the CPUs were full for the traced tree while the GPU threads ran their loop (its
// runnable threads against the CPU count and how long they waited for a CPU; system snapshots
// when the tree's scheduling is not recorded).
bool cpus_saturated(const ChainInputs& in);
// CPUs the tree left idle during the loop (same sources as cpus_saturated).
double idle_cpus(const ChainInputs& in);
// The actor and effect of a chain whose time is the device's or the API's own.
void blame_device(CausalChain& chain, CauseKind kind, const char* name, EffectKind effect);
Confidence confidence_from(double coverage, double high, double medium);
// The symptom of a chain of lost CPU: the slow op whose calls lost the most time runnable but not
// running (chain.op and its slow_op_facts), else none (its time lies between CUDA calls).
void add_lost_cpu_symptom(const ChainInputs& in, CausalChain& chain);
// What the CPUs did meanwhile: the slow calls' runnable share, the tree's runnable threads against
// the CPUs, page allocations, the system's CPU busy share, the DataLoader's workers.
void add_cpu_context_evidence(const ChainInputs& in, CausalChain& chain);
// How sure a chain of lost CPU is: how much of the slow calls' excess was runnable waiting, or
// its share of the loop.
Confidence lost_cpu_confidence(const ChainInputs& in, double share);
// Time in the category's calls that is the GPU's or the API's own: minus what CPU contention
// explains (runnable but not running) and minus one-time start-up excess (COLD-START's).
std::int64_t category_own_ns(const CallAccounting& accounting, OpCategory category);
// The facts of a symptom about one op's slow calls: {slow_calls, calls, threshold_ns, p99_ns,
// p50_ns, max_ns} ("20 of 200 calls slow (> 1.20 ms); p99 40.0 ms = 350x p50 (114 us)").
FactParams slow_op_facts(const OpAccount& op);

}  // namespace causeway::analysis
