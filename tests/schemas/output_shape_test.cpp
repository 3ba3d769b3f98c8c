// The machinery of report/output_shape.hpp on a small described struct: each kind of field
// writes the JSON it says, the schema says what that JSON is, and the JSON meets the schema.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/output_shape.hpp"
#include "server/tools/schema_check.hpp"

namespace shape_test {

using causeway::report::Number;
using causeway::report::Presence;

enum class Colour { kRed, kGreen, kBlue, kLast = kBlue };
const char* colour_name(Colour colour) {
    switch (colour) {
        case Colour::kRed:
            return "red";
        case Colour::kGreen:
            return "green";
        case Colour::kBlue:
            return "blue";
    }
    return "?";
}
const auto kColourNames = causeway::report::enum_names<Colour::kLast>(colour_name);

struct Line {
    std::string file{};
    std::int64_t line = 0;
};

struct Sample {
    std::optional<Line> line{};              // in the JSON only when set
    std::optional<std::string> op{};         // null when unknown
    std::optional<std::string> shade{};      // one of the colours, or null
    std::map<std::string, Number> params{};  // named numbers
    Colour colour = Colour::kRed;
    std::vector<std::int64_t> samples{};  // with their count, only when there are some
};

template <class V>
void describe(V& v, const Line& l) {
    v.object_description("A line of source.");
    v.field("file", l.file);
    v.field("line", l.line);
}

template <class V>
void describe(V& v, const Sample& s) {
    v.field("line", s.line,
            {.description = "Present when known.", .presence = Presence::kWhenPresent});
    v.field("op", s.op);
    v.field("shade", s.shade, {.allowed_values = kColourNames});
    v.field("params", s.params, {.description = "The numbers, by name."});
    v.field("colour", std::string(colour_name(s.colour)), {.allowed_values = kColourNames});
    v.fields_when(!s.samples.empty(), [&] {
        v.field("samples", s.samples);
        v.field("sample_count", s.samples.size());
    });
}

// An object that never has other fields, with bounds its types cannot say.
struct Batch {
    std::vector<std::int64_t> items{};  // at most 2
    std::int64_t dropped = 0;           // never negative
};

template <class V>
void describe(V& v, const Batch& b) {
    v.no_other_fields();
    v.field("items", b.items, {.max_items = 2});
    v.field("dropped", b.dropped, {.minimum = 0});
}

}  // namespace shape_test

namespace {

using causeway::report::output_schema;
using causeway::report::write_json;
using causeway::server::schema_violation;
using nlohmann::json;
using shape_test::Sample;

// The schema as the server reads it.
json schema_of_sample() {
    return json(output_schema<Sample>());
}

TEST_CASE("enum_names lists an enum's names by its name function", "[report][shape]") {
    CHECK(std::vector<std::string>(shape_test::kColourNames.begin(),
                                   shape_test::kColourNames.end()) ==
          std::vector<std::string>{"red", "green", "blue"});
}

TEST_CASE("a field present only when set is left out when absent, not null", "[report][shape]") {
    const json absent = write_json(Sample{});
    CHECK_FALSE(absent.contains("line"));
    CHECK(absent["op"].is_null());  // an ordinary optional is null
    CHECK_FALSE(absent.contains("samples"));
    CHECK_FALSE(absent.contains("sample_count"));

    const json present = write_json(Sample{.line = shape_test::Line{"train.py", 57}});
    CHECK(present["line"] == json{{"file", "train.py"}, {"line", 57}});

    const json schema = schema_of_sample();
    CHECK(schema["properties"]["line"]["type"] == "object");  // never null where present
    CHECK(schema["properties"]["line"]["description"] == "Present when known.");
    CHECK(schema["properties"]["op"]["type"] == json{"string", "null"});
    const auto& required = schema["required"];
    CHECK(std::find(required.begin(), required.end(), "line") == required.end());
    CHECK(std::find(required.begin(), required.end(), "op") != required.end());
    CHECK(schema_violation(schema, absent) == "");
    CHECK(schema_violation(schema, present) == "");
}

TEST_CASE("named numbers are an object of numbers, counts written as integers", "[report][shape]") {
    const json written =
        write_json(Sample{.params = {{"workers", std::int64_t{4}}, {"share", 0.25}}});
    CHECK(written["params"]["workers"].is_number_integer());
    CHECK(written["params"]["workers"] == 4);
    CHECK(written["params"]["share"] == 0.25);
    CHECK(write_json(Sample{})["params"] == json::object());

    // (server/tools/schema_check.hpp, which checks tools' arguments, reads additionalProperties
    // only as true/false: the MCP SDK tests check these answers against the schema.)
    CHECK(output_schema<Sample>()["properties"]["params"].dump() ==
          R"({"type":"object","additionalProperties":{"type":"number"},)"
          R"("description":"The numbers, by name."})");
}

TEST_CASE("an enum-valued field lists its names, a nullable one null too", "[report][shape]") {
    const json schema = schema_of_sample();
    CHECK(schema["properties"]["colour"]["enum"] == json{"red", "green", "blue"});
    CHECK(schema["properties"]["shade"]["enum"] == json{"red", "green", "blue", nullptr});

    json written = write_json(Sample{.shade = "blue", .colour = shape_test::Colour::kGreen});
    CHECK(written["colour"] == "green");
    CHECK(schema_violation(schema, written) == "");
    CHECK(schema_violation(schema, write_json(Sample{})) == "");
    written["colour"] = "purple";
    CHECK(schema_violation(schema, written) != "");
}

TEST_CASE("fields that come and go together are written together, none required",
          "[report][shape]") {
    const json written = write_json(Sample{.samples = {3, 5}});
    CHECK(written["samples"] == json{3, 5});
    CHECK(written["sample_count"] == 2);

    const json schema = schema_of_sample();
    CHECK(schema["properties"].contains("samples"));
    CHECK(schema["properties"].contains("sample_count"));
    const auto& required = schema["required"];
    CHECK(std::find(required.begin(), required.end(), "samples") == required.end());
    CHECK(std::find(required.begin(), required.end(), "sample_count") == required.end());
    CHECK(schema_violation(schema, written) == "");
}

TEST_CASE("an object with no other fields, a list's most items and a number's least value",
          "[report][shape]") {
    using shape_test::Batch;
    const json schema = json(output_schema<Batch>());
    CHECK(schema["additionalProperties"] == false);
    CHECK(schema["properties"]["items"]["maxItems"] == 2);
    CHECK(schema["properties"]["dropped"]["minimum"] == 0);
    CHECK_FALSE(schema_of_sample().contains("additionalProperties"));  // open unless it says

    json written = write_json(Batch{.items = {1, 2}, .dropped = 0});
    CHECK(written == json{{"items", {1, 2}}, {"dropped", 0}});
    CHECK(schema_violation(schema, written) == "");

    json other_field = written;
    other_field["extra"] = 1;
    CHECK(schema_violation(schema, other_field) != "");
    CHECK(schema_violation(schema, write_json(Batch{.items = {1, 2, 3}})) != "");
    CHECK(schema_violation(schema, write_json(Batch{.dropped = -1})) != "");
}

}  // namespace
