#include "server/rpc/protocol.hpp"

#include <algorithm>

namespace causeway::server {

const std::vector<std::string>& initialize_revisions() {
    static const std::vector<std::string> revisions{std::string(kLatestInitializeRevision),
                                                    "2025-06-18", "2025-03-26", "2024-11-05"};
    return revisions;
}

const std::vector<std::string>& supported_revisions() {
    static const std::vector<std::string> revisions = [] {
        std::vector<std::string> all{std::string(kStatelessRevision)};
        all.insert(all.end(), initialize_revisions().begin(), initialize_revisions().end());
        return all;
    }();
    return revisions;
}

bool is_supported_revision(std::string_view revision) {
    const auto& all = supported_revisions();
    return std::find(all.begin(), all.end(), revision) != all.end();
}

std::string negotiate_initialize_revision(std::string_view requested) {
    const auto& known = initialize_revisions();
    if (std::find(known.begin(), known.end(), requested) != known.end()) {
        return std::string(requested);
    }
    return std::string(kLatestInitializeRevision);
}

json unsupported_revision_data(std::string_view requested) {
    return {{"requested", requested}, {"supported", supported_revisions()}};
}

}  // namespace causeway::server
