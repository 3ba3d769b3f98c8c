#include "server/tools/answer_size.hpp"

#include <fmt/format.h>

#include "server/rpc/sanitize.hpp"

namespace causeway::server {

Status check_answer_size(const std::string& tool, const nlohmann::json& structured,
                         const std::string& text) {
    const std::size_t bytes = to_wire(structured).size() + to_wire(nlohmann::json(text)).size();
    if (bytes <= kMaxAnswerBytes) {
        return Ok{};
    }
    return Error{fmt::format(
        "the answer of {} is too large ({} bytes, limit {}); ask for less: a smaller limit, a "
        "time window or a pid",
        tool, bytes, kMaxAnswerBytes)};
}

}  // namespace causeway::server
