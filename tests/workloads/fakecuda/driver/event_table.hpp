#pragma once
// The device's events. Recording an event queues a zero-length op that stamps the device time at
// which its stream reached it; each record is a separate object, so re-recording an event never
// races with the stamp of the previous record.

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "cuda.h"
#include "stream.hpp"

namespace fakecuda {

// One cuEventRecord: where it sits in its stream and the device time the stream reached it.
struct EventRecord {
    StreamPosition position;
    std::atomic<Nanos> device_ts_ns{0};
};

struct EventState {
    unsigned flags = 0;                         // CU_EVENT_* flags it was created with
    std::shared_ptr<const EventRecord> record;  // null until first recorded
};

}  // namespace fakecuda

// The event handle given to applications (opaque in cuda.h).
struct CUevent_st {
    fakecuda::EventState state;
};

namespace fakecuda {

class EventTable {
  public:
    CUevent create(unsigned flags);
    bool destroy(CUevent handle);
    // The event's flags and latest record; nullopt for an unknown handle.
    std::optional<EventState> lookup(CUevent handle) const;
    // Makes `record` the event's latest record; false for an unknown handle.
    bool set_record(CUevent handle, std::shared_ptr<const EventRecord> record);

  private:
    mutable std::mutex mutex_;
    std::unordered_map<CUevent, std::unique_ptr<CUevent_st>> events_;
};

}  // namespace fakecuda
