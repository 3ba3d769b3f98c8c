#pragma once
// A copy engine of the emulated GPU. Each direction between host and device has one, as on GPUs
// with one engine per direction: copies in the same direction on different streams run one after
// another, while a host-to-device and a device-to-host copy overlap.

#include <algorithm>
#include <mutex>

#include "clock.hpp"

namespace fakecuda {

class DmaEngine {
  public:
    // Books the engine for device_ns, starting no earlier than ready_ns; returns the start.
    Nanos reserve(Nanos ready_ns, Nanos device_ns) {
        std::lock_guard lock(mutex_);
        const Nanos start_ns = std::max(ready_ns, busy_until_ns_);
        busy_until_ns_ = start_ns + device_ns;
        return start_ns;
    }

  private:
    std::mutex mutex_;
    Nanos busy_until_ns_ = 0;  // modeled end of the last copy booked
};

}  // namespace fakecuda
