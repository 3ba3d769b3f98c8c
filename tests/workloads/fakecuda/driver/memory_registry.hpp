#pragma once
// Every live allocation of the emulated device: device memory (plain host memory standing in for
// GPU memory) and pinned host memory. Copies consult it to tell pinned from pageable host memory
// and to refuse pointers that are not device memory. Thread-safe.

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace fakecuda {

enum class MemoryKind { kDevice, kPinnedHost };

struct Allocation {
    std::uintptr_t base = 0;
    std::size_t bytes = 0;
    MemoryKind kind = MemoryKind::kDevice;
    unsigned flags = 0;  // cudaHostAlloc flags of pinned memory
};

class MemoryRegistry {
  public:
    explicit MemoryRegistry(std::uint64_t device_capacity_bytes)
        : device_capacity_bytes_(device_capacity_bytes) {}
    MemoryRegistry(const MemoryRegistry&) = delete;
    MemoryRegistry& operator=(const MemoryRegistry&) = delete;

    // Null when device capacity or host memory is exhausted. bytes must be > 0.
    void* allocate(std::size_t bytes, MemoryKind kind, unsigned flags);

    // Frees the allocation that starts at `base`; false when none of that kind starts there.
    bool release(const void* base, MemoryKind kind);

    // The allocation that holds all of [address, address + bytes), if any.
    std::optional<Allocation> find(const void* address, std::size_t bytes) const;

  private:
    mutable std::mutex mutex_;
    std::map<std::uintptr_t, Allocation> by_base_;
    const std::uint64_t device_capacity_bytes_;
    std::uint64_t device_used_bytes_ = 0;
};

}  // namespace fakecuda
