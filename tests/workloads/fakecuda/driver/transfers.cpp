#include "transfers.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace fakecuda {
namespace {

// The real runtime stages pageable memory through small pinned buffers; so does this one.
constexpr std::size_t kStagingChunkBytes = 1 << 20;

void* as_pointer(CUdeviceptr address) {
    return reinterpret_cast<void*>(address);
}

bool is_device_range(Device& device, CUdeviceptr address, std::size_t bytes) {
    auto found = device.memory().find(as_pointer(address), bytes);
    return found && found->kind == MemoryKind::kDevice;
}

bool is_pinned_range(Device& device, const void* address, std::size_t bytes) {
    auto found = device.memory().find(address, bytes);
    return found && found->kind == MemoryKind::kPinnedHost;
}

bool moves_bytes(const Device& device) {
    return device.config().move_bytes != 0;
}

// Device time of a transfer: fixed latency plus bytes at the bandwidth.
Nanos copy_time_ns(const Device& device, std::size_t bytes, double gbps) {
    return device.config().copy_latency_ns + transfer_ns(bytes, gbps);
}

// The host CPU work of staging pageable memory: the calling thread copies `bytes` of `host`
// chunk by chunk through its staging buffer (allocated and touched once per thread, so the cost
// is the copy itself, not page faults).
void stage_pageable(const void* host, std::size_t bytes) {
    thread_local std::vector<std::byte> staging(kStagingChunkBytes);
    const auto* from = static_cast<const std::byte*>(host);
    for (std::size_t done = 0; done < bytes; done += kStagingChunkBytes) {
        std::memcpy(staging.data(), from + done, std::min(kStagingChunkBytes, bytes - done));
    }
}

void wait_for(Device& device, const StreamPosition& position) {
    device.host_wait().until_reached(*position.stream, position.seq);
}

}  // namespace

CUresult copy_host_to_device(Device& device, CUdeviceptr dst, const void* src, std::size_t bytes,
                             const std::shared_ptr<Stream>& stream, Completion completion) {
    if (bytes == 0) {
        return CUDA_SUCCESS;
    }
    if (src == nullptr || !is_device_range(device, dst, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    DeviceOp op;
    op.engine = &device.host_to_device_engine();
    if (is_pinned_range(device, src, bytes)) {
        op.device_ns = copy_time_ns(device, bytes, device.config().pinned_gbps);
        if (moves_bytes(device)) {
            op.run = [dst, src, bytes](Nanos) { std::memcpy(as_pointer(dst), src, bytes); };
        }
    } else {
        op.device_ns = copy_time_ns(device, bytes, device.config().pageable_gbps);
        if (moves_bytes(device)) {
            // The caller may reuse `src` as soon as this returns: stage into a snapshot.
            auto snapshot = std::make_shared<std::vector<std::byte>>(
                static_cast<const std::byte*>(src), static_cast<const std::byte*>(src) + bytes);
            op.run = [dst, snapshot](Nanos) {
                std::memcpy(as_pointer(dst), snapshot->data(), snapshot->size());
            };
        } else {
            stage_pageable(src, bytes);
        }
    }
    const StreamPosition position = device.enqueue(stream, std::move(op));
    if (completion == Completion::kWait) {
        wait_for(device, position);
    }
    return CUDA_SUCCESS;
}

CUresult copy_device_to_host(Device& device, void* dst, CUdeviceptr src, std::size_t bytes,
                             const std::shared_ptr<Stream>& stream, Completion completion) {
    if (bytes == 0) {
        return CUDA_SUCCESS;
    }
    if (dst == nullptr || !is_device_range(device, src, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    const bool pinned = is_pinned_range(device, dst, bytes);
    DeviceOp op;
    op.engine = &device.device_to_host_engine();
    op.device_ns = copy_time_ns(
        device, bytes, pinned ? device.config().pinned_gbps : device.config().pageable_gbps);
    if (moves_bytes(device)) {
        op.run = [dst, src, bytes](Nanos) { std::memcpy(dst, as_pointer(src), bytes); };
    }
    const StreamPosition position = device.enqueue(stream, std::move(op));
    if (pinned) {
        if (completion == Completion::kWait) {
            wait_for(device, position);
        }
        return CUDA_SUCCESS;
    }
    // Pageable destination: the call returns only after the DMA into staging memory and the
    // calling thread's copy out of it, even when asynchronous.
    wait_for(device, position);
    stage_pageable(dst, bytes);
    return CUDA_SUCCESS;
}

CUresult copy_device_to_device(Device& device, CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                               const std::shared_ptr<Stream>& stream) {
    if (bytes == 0) {
        return CUDA_SUCCESS;
    }
    if (!is_device_range(device, dst, bytes) || !is_device_range(device, src, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    DeviceOp op;
    op.device_ns = copy_time_ns(device, bytes, device.config().device_gbps);
    if (moves_bytes(device)) {
        op.run = [dst, src, bytes](Nanos) {
            std::memmove(as_pointer(dst), as_pointer(src), bytes);
        };
    }
    device.enqueue(stream, std::move(op));
    return CUDA_SUCCESS;
}

CUresult copy_inferred(Device& device, CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                       const std::shared_ptr<Stream>& stream, Completion completion) {
    const bool dst_on_device = is_device_range(device, dst, bytes);
    const bool src_on_device = is_device_range(device, src, bytes);
    if (dst_on_device && src_on_device) {
        return copy_device_to_device(device, dst, src, bytes, stream);
    }
    if (dst_on_device) {
        return copy_host_to_device(device, dst, as_pointer(src), bytes, stream, completion);
    }
    if (src_on_device) {
        return copy_device_to_host(device, as_pointer(dst), src, bytes, stream, completion);
    }
    if (bytes != 0 && (dst == 0 || src == 0)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    std::memmove(as_pointer(dst), as_pointer(src), bytes);
    return CUDA_SUCCESS;
}

CUresult set_device_bytes(Device& device, CUdeviceptr dst, unsigned char value, std::size_t bytes,
                          const std::shared_ptr<Stream>& stream) {
    if (bytes == 0) {
        return CUDA_SUCCESS;
    }
    if (!is_device_range(device, dst, bytes)) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    DeviceOp op;
    op.device_ns = copy_time_ns(device, bytes, device.config().device_gbps);
    if (moves_bytes(device)) {
        op.run = [dst, value, bytes](Nanos) { std::memset(as_pointer(dst), value, bytes); };
    }
    device.enqueue(stream, std::move(op));
    return CUDA_SUCCESS;
}

}  // namespace fakecuda
