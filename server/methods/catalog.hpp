#pragma once
// The one declarative table of what the server offers: tools (name, title, description, input
// and output JSON Schema, handler; server/tools/tool_registry.hpp adds them), prompts and
// resources. The dispatcher
// serves this table over JSON-RPC; nothing else knows a tool's name.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "server/tools/trace_set.hpp"

namespace causeway::server {

using nlohmann::json;

// What a handler can do besides computing: report progress, notice cancellation, log.
class ToolContext {
  public:
    virtual ~ToolContext() = default;
    // Sends notifications/progress when the client asked for it (progressToken); `total` may be 0
    // when unknown.
    virtual void progress(double done, double total, const std::string& message) = 0;
    // True once the client sent notifications/cancelled for this request.
    virtual bool cancelled() const = 0;
    // When the answer is due: the end of the time limit of the JSON-RPC batch the request came
    // in, or time_point::max() for a request on its own. Tools that can stop early (run_sql)
    // stop by then.
    virtual std::chrono::steady_clock::time_point deadline() const = 0;
    // Sends notifications/message at `level` ("info", "warning", ...) when the client's log level
    // lets it through.
    virtual void log(const std::string& level, const std::string& message) = 0;
};

// A tool's answer: structuredContent (matching the output schema) and a compact text rendering.
struct ToolAnswer {
    json structured;
    std::string text;
};

struct ToolSpec {
    std::string name;
    std::string title;
    std::string description;
    // Written from the input and answer structs (server/tools/tool_registry.hpp), in the key
    // order of the committed files of schemas/tools/.
    nlohmann::ordered_json input_schema;
    nlohmann::ordered_json output_schema;
    // An error result is returned to the model with isError: true; it must say what to do.
    std::function<Result<ToolAnswer>(const json& arguments, const TraceSet& traces,
                                     ToolContext& context)>
        handler;
};

struct PromptArgument {
    std::string name;
    std::string description;
    bool required = false;
    // Suggested values for completion/complete; empty when the argument is free text.
    std::function<std::vector<std::string>(const TraceSet& traces)> suggestions;
};

struct PromptSpec {
    std::string name;
    std::string title;
    std::string description;
    std::vector<PromptArgument> arguments;
    // The prompts/get result: {description, messages}.
    std::function<Result<json>(const std::map<std::string, std::string>& arguments,
                               const TraceSet& traces)>
        render;
};

struct ResourceContent {
    std::string mime_type;
    std::string text;
};

// A family of resources: a fixed URI or one URI per trace (uri_template with {trace}).
struct ResourceSpec {
    std::string uri_template;  // e.g. "causeway://traces/{trace}/summary"; no braces: fixed
    std::string name;
    std::string title;
    std::string description;
    std::string mime_type;
    // `trace` is the one the URI names, null for a fixed URI.
    std::function<Result<ResourceContent>(const TraceSet& traces, const Trace* trace)> read;
};

struct Catalog {
    std::vector<ToolSpec> tools;
    std::vector<PromptSpec> prompts;
    std::vector<ResourceSpec> resources;
    std::string instructions;  // initialize / server/discover `instructions`
};

// The tools, the investigate prompt and the resources of Causeway; with a ClickHouse URL also
// get_fleet_overview over the jobs stored there.
Catalog make_causeway_catalog(const std::string& clickhouse_url = "");

}  // namespace causeway::server
