#pragma once
// How a host thread waits for device work, as selected by cudaSetDeviceFlags / event flags.

#include <cstdint>

#include "clock.hpp"
#include "stream.hpp"

namespace fakecuda {

enum class WaitMode {
    kSpinThenYield,  // cudaDeviceScheduleAuto: spin for a while, then sched_yield in a loop
    kSpin,           // cudaDeviceScheduleSpin: spin until done
    kYield,          // cudaDeviceScheduleYield: sched_yield in a loop
    kBlock,          // cudaDeviceScheduleBlockingSync: sleep on a condition variable
};

// One synchronisation by the calling thread; the spin budget covers all its waits together.
class HostWait {
  public:
    HostWait(WaitMode mode, Nanos spin_ns)
        : mode_(mode), spin_until_ns_(monotonic_now_ns() + spin_ns) {}

    // Returns once op `seq` of `stream` is finished.
    void until_reached(const Stream& stream, std::uint64_t seq) const;

  private:
    bool still_spinning() const;

    WaitMode mode_;
    Nanos spin_until_ns_;
};

}  // namespace fakecuda
