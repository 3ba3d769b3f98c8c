#pragma once
// MCP protocol revisions this server speaks and how a request picks one.
//
// Two eras share one endpoint:
//  * initialize era (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25): the client sends
//    `initialize` with the revision it wants; the server answers with that revision when it
//    supports it, otherwise with its latest one. Over HTTP every later request names the revision
//    in the MCP-Protocol-Version header (absent means 2025-03-26, as the 2025-06-18 spec says).
//  * stateless era (2026-07-28), as its published schema says (tests/server/mcp-schema/ holds it
//    and every answer is validated against it): there is no handshake; every request carries
//    `params._meta["io.modelcontextprotocol/protocolVersion"]` and
//    `params._meta["io.modelcontextprotocol/clientCapabilities"]`; `server/discover` returns the
//    supported versions, capabilities and instructions (server info in
//    `_meta["io.modelcontextprotocol/serverInfo"]`); every result carries `resultType:
//    "complete"`; the cacheable results (discover, the lists, resources/read) carry `ttlMs` and
//    `cacheScope`; a revision the server does not know is error -32022 whose data lists the
//    supported revisions.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace causeway::server {

using nlohmann::json;

inline constexpr std::string_view kStatelessRevision = "2026-07-28";
inline constexpr std::string_view kLatestInitializeRevision = "2025-11-25";
// What a Streamable HTTP request without an MCP-Protocol-Version header is taken to speak.
inline constexpr std::string_view kDefaultHttpRevision = "2025-03-26";

inline constexpr const char* kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* kMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr const char* kMetaServerInfo = "io.modelcontextprotocol/serverInfo";

// Revisions negotiated through `initialize`, newest first.
const std::vector<std::string>& initialize_revisions();
// Every revision this server speaks, newest first (the stateless one included).
const std::vector<std::string>& supported_revisions();
bool is_supported_revision(std::string_view revision);

// The revision `initialize` answers with for a client asking for `requested`.
std::string negotiate_initialize_revision(std::string_view requested);

enum class Era { kInitialize, kStateless };

// The revision one request is served under, taken from its `_meta` (stateless era), from the
// transport (HTTP header) or from the session's `initialize`.
struct RequestRevision {
    Era era = Era::kInitialize;
    std::string revision;
};

// JSON-RPC and MCP error codes used by the server.
namespace error_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// Stateless revision: the request names a protocol revision the server does not speak.
inline constexpr int kUnsupportedProtocolVersion = -32022;
// MCP: resource not found.
inline constexpr int kResourceNotFound = -32002;
// A request not run because the time limit of its batch was spent. Application-defined, so
// outside the JSON-RPC reserved range (-32768..-32000), as the 2026-07-28 revision asks.
inline constexpr int kBatchTimeLimitSpent = -31001;
// A request not run because its batch holds too many messages or its answers too many bytes.
inline constexpr int kBatchTooLarge = -31002;
}  // namespace error_code

// The data of error -32022: the revision asked for and the ones supported.
json unsupported_revision_data(std::string_view requested);

}  // namespace causeway::server
