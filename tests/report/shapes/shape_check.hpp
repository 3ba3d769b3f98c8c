#pragma once
// For the tests that include one report/shapes/ header alone (one per translation unit): T's
// JSON and output schema are written, and every field the JSON has is one the schema lists.
#include <catch2/catch.hpp>

#include "report/output_shape.hpp"

namespace causeway::testing {

template <class T>
void check_shape_written_alone() {
    const auto schema = report::output_schema<T>();
    REQUIRE(schema.at("type") == "object");
    const auto json = report::write_json(T{});
    for (const auto& [name, value] : json.items()) {
        CHECK(schema.at("properties").contains(name));
    }
}

}  // namespace causeway::testing
