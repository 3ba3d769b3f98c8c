#pragma once
// Causes by actor: every interval that the threads driving the GPU lost off a CPU is blamed on
// an actor, and actors are grouped into causes.
//  * Runnable but not running: the thread that held the CPU (sched_switch's next task).
//  * Asleep between CUDA calls: who woke it (the task running sched_waking, or the interrupt),
//    read together with what it slept in (a futex, a pipe read, a timer, disk I/O).
//  * Woken but waiting for a CPU: shared among the causes that preempted it, by their preempted
//    time (the run queue does not record who kept it waiting).
// One cause, several effects: the DataLoader workers of one training process both take its CPU
// and produce the batches it waits for, so they are one cause with two effects.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/diagnose/cause_kind.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "analysis/measure/call_accounting.hpp"
#include "analysis/measure/wait_kind.hpp"
#include "analysis/model/saturating.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct CauseKey {
    CauseKind kind = CauseKind::kUnrecordedWaker;
    int process_index = -1;  // workers: the process they feed; tree threads: their process
    int thread_index = -1;   // lock holder, producer, waker thread
    std::string name{};      // processes outside: their name
    auto operator<=>(const CauseKey&) const = default;
};

// Sleeps ended by one kind of wait, for one cause.
struct WaitTime {
    std::int64_t ns = 0;
    std::int64_t count = 0;
};

struct Cause {
    CauseKey key;
    std::vector<int> threads;            // the actor's threads seen in the evidence (indices)
    std::int64_t preempted_ns = 0;       // held the CPU while a GPU thread was runnable
    std::int64_t runq_wait_ns = 0;       // share of the run-queue wait after wakeups
    std::map<WaitKind, WaitTime> woken;  // sleeps between calls that this actor ended
    // One hop back: while the GPU thread slept waiting for this actor, the actor's waking
    // thread was itself runnable but not running for this long, and who had its CPU.
    std::int64_t waker_preempted_ns = 0;
    CompetitorTime waker_preempted_by;
    std::vector<CauseKey> members;  // kSeveral: the causes it holds

    void merge(const Cause& other);

    std::int64_t woken_ns() const;
    std::int64_t woken_count() const;
    std::int64_t lost_ns() const {
        return saturating_add(saturating_add(preempted_ns, runq_wait_ns), woken_ns());
    }
};

// The causes of the primary threads' lost time, largest first.
std::vector<Cause> attribute_causes(const TraceModel& model, const Roles& roles,
                                    const CallAccounting& accounting);

// The cause of one sleep between CUDA calls of a GPU-driving thread: who or what ended it.
CauseKey sleep_cause(const TraceModel& model, const Roles& roles, const OffCpuInterval& sleep);

// The cause a competitor thread that held the CPU belongs to (-1: not recorded).
CauseKey competitor_cause(const TraceModel& model, const Roles& roles, int thread_index);

}  // namespace causeway::analysis
