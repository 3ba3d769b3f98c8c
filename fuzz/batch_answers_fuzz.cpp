// JSON-RPC batches into the dispatcher (server/rpc/dispatcher.hpp) under small limits: each input
// byte picks one message of the batch (requests that answer little or much, notifications,
// invalid items), served against the MCP fixture trace. The answers stay within what the limits
// promise: no more answers than messages, each a JSON-RPC 2.0 message; messages past the count
// limit are not run; the answers that ran, but the last, stay within the byte budget.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz/fixture_server.hpp"
#include "fuzz/fuzz_check.hpp"
#include "server/rpc/dispatcher.hpp"
#include "server/rpc/protocol.hpp"

namespace {

using causeway::fuzz::require;
using nlohmann::json;

constexpr causeway::server::DispatcherLimits kLimits{.max_batch_messages = 8,
                                                     .batch_answer_bytes = 4096};
constexpr std::size_t kMostMessages = 24;

causeway::server::Dispatcher* dispatcher = nullptr;

json request(int id, const char* method) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
}

// One message of the batch, picked by `choice`; `id` keeps request ids distinct.
json message(std::uint8_t choice, int id) {
    switch (choice % 8) {
        case 0:
            return request(id, "ping");
        case 1:
            return request(id, "tools/list");
        case 2:
            return {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
        case 3: {
            json call = request(id, "tools/call");
            call["params"] = {{"name", "get_trace_stats"}, {"arguments", json::object()}};
            return call;
        }
        case 4:
            return json(choice);  // not a message at all
        case 5:
            return {{"jsonrpc", "2.0"}, {"id", id}};  // a request without a method
        case 6:
            return request(id, "resources/list");
        default:
            return request(id, "prompts/list");
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    dispatcher = causeway::fuzz::serve_fixture_trace(kLimits);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0 || size > kMostMessages) {
        return 0;
    }
    json batch = json::array();
    for (std::size_t i = 0; i < size; ++i) {
        batch.push_back(message(data[i], static_cast<int>(i)));
    }
    causeway::server::Session session;
    auto answer = dispatcher->handle(batch, {session, {}, std::nullopt});
    if (!answer) {
        return 0;
    }
    require(answer->is_array(), "a batch is answered with an array");
    require(answer->size() <= batch.size(), "no more answers than messages");
    std::size_t ran_bytes = 0;
    std::size_t last_ran_bytes = 0;
    for (const json& item : *answer) {
        require(item.is_object() && item.value("jsonrpc", json()) == "2.0",
                "every answer is a JSON-RPC 2.0 message");
        const bool not_run =
            item.contains("error") &&
            item["error"].value("code", 0) == causeway::server::error_code::kBatchTooLarge;
        if (not_run) {
            continue;
        }
        const json& id = item.value("id", json());
        require(!id.is_number_integer() || id.get<std::size_t>() < kLimits.max_batch_messages,
                "a message past the count limit is not run");
        last_ran_bytes = item.dump().size();
        ran_bytes += last_ran_bytes;
    }
    require(ran_bytes - last_ran_bytes < kLimits.batch_answer_bytes,
            "the answers that ran, but the last, stay within the byte budget");
    return 0;
}
