#pragma once
// Answers computed from finished traces, kept so that asking again costs a lookup. Bounded by
// bytes (lru_bytes.hpp): an answer is kept as its JSON text, so what it holds in memory is what
// is counted. Only successful answers that passed the answer-size limit are ever offered to it
// (tool_runner.cpp).

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "server/tools/lru_bytes.hpp"

namespace causeway::server {

class AnswerCache {
  public:
    explicit AnswerCache(std::size_t max_bytes) : texts_(max_bytes) {}

    std::optional<nlohmann::json> find(const std::string& key);
    // Keeps `answer` under `key`, dropping the least recently used answers until it fits; an
    // answer larger than the whole budget is not kept.
    void keep(const std::string& key, const nlohmann::json& answer);

    std::size_t bytes() const { return texts_.bytes(); }
    std::size_t entries() const { return texts_.entries(); }

  private:
    LruBytes<std::string> texts_;  // JSON text
};

}  // namespace causeway::server
