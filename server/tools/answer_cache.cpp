#include "server/tools/answer_cache.hpp"

#include "server/rpc/sanitize.hpp"

namespace causeway::server {
namespace {

// What one entry costs beyond its two strings: the list node, the index node and its key copy
// are counted with the key; this covers the allocator's headers and the pointers.
constexpr std::size_t kEntryOverheadBytes = 128;

}  // namespace

std::size_t AnswerCache::Entry::bytes() const {
    return 2 * key.size() + answer.size() + kEntryOverheadBytes;
}

std::optional<nlohmann::json> AnswerCache::find(const std::string& key) {
    std::string text;
    {
        std::lock_guard lock(mutex_);
        auto found = by_key_.find(key);
        if (found == by_key_.end()) {
            return std::nullopt;
        }
        recent_.splice(recent_.begin(), recent_, found->second);
        text = found->second->answer;
    }
    return nlohmann::json::parse(text);
}

void AnswerCache::keep(const std::string& key, const nlohmann::json& answer) {
    Entry entry{key, to_wire(answer)};
    const std::size_t needed = entry.bytes();
    if (needed > max_bytes_) {
        return;
    }
    std::lock_guard lock(mutex_);
    if (auto found = by_key_.find(key); found != by_key_.end()) {
        bytes_ -= found->second->bytes();
        recent_.erase(found->second);
        by_key_.erase(found);
    }
    while (bytes_ + needed > max_bytes_) {
        bytes_ -= recent_.back().bytes();
        by_key_.erase(recent_.back().key);
        recent_.pop_back();
    }
    recent_.push_front(std::move(entry));
    by_key_.emplace(key, recent_.begin());
    bytes_ += needed;
}

std::size_t AnswerCache::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

std::size_t AnswerCache::entries() const {
    std::lock_guard lock(mutex_);
    return recent_.size();
}

}  // namespace causeway::server
