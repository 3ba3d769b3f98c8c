#include "collector/pinned_memory.hpp"

namespace causeway::collector {

void PinnedMemory::add(std::uint32_t tgid, std::uint64_t address, std::uint64_t bytes) {
    ranges_[tgid][address] = address + bytes;
}

void PinnedMemory::remove(std::uint32_t tgid, std::uint64_t address) {
    auto process = ranges_.find(tgid);
    if (process != ranges_.end()) {
        process->second.erase(address);
    }
}

bool PinnedMemory::contains(std::uint32_t tgid, std::uint64_t address) const {
    auto process = ranges_.find(tgid);
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
