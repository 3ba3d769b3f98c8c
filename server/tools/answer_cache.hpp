#pragma once
// Answers computed from finished traces, kept so that asking again costs a lookup. Bounded by
// bytes, not by entries: an answer is kept as its JSON text, so what it holds in memory is what
// is counted; the least recently used answers go first when a new one needs room. Only
// successful answers that passed the answer-size limit are ever offered to it (tool_runner.cpp).

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace causeway::server {

class AnswerCache {
  public:
    explicit AnswerCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    std::optional<nlohmann::json> find(const std::string& key);
    // Keeps `answer` under `key`, dropping the least recently used answers until it fits; an
    // answer larger than the whole budget is not kept.
    void keep(const std::string& key, const nlohmann::json& answer);

    std::size_t bytes() const;
    std::size_t entries() const;

  private:
    struct Entry {
        std::string key;
        std::string answer;  // JSON text
        std::size_t bytes() const;
    };

    mutable std::mutex mutex_;
    std::size_t max_bytes_;
    std::size_t bytes_ = 0;
    std::list<Entry> recent_;  // most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> by_key_;
};

}  // namespace causeway::server
