#include "device.hpp"

#include <algorithm>

namespace fakecuda {
namespace {

WaitMode wait_mode_of(unsigned context_flags) {
    switch (context_flags & CU_CTX_SCHED_MASK) {
        case CU_CTX_SCHED_SPIN:
            return WaitMode::kSpin;
        case CU_CTX_SCHED_YIELD:
            return WaitMode::kYield;
        case CU_CTX_SCHED_BLOCKING_SYNC:
            return WaitMode::kBlock;
        default:  // CU_CTX_SCHED_AUTO
            return WaitMode::kSpinThenYield;
    }
}

}  // namespace

Device::Device(const fakecudaConfig& config)
    : config_(config), memory_(config.device_memory_bytes) {
    legacy_ = make_stream(Stream::Kind::kLegacyDefault);
}

std::shared_ptr<Stream> Device::make_stream(Stream::Kind kind) {
    return std::make_shared<Stream>(kind, next_stream_id_++);
}

std::shared_ptr<Stream> Device::resolve_stream(CUstream handle) const {
    std::lock_guard lock(mutex_);
    if (handle == nullptr || handle == CU_STREAM_LEGACY) {
        return legacy_;
    }
    auto found = streams_.find(handle);
    return found == streams_.end() ? nullptr : found->second->stream;
}

CUstream Device::create_stream(unsigned flags) {
    std::lock_guard lock(mutex_);
    reap_retired_streams();
    const auto kind = (flags & CU_STREAM_NON_BLOCKING) != 0 ? Stream::Kind::kNonBlocking
                                                            : Stream::Kind::kBlocking;
    auto handle = std::make_unique<CUstream_st>(CUstream_st{make_stream(kind)});
    CUstream raw = handle.get();
    streams_.emplace(raw, std::move(handle));
    return raw;
}

bool Device::destroy_stream(CUstream handle) {
    std::lock_guard lock(mutex_);
    auto found = streams_.find(handle);
    if (found == streams_.end()) {
        return false;
    }
    retired_streams_.push_back(std::move(found->second->stream));
    streams_.erase(found);
    reap_retired_streams();
    return true;
}

// Joins the device threads of destroyed streams that have finished their work (never blocks).
void Device::reap_retired_streams() {
    std::erase_if(retired_streams_, [](const std::shared_ptr<Stream>& s) { return s->idle(); });
}

// Legacy default stream semantics: its ops wait for all earlier work of blocking streams, and
// ops of blocking streams wait for earlier legacy work. Non-blocking streams do neither.
std::vector<StreamPosition> Device::legacy_ordering_for(const Stream& stream) const {
    std::vector<StreamPosition> waits_for;
    auto add_if_pending = [&](const std::shared_ptr<Stream>& other) {
        const std::uint64_t last = other->last_enqueued();
        if (!other->reached(last)) {
            waits_for.push_back(StreamPosition{other, last});
        }
    };
    if (stream.kind() == Stream::Kind::kBlocking) {
        add_if_pending(legacy_);
    } else if (stream.kind() == Stream::Kind::kLegacyDefault) {
        for (const auto& [handle, state] : streams_) {
            if (state->stream->kind() == Stream::Kind::kBlocking) {
                add_if_pending(state->stream);
            }
        }
    }
    return waits_for;
}

StreamPosition Device::enqueue(const std::shared_ptr<Stream>& stream, DeviceOp op) {
    // One lock across computing the ordering and queueing keeps concurrent host threads from
    // creating a dependency cycle between the legacy stream and a blocking stream.
    std::lock_guard lock(mutex_);
    for (StreamPosition& implicit : legacy_ordering_for(*stream)) {
        op.waits_for.push_back(std::move(implicit));
    }
    return StreamPosition{stream, stream->enqueue(std::move(op))};
}

HostWait Device::host_wait() const {
    return HostWait(wait_mode_of(flags()), config_.sync_spin_ns);
}

void Device::synchronize() {
    std::vector<StreamPosition> pending;
    {
        std::lock_guard lock(mutex_);
        pending.push_back(StreamPosition{legacy_, legacy_->last_enqueued()});
        for (const auto& [handle, state] : streams_) {
            pending.push_back(StreamPosition{state->stream, state->stream->last_enqueued()});
        }
        for (const auto& retired : retired_streams_) {
            pending.push_back(StreamPosition{retired, retired->last_enqueued()});
        }
    }
    const HostWait wait = host_wait();
    for (const StreamPosition& position : pending) {
        wait.until_reached(*position.stream, position.seq);
    }
}

void Device::set_flags(unsigned flags) {
    std::lock_guard lock(mutex_);
    flags_ = flags;
}

unsigned Device::flags() const {
    std::lock_guard lock(mutex_);
    return flags_;
}

void Device::set_kernel_duration(CUfunction function, Nanos device_ns) {
    std::lock_guard lock(mutex_);
    kernel_durations_[function] = device_ns;
}

Nanos Device::kernel_duration(CUfunction function) const {
    std::lock_guard lock(mutex_);
    auto found = kernel_durations_.find(function);
    return found == kernel_durations_.end() ? config_.kernel_ns : found->second;
}

}  // namespace fakecuda
