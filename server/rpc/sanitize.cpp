#include "server/rpc/sanitize.hpp"

namespace causeway::server {
std::string sanitize_error_message(std::string_view message) {
    return sanitize_untrusted(message, kMaxErrorMessageBytes);
}

void sanitize_strings(nlohmann::json& tree, std::size_t max_bytes) {
    if (tree.is_string()) {
        tree = sanitize_untrusted(tree.get_ref<const std::string&>(), max_bytes);
    } else if (tree.is_structured()) {
        for (auto& child : tree) {
            sanitize_strings(child, max_bytes);
        }
    }
}

std::string to_wire(const nlohmann::json& message) {
    return message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace causeway::server
