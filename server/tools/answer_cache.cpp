#include "server/tools/answer_cache.hpp"

#include "server/rpc/sanitize.hpp"

namespace causeway::server {

std::optional<nlohmann::json> AnswerCache::find(const std::string& key) {
    if (auto text = texts_.find(key)) {
        return nlohmann::json::parse(*text);
    }
    return std::nullopt;
}

void AnswerCache::keep(const std::string& key, const nlohmann::json& answer) {
    std::string text = to_wire(answer);
    const std::size_t bytes = text.size();
    texts_.keep(key, std::move(text), bytes);
}

}  // namespace causeway::server
