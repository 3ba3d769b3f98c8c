// A tool added with add_tool<In, Answer>: its input schema comes from In's describe(), its output
// schema from Answer's, its handler gets the arguments as an In (defaults for those left out),
// and the schema refuses what In does not describe.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "report/output_shape.hpp"
#include "server/tools/schema_check.hpp"
#include "server/tools/tool_registry.hpp"

namespace registry_test {

using causeway::server::InputInfo;
using nlohmann::json;

struct EchoInput {
    std::string word{};                 // required
    std::optional<std::string> tone{};  // optional, no default
    std::int64_t times = 2;             // optional, default 2
    std::optional<std::int64_t> pid{};  // optional, no default
};

template <class V>
void describe(V& v, EchoInput& in) {
    v.field("word", in.word,
            InputInfo{.description = "The word.", .min_length = 1, .max_length = 8});
    v.field("tone", in.tone, InputInfo{.description = "How.", .max_length = 16});
    v.field("times", in.times, InputInfo{.description = "How often.", .minimum = 1, .maximum = 5});
    v.field("pid", in.pid, InputInfo{.description = "Whose.", .minimum = 0, .maximum = 99});
}

struct EchoAnswer {
    std::string said{};
};

template <class V>
void describe(V& v, const EchoAnswer& answer) {
    v.field("said", answer.said, {.description = "What was said."});
}

class NoContext : public causeway::server::ToolContext {
  public:
    void progress(double, double, const std::string&) override {}
    bool cancelled() const override { return false; }
    std::chrono::steady_clock::time_point deadline() const override {
        return std::chrono::steady_clock::time_point::max();
    }
    void log(const std::string&, const std::string&) override {}
};

causeway::server::ToolSpec echo_tool() {
    causeway::server::ToolRegistry tools;
    tools.add_tool<EchoInput, EchoAnswer>(
        {.name = "echo", .title = "Echo", .description = "Says a word."},
        [](const EchoInput& in, const causeway::server::ToolRequest& request)
            -> causeway::Result<causeway::server::ToolAnswer> {
            std::string said;
            for (std::int64_t i = 0; i < in.times; ++i) {
                said += in.word;
            }
            json structured{{"said", said},
                            {"tone", in.tone.value_or("plain")},
                            {"pid", in.pid ? json(*in.pid) : json(nullptr)},
                            {"tool", std::string(request.tool)}};
            return causeway::server::ToolAnswer{structured, said};
        });
    auto spec = std::move(tools).take();
    REQUIRE(spec.size() == 1);
    return std::move(spec.front());
}

json call(const causeway::server::ToolSpec& tool, const json& arguments) {
    causeway::server::TraceSet no_traces;
    NoContext context;
    auto answer = tool.handler(arguments, no_traces, context);
    REQUIRE(answer);
    return answer->structured;
}

TEST_CASE("add_tool writes the input schema from the input struct, in its field order") {
    const auto tool = echo_tool();
    CHECK(tool.name == "echo");
    CHECK(tool.input_schema.dump() == nlohmann::ordered_json::parse(R"({
            "type": "object",
            "properties": {
              "word": {"type": "string", "minLength": 1, "maxLength": 8,
                       "description": "The word."},
              "tone": {"type": "string", "maxLength": 16, "description": "How."},
              "times": {"type": "integer", "minimum": 1, "maximum": 5, "default": 2,
                        "description": "How often."},
              "pid": {"type": "integer", "minimum": 0, "maximum": 99, "description": "Whose."}
            },
            "required": ["word"],
            "additionalProperties": false
          })")
                                          .dump());
    CHECK(tool.output_schema == causeway::report::output_schema<EchoAnswer>());
}

TEST_CASE("the handler gets the arguments as the input struct, defaults where left out") {
    const auto tool = echo_tool();
    const json bare = call(tool, {{"word", "ab"}});
    CHECK(bare["said"] == "abab");
    CHECK(bare["tone"] == "plain");
    CHECK(bare["pid"].is_null());
    CHECK(bare["tool"] == "echo");
    const json full = call(tool, {{"word", "x"}, {"tone", "loud"}, {"times", 3}, {"pid", 7}});
    CHECK(full["said"] == "xxx");
    CHECK(full["tone"] == "loud");
    CHECK(full["pid"] == 7);
}

TEST_CASE("the input schema refuses what the input struct does not describe or bound") {
    const json schema(echo_tool().input_schema);
    using causeway::server::schema_violation;
    CHECK(schema_violation(schema, {{"word", "ab"}}).empty());
    CHECK_FALSE(schema_violation(schema, json::object()).empty());
    CHECK_FALSE(schema_violation(schema, {{"word", "ab"}, {"colour", "red"}}).empty());
    CHECK_FALSE(schema_violation(schema, {{"word", ""}}).empty());
    CHECK_FALSE(schema_violation(schema, {{"word", "ab"}, {"times", 6}}).empty());
    CHECK_FALSE(schema_violation(schema, {{"word", "ab"}, {"pid", "7"}}).empty());
}

}  // namespace registry_test
