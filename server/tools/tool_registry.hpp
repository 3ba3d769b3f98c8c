#pragma once
// Adding a tool is one call: add_tool<In, Answer>(text, handler). The input schema comes from
// In's describe() (server/tools/tool_input.hpp), the output schema from Answer's
// (report/shapes/<output>.hpp), and the handler gets the arguments as an In. The catalog serves
// what the registry holds, and causeway-schemas writes the schemas of schemas/tools/ from it.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/output_shape.hpp"
#include "server/methods/catalog.hpp"
#include "server/tools/tool_input.hpp"

namespace causeway::server {

// One call of a tool, besides its typed arguments.
struct ToolRequest {
    std::string_view tool;
    const nlohmann::json& arguments;  // as sent, after the input schema (the answer cache's key)
    const TraceSet& traces;
    ToolContext& context;
};

template <class In>
using ToolHandler = std::function<Result<ToolAnswer>(const In& input, const ToolRequest& request)>;

// What a tool says about itself in tools/list.
struct ToolText {
    std::string name;
    std::string title;
    std::string description;
};

class ToolRegistry {
  public:
    template <class In, class Answer>
    void add_tool(ToolText text, ToolHandler<In> handler) {
        const std::string name = text.name;
        tools_.push_back(ToolSpec{
            std::move(text.name), std::move(text.title), std::move(text.description),
            input_schema<In>(), report::output_schema<Answer>(),
            [name, handler = std::move(handler)](const nlohmann::json& arguments,
                                                 const TraceSet& traces, ToolContext& context) {
                return handler(read_input<In>(arguments),
                               ToolRequest{name, arguments, traces, context});
            }});
    }

    std::vector<ToolSpec> take() && { return std::move(tools_); }

  private:
    std::vector<ToolSpec> tools_;
};

}  // namespace causeway::server
