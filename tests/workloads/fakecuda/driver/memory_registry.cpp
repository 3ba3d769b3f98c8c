#include "memory_registry.hpp"

#include <cstdlib>
#include <iterator>
#include <limits>

namespace fakecuda {
namespace {

// Real device allocations are at least 256-byte aligned; pinned ones are whole pages.
std::size_t alignment_of(MemoryKind kind) {
    return kind == MemoryKind::kDevice ? 256 : 4096;
}

std::size_t round_up(std::size_t bytes, std::size_t alignment) {
    return (bytes + alignment - 1) / alignment * alignment;
}

}  // namespace

void* MemoryRegistry::allocate(std::size_t bytes, MemoryKind kind, unsigned flags) {
    const std::size_t alignment = alignment_of(kind);
    if (bytes > std::numeric_limits<std::size_t>::max() - alignment) {
        return nullptr;  // rounding up would wrap around
    }
    const std::size_t rounded = round_up(bytes, alignment);
    std::lock_guard lock(mutex_);
    if (kind == MemoryKind::kDevice && rounded > device_capacity_bytes_ - device_used_bytes_) {
        return nullptr;
    }
    void* memory = std::aligned_alloc(alignment, rounded);
    if (memory == nullptr) {
        return nullptr;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(memory);
    by_base_[base] = Allocation{base, rounded, kind, flags};
    if (kind == MemoryKind::kDevice) {
        device_used_bytes_ += rounded;
    }
    return memory;
}

bool MemoryRegistry::release(const void* base, MemoryKind kind) {
    std::lock_guard lock(mutex_);
    auto found = by_base_.find(reinterpret_cast<std::uintptr_t>(base));
    if (found == by_base_.end() || found->second.kind != kind) {
        return false;
    }
    if (kind == MemoryKind::kDevice) {
        device_used_bytes_ -= found->second.bytes;
    }
    std::free(reinterpret_cast<void*>(found->first));
    by_base_.erase(found);
    return true;
}

std::optional<Allocation> MemoryRegistry::find(const void* address, std::size_t bytes) const {
    const auto start = reinterpret_cast<std::uintptr_t>(address);
    std::lock_guard lock(mutex_);
    auto after = by_base_.upper_bound(start);
    if (after == by_base_.begin()) {
        return std::nullopt;
    }
    const Allocation& candidate = std::prev(after)->second;
    const std::uintptr_t end = candidate.base + candidate.bytes;
    // start >= candidate.base here; written so that a huge `bytes` cannot wrap around.
    if (start >= end || bytes > end - start) {
        return std::nullopt;
    }
    return candidate;
}

}  // namespace fakecuda
