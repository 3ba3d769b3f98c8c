#include "collector/events/pinned_memory.hpp"

namespace causeway::collector {

void PinnedMemory::add(std::int64_t process_id, std::uint64_t address, std::uint64_t bytes) {
    ranges_[process_id][address] = address + bytes;
}

void PinnedMemory::remove(std::int64_t process_id, std::uint64_t address) {
    auto process = ranges_.find(process_id);
    if (process != ranges_.end()) {
        process->second.erase(address);
    }
}

bool PinnedMemory::contains(std::int64_t process_id, std::uint64_t address) const {
    auto process = ranges_.find(process_id);
    if (process == ranges_.end()) {
        return false;
    }
    const auto& ranges = process->second;
    auto next = ranges.upper_bound(address);
    if (next == ranges.begin()) {
        return false;
    }
    auto range = std::prev(next);
    return address < range->second;
}

}  // namespace causeway::collector
