#pragma once
// Who or what a chain blames (its actor's kind): the causes of the GPU-driving threads' time off
// a CPU (actor_causes.hpp), and the device itself for the chains of its own time.

namespace causeway::analysis {

enum class CauseKind {
    kDataLoaderWorkers,  // workers (and the pin-memory thread) of one training process
    kProcessesOutside,   // processes outside the traced tree, by name
    kTreeThreads,        // other threads of the traced processes competing for CPU
    kLockHolder,         // the thread that released the lock it slept on
    kProducerThread,     // the thread whose write ended its read or poll
    kWakerThread,        // a thread of the tree that woke it from another kind of wait
    kDiskIo,             // an I/O wait ended by the disk
    kNetwork,            // a read or poll ended by a softirq (packets)
    kTimer,              // a sleep ended by its timer
    kInterrupt,          // another wait ended by an interrupt
    kUnrecordedWaker,    // a sleep whose waker the trace does not hold
    kUnknownCompetitor,  // preempted by a thread the trace does not hold
    kRunQueue,           // waited for a CPU after wakeups with no preemption to blame it on
    kSeveral,            // causes too small to stand alone, together (Cause::members)
    // The actors of the chains of the device's own time (never a cause of time off a CPU).
    kDevice,     // the GPU: the host waits for it in synchronisation
    kTransfers,  // host-device copies
    kAllocator,  // the CUDA allocator
    kStartUp,    // one-time start-up: the first calls of each op
    // The GPU-driving thread's own work on a CPU between calls (HOST-BOUND).
    kOwnCompute,
    // Runnable but held off the CPU: its group used up its CPU quota and was throttled
    // (CPU-THROTTLED). A cause of time off a CPU, with no thread behind it.
    kCpuQuota,
    // The thread that held CPython's GIL while a GPU-driving thread of its process waited for it
    // (GIL-CONTENDED).
    kGilHolder,
    // The rank of an NCCL job that arrived last at its collectives, which the others waited for
    // (COLLECTIVE-WAIT). Never a cause of time off a CPU.
    kLateRank,
    kLast = kLateRank,  // the schemas list every kind up to this one (report/shapes/shared.hpp)
};
// 'dataloader_workers', 'processes_outside', 'tree_threads', 'lock_holder', 'producer_thread',
// 'waker_thread', 'disk_io', 'network', 'timer', 'interrupt', 'unrecorded_waker',
// 'unknown_competitor', 'run_queue', 'several', 'device', 'transfers', 'allocator', 'start_up',
// 'own_compute', 'cpu_quota', 'gil_holder', 'late_rank'
// (stable: programs read it as a chain's actor kind).
const char* cause_kind_name(CauseKind kind);

}  // namespace causeway::analysis
