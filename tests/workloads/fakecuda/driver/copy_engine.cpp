#include "copy_engine.hpp"

#include <cstring>

namespace fakecuda {
namespace {

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

// Device time of a transfer: fixed latency plus bytes at the bandwidth.
Nanos copy_time_ns(const Device& device, std::size_t bytes, double gbps) {
    return device.config().copy_latency_ns + transfer_ns(bytes, gbps);
}

// Staging memory of a pageable copy; uninitialised, filled by the copy itself.
std::shared_ptr<std::byte[]> make_staging(std::size_t bytes) {
    return std::shared_ptr<std::byte[]>(new std::byte[bytes]);
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
    if (is_pinned_range(device, src, bytes)) {
        op.device_ns = copy_time_ns(device, bytes, device.config().pinned_gbps);
        op.run = [dst, src, bytes](Nanos) { std::memcpy(as_pointer(dst), src, bytes); };
    } else {
        // Host CPU work on the calling thread, as the real runtime stages pageable memory.
        auto staging = make_staging(bytes);
        std::memcpy(staging.get(), src, bytes);
        op.device_ns = copy_time_ns(device, bytes, device.config().pageable_gbps);
        op.run = [dst, staging, bytes](Nanos) {
            std::memcpy(as_pointer(dst), staging.get(), bytes);
        };
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
    DeviceOp op;
    if (is_pinned_range(device, dst, bytes)) {
        op.device_ns = copy_time_ns(device, bytes, device.config().pinned_gbps);
        op.run = [dst, src, bytes](Nanos) { std::memcpy(dst, as_pointer(src), bytes); };
        const StreamPosition position = device.enqueue(stream, std::move(op));
        if (completion == Completion::kWait) {
            wait_for(device, position);
        }
        return CUDA_SUCCESS;
    }
    // Pageable destination: the call returns only after the DMA into staging memory and the
    // calling thread's memcpy out of it, even when asynchronous.
    auto staging = make_staging(bytes);
    op.device_ns = copy_time_ns(device, bytes, device.config().pageable_gbps);
    op.run = [staging, src, bytes](Nanos) { std::memcpy(staging.get(), as_pointer(src), bytes); };
    wait_for(device, device.enqueue(stream, std::move(op)));
    std::memcpy(dst, staging.get(), bytes);
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
    op.run = [dst, src, bytes](Nanos) { std::memmove(as_pointer(dst), as_pointer(src), bytes); };
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
    op.run = [dst, value, bytes](Nanos) { std::memset(as_pointer(dst), value, bytes); };
    device.enqueue(stream, std::move(op));
    return CUDA_SUCCESS;
}

}  // namespace fakecuda
