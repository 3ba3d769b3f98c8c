// The JSON-RPC dispatcher over the stdio transport, the way `causeway mcp` reads a client: the
// input is one message (newlines become spaces, so it stays one line) served against the MCP
// fixture trace with the real catalog (every tool, prompt and resource). Whatever the bytes,
// the server answers with JSON-RPC only: every line it writes parses and names jsonrpc 2.0.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz/fixture_server.hpp"
#include "fuzz/fuzz_check.hpp"
#include "server/rpc/dispatcher.hpp"
#include "tests/server/transport/stdio_run.hpp"

namespace {

using causeway::fuzz::require;
using nlohmann::json;

causeway::server::Dispatcher* dispatcher = nullptr;

bool is_json_rpc(const json& message) {
    if (message.is_array()) {
        for (const auto& item : message) {
            if (!is_json_rpc(item)) {
                return false;
            }
        }
        return !message.empty();
    }
    return message.is_object() && message.value("jsonrpc", json()) == "2.0";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    dispatcher = causeway::fuzz::serve_fixture_trace();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string line(reinterpret_cast<const char*>(data), size);
    for (char& c : line) {
        c = c == '\n' ? ' ' : c;
    }
    line += '\n';
    const std::string answer = causeway::testing::run_stdio(*dispatcher, std::move(line));
    for (std::size_t start = 0; start < answer.size();) {
        const std::size_t end = answer.find('\n', start);
        require(end != std::string::npos, "every message written ends with a newline");
        const json message = json::parse(answer.substr(start, end - start), nullptr, false);
        require(!message.is_discarded(), "every line written is JSON");
        require(is_json_rpc(message), "every line written is a JSON-RPC 2.0 message or batch");
        start = end + 1;
    }
    return 0;
}
