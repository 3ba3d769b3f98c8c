#pragma once
// A cache bounded by bytes, not by entries: each value is kept with what it costs in memory, and
// the least recently used values go first when a new one needs room. A value larger than the
// whole budget is not kept, or (Oversized::kKeptAlone) kept as the only one. Thread-safe.

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace causeway::server {

enum class Oversized { kDropped, kKeptAlone };

template <class Value>
class LruBytes {
  public:
    explicit LruBytes(std::size_t max_bytes, Oversized oversized = Oversized::kDropped)
        : max_bytes_(max_bytes), oversized_(oversized) {}

    std::optional<Value> find(const std::string& key) {
        std::lock_guard lock(mutex_);
        auto found = by_key_.find(key);
        if (found == by_key_.end()) {
            return std::nullopt;
        }
        recent_.splice(recent_.begin(), recent_, found->second);
        return found->second->value;
    }

    // Keeps `value` (costing `value_bytes`) under `key`, dropping the least recently used values
    // until it fits.
    void keep(const std::string& key, Value value, std::size_t value_bytes) {
        // The list node, the index node and its copy of the key, and the allocator's headers.
        const std::size_t needed = 2 * key.size() + value_bytes + kEntryOverheadBytes;
        if (needed > max_bytes_ && oversized_ == Oversized::kDropped) {
            return;
        }
        std::lock_guard lock(mutex_);
        if (auto found = by_key_.find(key); found != by_key_.end()) {
            bytes_ -= found->second->bytes;
            recent_.erase(found->second);
            by_key_.erase(found);
        }
        while (!recent_.empty() && bytes_ + needed > max_bytes_) {
            bytes_ -= recent_.back().bytes;
            by_key_.erase(recent_.back().key);
            recent_.pop_back();
        }
        recent_.push_front(Entry{key, std::move(value), needed});
        by_key_.emplace(key, recent_.begin());
        bytes_ += needed;
    }

    std::size_t bytes() const {
        std::lock_guard lock(mutex_);
        return bytes_;
    }
    std::size_t max_bytes() const { return max_bytes_; }
    std::size_t entries() const {
        std::lock_guard lock(mutex_);
        return recent_.size();
    }

  private:
    static constexpr std::size_t kEntryOverheadBytes = 128;

    struct Entry {
        std::string key;
        Value value;
        std::size_t bytes;
    };

    mutable std::mutex mutex_;
    std::size_t max_bytes_;
    Oversized oversized_;
    std::size_t bytes_ = 0;
    std::list<Entry> recent_;  // most recently used first
    std::unordered_map<std::string, typename std::list<Entry>::iterator> by_key_;
};

}  // namespace causeway::server
