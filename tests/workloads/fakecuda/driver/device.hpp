#pragma once
// The emulated GPU: its streams (with the legacy default stream's ordering rules), how host
// threads wait for it, its memory, its kernels' durations and its events.

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "cuda.h"
#include "dma_engine.hpp"
#include "event_table.hpp"
#include "fakecuda.h"
#include "host_wait.hpp"
#include "memory_registry.hpp"
#include "stream.hpp"

// The stream handle given to applications (opaque in cuda.h).
struct CUstream_st {
    std::shared_ptr<fakecuda::Stream> stream;
};

namespace fakecuda {

class Device {
  public:
    explicit Device(const fakecudaConfig& config);
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const fakecudaConfig& config() const { return config_; }
    MemoryRegistry& memory() { return memory_; }
    EventTable& events() { return events_; }
    DmaEngine& host_to_device_engine() { return host_to_device_engine_; }
    DmaEngine& device_to_host_engine() { return device_to_host_engine_; }

    // Null and CU_STREAM_LEGACY name the legacy default stream; a handle that was never created
    // or is destroyed resolves to null (so does CU_STREAM_PER_THREAD: see per_thread_stream.hpp).
    std::shared_ptr<Stream> resolve_stream(CUstream handle) const;
    CUstream create_stream(unsigned flags);
    // The stream finishes its queued work in the background, as on real CUDA.
    bool destroy_stream(CUstream handle);

    // Queues `op` on `stream`, adding the implicit ordering against the legacy default stream.
    StreamPosition enqueue(const std::shared_ptr<Stream>& stream, DeviceOp op);

    // A wait by the calling thread, as the device's schedule flags say.
    HostWait host_wait() const;
    // Waits for every op queued so far on every stream.
    void synchronize();

    void set_flags(unsigned flags);
    unsigned flags() const;

    void set_kernel_duration(CUfunction function, Nanos device_ns);
    // The registered duration, or FAKECUDA_KERNEL_NS.
    Nanos kernel_duration(CUfunction function) const;

  private:
    std::shared_ptr<Stream> make_stream(Stream::Kind kind);
    std::vector<StreamPosition> legacy_ordering_for(const Stream& stream) const;
    void reap_retired_streams();

    const fakecudaConfig config_;
    MemoryRegistry memory_;
    EventTable events_;
    DmaEngine host_to_device_engine_;
    DmaEngine device_to_host_engine_;

    mutable std::mutex mutex_;  // guards everything below
    int next_stream_id_ = 0;
    std::shared_ptr<Stream> legacy_;
    std::unordered_map<CUstream, std::unique_ptr<CUstream_st>> streams_;
    std::vector<std::shared_ptr<Stream>> retired_streams_;  // destroyed, maybe still working
    unsigned flags_ = CU_CTX_SCHED_AUTO;
    std::unordered_map<CUfunction, Nanos> kernel_durations_;
};

}  // namespace fakecuda
