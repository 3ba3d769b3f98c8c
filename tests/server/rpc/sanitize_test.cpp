// Strings from the traced system lose control and bidi characters, invalid UTF-8 and excess
// length before a model sees them; tool arguments are checked against their input schema.
#include <catch2/catch.hpp>

#include "server/rpc/sanitize.hpp"
#include "server/tools/schema_check.hpp"

using causeway::server::sanitize_strings;
using causeway::server::sanitize_untrusted;
using causeway::server::schema_violation;
using nlohmann::json;

TEST_CASE("control, bidi and zero-width characters are stripped, tabs and newlines become spaces") {
    CHECK(sanitize_untrusted("pt_data_worker") == "pt_data_worker");
    CHECK(sanitize_untrusted("evil\u202Egnp.exe") == "evilgnp.exe");
    CHECK(sanitize_untrusted("a\x07\x1b[31mb") == "a[31mb");
    CHECK(sanitize_untrusted("line1\nline2\tx") == "line1 line2 x");
    CHECK(sanitize_untrusted("zero\u200Bwidth\u2066iso\u2069") == "zerowidthiso");
    CHECK(sanitize_untrusted("caf\u00e9 \u4e2d") == "caf\u00e9 \u4e2d");
}

TEST_CASE("invalid UTF-8 becomes U+FFFD and long strings are capped with an ellipsis") {
    CHECK(sanitize_untrusted("a\xff"
                             "b") ==
          "a\uFFFD"
          "b");
    CHECK(sanitize_untrusted("\xc3") == "\uFFFD");
    CHECK(sanitize_untrusted("\xed\xa0\x80") == "\uFFFD\uFFFD\uFFFD");  // a UTF-16 surrogate
    std::string capped = sanitize_untrusted(std::string(5000, 'x'), 100);
    CHECK(capped == std::string(100, 'x') + "\u2026");
}

TEST_CASE("every string value of a JSON tree is sanitised, keys are kept") {
    json tree{{"comm", "x\u202Ey"}, {"list", {"ok", "bad\x01"}}, {"n", 3}};
    sanitize_strings(tree);
    CHECK(tree == json{{"comm", "xy"}, {"list", {"ok", "bad"}}, {"n", 3}});
}

TEST_CASE("tool arguments are checked against the input schema with a message per rule") {
    const json schema{{"type", "object"},
                      {"properties",
                       {{"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 50}}},
                        {"sql", {{"type", "string"}, {"minLength", 1}, {"maxLength", 10}}},
                        {"kind", {{"type", "string"}, {"enum", {"a", "b"}}}}}},
                      {"required", {"sql"}},
                      {"additionalProperties", false}};
    CHECK(schema_violation(schema, {{"sql", "SELECT 1"}}).empty());
    CHECK(schema_violation(schema, {{"sql", "x"}, {"limit", 3.0}}).empty());
    CHECK(schema_violation(schema, json::object()) == "argument 'sql' is required");
    CHECK(schema_violation(schema, {{"sql", "x"}, {"limit", 2.5}}).find("integer") !=
          std::string::npos);
    CHECK(schema_violation(schema, {{"sql", "x"}, {"limit", 51}}) ==
          "argument 'limit' must be at most 50 (got 51)");
    CHECK(schema_violation(schema, {{"sql", ""}}).find("at least 1") != std::string::npos);
    CHECK(schema_violation(schema, {{"sql", "01234567890"}}).find("at most 10") !=
          std::string::npos);
    CHECK(schema_violation(schema, {{"sql", "x"}, {"kind", "c"}}).find("one of") !=
          std::string::npos);
    CHECK(schema_violation(schema, {{"sql", "x"}, {"other", 1}}).find("not known") !=
          std::string::npos);
    CHECK(schema_violation(schema, json::array()) ==
          "arguments must be of type object (got array)");
    CHECK(schema_violation(schema, {{"sql", "x"}, {"limit", 1e300}}).find("integer") !=
          std::string::npos);
}
