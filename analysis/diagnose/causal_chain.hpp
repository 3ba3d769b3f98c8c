#pragma once
// A causal chain: symptom -> evidence measured on the calls themselves -> root cause ->
// recommendations, with a confidence and the time it cost. One chain per root cause. Facts only:
// the report layer words the symptom, root cause, effects and evidence (report/chain_text.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/cause_kind.hpp"
#include "analysis/diagnose/evidence.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/diagnose/recommendation.hpp"
#include "analysis/measure/wait_kind.hpp"
#include "analysis/model/container_identity.hpp"

namespace causeway::analysis {

enum class Confidence { kLow, kMedium, kHigh, kLast = kHigh };
const char* confidence_name(Confidence confidence);  // 'HIGH', 'MEDIUM', 'LOW'

// The bottleneck classes; a chain's class is also the verdict it leads to. To add one: a value
// here and its name in verdict_class_name(), the builder that gives it (chain_builders.hpp), the
// facts its chains carry (declared_facts.cpp), its words in report/chain_text.cpp, kLast moved to
// it when it is added last (the schemas list the classes up to kLast), and a golden fixture
// (tests/golden/README.md).
enum class VerdictClass {
    kInputBound,
    kCpuContended,
    kGpuBound,
    kTransferBound,
    kAllocationChurn,
    kLockContended,
    kColdStart,
    kHostBound,
    kCpuThrottled,
    kGilContended,
    kCollectiveWait,
    kHealthy,
    kInsufficientData,
    kLast = kInsufficientData,  // the schemas list every class up to this one
};
// 'INPUT-BOUND', 'CPU-CONTENDED', ... (stable: programs read it). constexpr: the schemas list
// them (report/shapes/shared.hpp).
constexpr const char* verdict_class_name(VerdictClass verdict_class) {
    switch (verdict_class) {
        case VerdictClass::kInputBound:
            return "INPUT-BOUND";
        case VerdictClass::kCpuContended:
            return "CPU-CONTENDED";
        case VerdictClass::kGpuBound:
            return "GPU-BOUND";
        case VerdictClass::kTransferBound:
            return "TRANSFER-BOUND";
        case VerdictClass::kAllocationChurn:
            return "ALLOCATION-CHURN";
        case VerdictClass::kLockContended:
            return "LOCK-CONTENDED";
        case VerdictClass::kColdStart:
            return "COLD-START";
        case VerdictClass::kHostBound:
            return "HOST-BOUND";
        case VerdictClass::kCpuThrottled:
            return "CPU-THROTTLED";
        case VerdictClass::kGilContended:
            return "GIL-CONTENDED";
        case VerdictClass::kCollectiveWait:
            return "COLLECTIVE-WAIT";
        case VerdictClass::kHealthy:
            return "HEALTHY";
        case VerdictClass::kInsufficientData:
            break;
    }
    return "INSUFFICIENT-DATA";
}

// Who had the CPU while a traced thread was preempted.
struct Competitor {
    std::string comm;
    std::int64_t pid = 0;  // 0 when unknown (the idle task or a thread not in the file)
    std::int64_t tid = 0;
    bool in_tree = false;
    Role role = Role::kOther;                    // of its thread
    std::optional<std::string> cgroup;           // its process's latest cgroup
    std::optional<ContainerIdentity> container;  // the container and pod that path names
    std::int64_t preempted_ns = 0;
    double share = 0;  // of the preempted time measured
};

// Who or what a chain blames: one cause, which may be several threads or processes.
struct Actor {
    CauseKind kind = CauseKind::kSeveral;
    std::string name;      // 'pt_data_worker', 'prep_locker', 'hogd', 'disk', ...
    std::int64_t pid = 0;  // workers: the training process they feed; a thread's process; 0: none
    std::int64_t tid = 0;  // when the actor is one thread; 0 otherwise
    std::vector<std::int64_t> pids;  // the processes the actor's threads belong to
    bool in_tree = false;
    // The container and pod of every one of its processes, where they share one.
    std::optional<ContainerIdentity> container;
};

// One way the actor cost the threads that drive the GPU. A chain's time lost is the sum of its
// effects.
enum class EffectKind {
    kPreempted,         // runnable but not running while the actor held the CPU
    kRunqWait,          // waiting for a CPU after wakeups
    kWoken,             // asleep between calls in a sleep the actor ended
    kInDevice,          // the device chains' own time: in synchronisation,
    kInCopies,          // in copies,
    kInAllocation,      // in allocation and free calls,
    kFirstCallExcess,   // the first calls' excess over later ones
    kOnCpu,             // on a CPU between calls, its own work (HOST-BOUND)
    kPeerWait,          // the other ranks' devices waited in collectives for the late one
    kLast = kPeerWait,  // report/'s words are checked for every kind up to this one
};
// 'preempted', 'runq_wait', 'woken', 'in_device', 'in_copies', 'in_allocation',
// 'first_call_excess', 'on_cpu', 'peer_wait' (stable: programs read it).
const char* effect_kind_name(EffectKind kind);

struct Effect {
    EffectKind kind = EffectKind::kPreempted;
    std::optional<WaitKind> wait{};  // kWoken: what the thread slept in
    std::int64_t ns = 0;
    double share = 0;        // of the span of the threads that drive the GPU
    std::int64_t count = 0;  // intervals behind it; 0 when not counted
};

// A line of Python source that threads were at, read from their recorded Python frames: the
// user's own innermost frame (library frames of torch, numpy, site-packages and the standard
// library are passed over), weighed over the stacks behind one part of a chain.
struct CodeLine {
    std::string file;         // co_filename, as the interpreter names it
    std::string function;     // co_qualname; empty when it could not be read
    std::int64_t line = 0;    // 1-based; 0 when unknown
    bool library = false;     // the stacks held no user frame: this is the innermost library frame
    std::int64_t stacks = 0;  // recorded stacks at this line
    std::int64_t stacks_total = 0;  // recorded stacks with Python frames that were weighed
    double share = 0;               // of the weighed time (ns) of those stacks
};

// What the chain's advised fix would gain where it removes only part of the cause: copies from
// pinned memory still move their bytes, and more workers load only so much faster.
struct AdvisedFixPrediction {
    RecommendationKind fix = RecommendationKind::kPinnedCopies;
    double speedup = 1.0;
    double speedup_low = 1.0;
    double speedup_high = 1.0;
};

// What removing the chain's cause would save, from the device queue's critical path
// (analysis/measure/critical_path.hpp): the time the device waited because of it. For the
// device's own chain (GPU-BOUND), what a device twice as fast would save.
struct CriticalPathCost {
    std::int64_t cost_ns = 0;
    double share = 0;  // of the loop the prediction covers (loop_ns)
    std::int64_t loop_ns = 0;
    double speedup = 1.0;  // loop / (loop - cost)
    double speedup_low = 1.0;
    double speedup_high = 1.0;
    bool device_twice_as_fast = false;  // the prediction is for a 2x faster device, not removal
    // The advised fix's own gain, where it removes only part of the cause and the trace holds
    // what it would keep (the GPU's link for pinned copies, the workers' count).
    std::optional<AdvisedFixPrediction> advised_fix;
    // The advised fix removes only part of the cause and the trace does not hold what it would
    // keep (pinned copies still DMA, at a rate unknown without the GPU's link): the prediction is
    // the most it can give.
    bool upper_bound = false;
};

struct CausalChain {
    VerdictClass root_cause_class = VerdictClass::kInputBound;
    Actor actor;
    std::vector<Effect> effects;
    std::optional<std::string> op;  // the op the symptom is about, when there is one
    // The numbers the symptom and root cause rest on, beyond the fields here (see each builder);
    // worded by report/chain_text.
    FactParams facts;
    std::vector<Evidence> evidence;
    std::vector<Competitor> competitors;          // CPU contention only; largest first
    std::vector<Recommendation> recommendations;  // worded by report/recommendation_text
    Confidence confidence = Confidence::kLow;
    // The GPU-driving threads' time that the cause accounts for (the sum of the effects), hidden
    // behind queued device work or not.
    std::int64_t time_lost_ns = 0;
    double time_lost_share = 0;  // of the span of the threads that drive the GPU
    // What removing the cause saves; absent when the trace has no drain of the device's queue
    // (no synchronisation to reconstruct it from).
    std::optional<CriticalPathCost> critical_path;
    // Where the GPU-driving threads' Python code was during this chain's time (the calls of the
    // chain, or their switch-outs blamed on its actor); absent without Python frames.
    std::optional<CodeLine> gpu_thread_line;
    // Where the actor's threads were in their Python code when they gave up a CPU taken from a
    // GPU-driving thread (actor chains that took the CPU); absent without such samples.
    std::optional<CodeLine> actor_line;
};

}  // namespace causeway::analysis
