#pragma once
// What a sleeping thread waited in, from the system call it slept in (offcpu.syscall_nr), the
// I/O-wait flag and the context of the wakeup: the kind of wait names the kind of actor to
// look for (a lock's holder, a producer, the disk, a timer).

#include <optional>
#include <string>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

enum class WaitKind {
    kLock,             // futex: a mutex, condition variable or semaphore (the GIL where not told)
    kGil,              // CPython's GIL (offcpu.waits_for): the interpreter's own lock
    kRead,             // read/recv on a pipe, socket or message queue
    kPoll,             // poll, select, epoll
    kDiskIo,           // an I/O wait (task->in_iowait): the disk
    kTimer,            // nanosleep, clock_nanosleep
    kChild,            // wait4, waitid: a child process
    kNoSyscall,        // outside a system call: a page fault or a wait inside the kernel
    kOther,            // another system call
    kUnknown,          // not recorded
    kLast = kUnknown,  // the schemas list every kind up to this one
};
const char* wait_kind_name(WaitKind kind);  // 'lock', 'gil', 'read', 'poll', 'disk_io', ...

// `machine` is session.machine: syscall numbers differ between architectures (x86_64, aarch64;
// an unknown machine is taken as x86_64, the only one the collector has been built for).
WaitKind classify_wait(const OffCpuInterval& sleep, const std::optional<std::string>& machine);

}  // namespace causeway::analysis
