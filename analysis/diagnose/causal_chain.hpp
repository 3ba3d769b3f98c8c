#pragma once
// A causal chain: symptom -> evidence measured on the calls themselves -> root cause ->
// recommendations, with a confidence and the time it cost. One chain per root cause.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/process_roles.hpp"
#include "analysis/diagnose/recommendation.hpp"

namespace causeway::analysis {

enum class Confidence { kLow, kMedium, kHigh };
const char* confidence_name(Confidence confidence);  // 'HIGH', 'MEDIUM', 'LOW'

// The bottleneck classes; a chain's class is also the verdict it leads to.
inline constexpr const char* kInputBound = "INPUT-BOUND";
inline constexpr const char* kCpuContended = "CPU-CONTENDED";
inline constexpr const char* kGpuBound = "GPU-BOUND";
inline constexpr const char* kTransferBound = "TRANSFER-BOUND";
inline constexpr const char* kAllocationChurn = "ALLOCATION-CHURN";
inline constexpr const char* kLockContended = "LOCK-CONTENDED";
inline constexpr const char* kColdStart = "COLD-START";
inline constexpr const char* kHealthy = "HEALTHY";
inline constexpr const char* kInsufficientData = "INSUFFICIENT-DATA";

// One measured fact. `key` is stable (programs read it), `text` is for a person.
struct Evidence {
    std::string key;
    double value = 0;
    std::string unit;  // 'ns', 'ratio', 'count', 'bytes', 'per_s', 'bytes_per_s', 'pct'
    std::string text;
};

// Who had the CPU while a traced thread was preempted.
struct Competitor {
    std::string comm;
    std::int64_t pid = 0;  // 0 when unknown (the idle task or a thread not in the file)
    std::int64_t tid = 0;
    bool in_tree = false;
    Role role = Role::kOther;  // of its thread
    std::int64_t preempted_ns = 0;
    double share = 0;  // of the preempted time measured
};

// Who or what a chain blames: one cause, which may be several threads or processes.
struct Actor {
    // 'dataloader_workers', 'processes_outside', 'tree_threads', 'lock_holder',
    // 'producer_thread', 'waker_thread', 'disk_io', 'network', 'timer', 'interrupt',
    // 'unrecorded_waker', 'unknown_competitor', 'run_queue', 'several', and for the chains of
    // the device itself: 'device', 'transfers', 'allocator', 'start_up'
    std::string kind;
    std::string name;      // 'pt_data_worker', 'prep_locker', 'hogd', 'disk', ...
    std::int64_t pid = 0;  // workers: the training process they feed; a thread's process; 0: none
    std::int64_t tid = 0;  // when the actor is one thread; 0 otherwise
    std::vector<std::int64_t> pids;  // the processes the actor's threads belong to
    bool in_tree = false;
};

// One way the actor cost the threads that drive the GPU. A chain's time lost is the sum of its
// effects.
struct Effect {
    std::string kind{};  // 'preempted', 'runq_wait', 'woken' (a sleep it ended), 'in_device', ...
    std::string wait{};  // 'woken': what the thread slept in (wait_kind_name); empty otherwise
    std::int64_t ns = 0;
    double share = 0;        // of the span of the threads that drive the GPU
    std::int64_t count = 0;  // intervals behind it; 0 when not counted
    std::string text{};
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

struct CausalChain {
    std::string root_cause_class;  // one of the class names above
    Actor actor;
    std::vector<Effect> effects;
    std::string symptom;
    std::optional<std::string> op;  // the op the symptom is about, when there is one
    std::vector<Evidence> evidence;
    std::vector<Competitor> competitors;          // CPU contention only; largest first
    std::string root_cause;                       // one sentence
    std::vector<Recommendation> recommendations;  // worded by report/recommendation_text
    Confidence confidence = Confidence::kLow;
    std::int64_t time_lost_ns = 0;
    double time_lost_share = 0;  // of the span of the threads that drive the GPU
    // Where the GPU-driving threads' Python code was during this chain's time (the calls of the
    // chain, or their switch-outs blamed on its actor); absent without Python frames.
    std::optional<CodeLine> gpu_thread_line;
    // Where the actor's threads were in their Python code when they gave up a CPU taken from a
    // GPU-driving thread (actor chains that took the CPU); absent without such samples.
    std::optional<CodeLine> actor_line;
};

}  // namespace causeway::analysis
