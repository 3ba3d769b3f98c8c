#include "host_wait.hpp"

#include <sched.h>

namespace fakecuda {
namespace {

// Tells the core this is a spin-wait loop (saves power, yields the pipeline to a sibling thread).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

}  // namespace

bool HostWait::still_spinning() const {
    switch (mode_) {
        case WaitMode::kSpin:
            return true;
        case WaitMode::kSpinThenYield:
            return monotonic_now_ns() < spin_until_ns_;
        case WaitMode::kYield:
        case WaitMode::kBlock:
            return false;
    }
    return false;
}

void HostWait::until_reached(const Stream& stream, std::uint64_t seq) const {
    if (mode_ == WaitMode::kBlock) {
        stream.block_until(seq);
        return;
    }
    while (!stream.reached(seq)) {
        if (still_spinning()) {
            cpu_relax();
        } else {
            sched_yield();
        }
    }
}

}  // namespace fakecuda
