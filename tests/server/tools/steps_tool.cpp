#include "tests/server/tools/steps_tool.hpp"

#include <chrono>
#include <thread>

namespace causeway::testing {

using nlohmann::json;

server::Catalog steps_catalog(std::atomic<bool>& started) {
    server::Catalog catalog;
    json input{{"type", "object"},
               {"properties",
                {{"steps", {{"type", "integer"}, {"minimum", 1}}},
                 {"wait_for_cancel", {{"type", "boolean"}}},
                 {"wait_ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 10000}}}}},
               {"additionalProperties", false}};
    catalog.tools.push_back(
        {"steps",
         "Steps",
         "Reports progress per step; optionally waits to be cancelled, at most wait_ms "
         "(10 s by default).",
         input,
         {{"type", "object"}},
         [&started](const json& arguments, const server::TraceSet&,
                    server::ToolContext& context) -> Result<server::ToolAnswer> {
             started = true;
             const int steps = arguments.value("steps", 3);
             for (int i = 1; i <= steps; ++i) {
                 context.progress(i, steps, "step " + std::to_string(i));
             }
             context.log("info", "steps done");
             context.log("debug", "fine detail");
             const auto deadline = std::chrono::steady_clock::now() +
                                   std::chrono::milliseconds(arguments.value("wait_ms", 10000));
             while (arguments.value("wait_for_cancel", false) && !context.cancelled() &&
                    std::chrono::steady_clock::now() < deadline) {
                 std::this_thread::sleep_for(std::chrono::milliseconds(5));
             }
             return server::ToolAnswer{{{"steps", steps}}, "done"};
         }});
    return catalog;
}

}  // namespace causeway::testing
