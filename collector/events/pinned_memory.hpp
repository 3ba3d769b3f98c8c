#pragma once
// Host buffers pinned through cudaMallocHost / cudaHostAlloc, per process, so a copy can be
// marked pinned or pageable (cuda_call.host_pinned; the analysis recommends pin_memory from it).
// Buffers pinned before recording started are not known and read as pageable. Keyed by the
// minted process id, not the pid: nothing needs forgetting when a process exits (its last copies
// may be read after its exit event), and a reused pid starts empty.

#include <cstdint>
#include <map>
#include <unordered_map>

namespace causeway::collector {

class PinnedMemory {
  public:
    void add(std::int64_t process_id, std::uint64_t address, std::uint64_t bytes);
    void remove(std::int64_t process_id, std::uint64_t address);
    // True when `address` lies inside a buffer the process pinned.
    bool contains(std::int64_t process_id, std::uint64_t address) const;

  private:
    // process id -> (start address -> end address, exclusive)
    std::unordered_map<std::int64_t, std::map<std::uint64_t, std::uint64_t>> ranges_;
};

}  // namespace causeway::collector
