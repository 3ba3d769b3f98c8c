#pragma once
// Host buffers pinned through cudaMallocHost / cudaHostAlloc, per process, so a copy can be
// marked pinned or pageable (cuda_call.host_pinned; the analysis recommends pin_memory from it).
// Buffers pinned before recording started are not known and read as pageable.

#include <cstdint>
#include <map>
#include <unordered_map>

namespace causeway::collector {

class PinnedMemory {
  public:
    void add(std::uint32_t tgid, std::uint64_t address, std::uint64_t bytes);
    void remove(std::uint32_t tgid, std::uint64_t address);
    // True when [address] lies inside a buffer the process pinned.
    bool contains(std::uint32_t tgid, std::uint64_t address) const;
    void forget_process(std::uint32_t tgid) { ranges_.erase(tgid); }

  private:
    // tgid -> (start address -> end address, exclusive)
    std::unordered_map<std::uint32_t, std::map<std::uint64_t, std::uint64_t>> ranges_;
};

}  // namespace causeway::collector
