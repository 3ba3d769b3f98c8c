#include "analysis/measure/wait_kind.hpp"

#include <array>
#include <utility>

namespace causeway::analysis {
namespace {

struct SyscallKind {
    std::int32_t nr;
    WaitKind kind;
};

// arch/x86/entry/syscalls/syscall_64.tbl
constexpr std::array<SyscallKind, 24> kX86_64 = {{
    {202, WaitKind::kLock},  {449, WaitKind::kLock},  // futex, futex_waitv
    {0, WaitKind::kRead},    {19, WaitKind::kRead},   // read, readv
    {17, WaitKind::kRead},   {295, WaitKind::kRead},  // pread64, preadv
    {327, WaitKind::kRead},  {45, WaitKind::kRead},   // preadv2, recvfrom
    {47, WaitKind::kRead},   {299, WaitKind::kRead},  // recvmsg, recvmmsg
    {70, WaitKind::kRead},   {243, WaitKind::kRead},  // msgrcv, mq_timedreceive
    {7, WaitKind::kPoll},    {271, WaitKind::kPoll},  // poll, ppoll
    {23, WaitKind::kPoll},   {270, WaitKind::kPoll},  // select, pselect6
    {232, WaitKind::kPoll},  {281, WaitKind::kPoll},  // epoll_wait, epoll_pwait
    {441, WaitKind::kPoll},  {35, WaitKind::kTimer},  // epoll_pwait2, nanosleep
    {230, WaitKind::kTimer}, {61, WaitKind::kChild},  // clock_nanosleep, wait4
    {247, WaitKind::kChild}, {43, WaitKind::kRead},   // waitid, accept
}};

// include/uapi/asm-generic/unistd.h (arm64 and the other new architectures)
constexpr std::array<SyscallKind, 20> kGeneric = {{
    {98, WaitKind::kLock},   {449, WaitKind::kLock},   // futex, futex_waitv
    {63, WaitKind::kRead},   {65, WaitKind::kRead},    // read, readv
    {67, WaitKind::kRead},   {69, WaitKind::kRead},    // pread64, preadv
    {286, WaitKind::kRead},  {207, WaitKind::kRead},   // preadv2, recvfrom
    {212, WaitKind::kRead},  {243, WaitKind::kRead},   // recvmsg, recvmmsg
    {188, WaitKind::kRead},  {73, WaitKind::kPoll},    // msgrcv, ppoll
    {72, WaitKind::kPoll},   {22, WaitKind::kPoll},    // pselect6, epoll_pwait
    {441, WaitKind::kPoll},  {101, WaitKind::kTimer},  // epoll_pwait2, nanosleep
    {115, WaitKind::kTimer}, {260, WaitKind::kChild},  // clock_nanosleep, wait4
    {95, WaitKind::kChild},  {202, WaitKind::kRead},   // waitid, accept
}};

template <std::size_t N>
WaitKind lookup(const std::array<SyscallKind, N>& table, std::int32_t nr) {
    for (const auto& entry : table) {
        if (entry.nr == nr) {
            return entry.kind;
        }
    }
    return WaitKind::kOther;
}

}  // namespace

const char* wait_kind_name(WaitKind kind) {
    switch (kind) {
        case WaitKind::kLock:
            return "lock";
        case WaitKind::kGil:
            return "gil";
        case WaitKind::kRead:
            return "read";
        case WaitKind::kPoll:
            return "poll";
        case WaitKind::kDiskIo:
            return "disk_io";
        case WaitKind::kTimer:
            return "timer";
        case WaitKind::kChild:
            return "child";
        case WaitKind::kNoSyscall:
            return "no_syscall";
        case WaitKind::kOther:
            return "other_syscall";
        case WaitKind::kUnknown:
            break;
    }
    return "unknown";
}

WaitKind classify_wait(const OffCpuInterval& sleep, const std::optional<std::string>& machine) {
    if (sleep.iowait == 1) {
        return WaitKind::kDiskIo;
    }
    if (sleep.gil) {
        return WaitKind::kGil;
    }
    if (sleep.syscall_nr == kSyscallUnknown) {
        return WaitKind::kUnknown;
    }
    if (sleep.syscall_nr == kNoSyscall) {
        return WaitKind::kNoSyscall;
    }
    bool generic = machine && (*machine == "aarch64" || machine->rfind("riscv", 0) == 0);
    return generic ? lookup(kGeneric, sleep.syscall_nr) : lookup(kX86_64, sleep.syscall_nr);
}

}  // namespace causeway::analysis
