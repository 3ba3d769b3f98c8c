#pragma once
// The shape of run_sql (SqlAnswer).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include <type_traits>

#include "analysis/sql/readonly_sql.hpp"
#include "report/shapes/shared.hpp"
#include "report/tool_answers.hpp"

namespace causeway::analysis {

// An SQL cell: its value as it is, a blob by its size.
inline nlohmann::json value_json(const SqlValue& value) {
    return std::visit(
        [](const auto& v) -> nlohmann::json {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, SqlBlob>) {
                return {{"blob_bytes", v.bytes}};
            } else {
                return nlohmann::json(v);
            }
        },
        value);
}
inline nlohmann::ordered_json value_schema(report::ShapeOf<SqlValue> /*shape*/) {
    return {{"description",
             "A value: null, integer, number, string (untrusted, sanitised) or {blob_bytes}."},
            {"type", {"null", "integer", "number", "string", "object"}}};
}

// No object description of its own: run_sql's answer inlines these fields.
template <class V>
void describe(V& v, const SqlResult& r) {
    v.field("columns", r.columns);
    v.field("rows", r.rows, {.description = "At most `limit` rows."});
    v.field("row_count", r.rows.size());
    v.field("truncated", r.truncated);
    v.field("elapsed_ns", r.elapsed_ns);
}

}  // namespace causeway::analysis

namespace causeway::report {

template <class V>
void describe(V& v, const SqlAnswer& answer) {
    v.object_description("Query result.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    describe(v, answer.result);
    v.field("offset", answer.offset);
    v.field("next_offset", answer.next_offset);
    v.field("note", answer.note, {.description = kNoteDescription});
}

}  // namespace causeway::report
