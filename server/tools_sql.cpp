// run_sql: one read-only SQL query over the trace DB, protected by the engine (see
// analysis/readonly_sql.hpp), paged with limit and offset.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/readonly_sql.hpp"
#include "server/analysis_json.hpp"
#include "server/sanitize.hpp"
#include "server/tool_runner.hpp"
#include "server/tool_schemas.hpp"
#include "server/tools.hpp"

namespace causeway::server {
namespace {

// A query from a model must not hold the server: it is stopped after this.
constexpr std::chrono::milliseconds kQueryTimeLimit{2000};

const json& input_schema() {
    static const json schema = tool_schema("run_sql.input.json");
    return schema;
}

Result<json> compute(const TraceTarget& target, const std::string& sql, std::size_t offset,
                     std::size_t limit) {
    auto result = analysis::run_readonly_sql(
        target.trace->path(), sql, {.max_rows = offset + limit, .time_limit = kQueryTimeLimit});
    if (!result) {
        return Error{result.error().message +
                     " (the schema is the resource causeway://schema/trace.sql)"};
    }
    auto& rows = result->rows;
    rows.erase(rows.begin(),
               rows.begin() + static_cast<std::ptrdiff_t>(std::min(offset, rows.size())));
    json answer = to_json(result.value());
    answer["offset"] = offset;
    answer["next_offset"] = result->truncated ? json(offset + rows.size()) : json(nullptr);
    answer["note"] = result->truncated
                         ? fmt::format(
                               "more rows than shown; pass offset {} for the next page, or "
                               "aggregate in SQL",
                               offset + rows.size())
                         : std::string();
    return answer;
}

std::string render(const json& answer) {
    std::string text =
        fmt::format("{}\n", fmt::join(answer["columns"].get<std::vector<std::string>>(), " | "));
    for (const auto& row : answer["rows"]) {
        std::vector<std::string> cells;
        for (const auto& cell : row) {
            cells.push_back(cell.is_string() ? cell.get<std::string>() : to_wire(cell));
        }
        text += fmt::format("{}\n", fmt::join(cells, " | "));
    }
    text += fmt::format("({} rows)\n", answer["row_count"].get<std::int64_t>());
    if (!answer["note"].get<std::string>().empty()) {
        text += "Note: " + answer["note"].get<std::string>() + "\n";
    }
    return text;
}

}  // namespace

ToolSpec make_run_sql_tool() {
    return ToolSpec{
        "run_sql",
        "Read-only SQL over the trace",
        "Runs one read-only SQL statement (SELECT, WITH, read-only PRAGMA) over the trace DB "
        "and returns columns and rows (`limit` rows from `offset`). Read-only at the engine "
        "level, stopped after 2 s. Timestamps and durations are ns since the start of recording; "
        "the tables and columns are documented in the resource causeway://schema/trace.sql. "
        "Prefer the other tools; use this for precise questions they do not answer." +
            std::string(kUntrustedStringsSentence),
        input_schema(),
        tool_schema("run_sql.output.json"),
        [](const json& arguments, const TraceSet& traces, ToolContext& context) {
            const auto limit =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "limit"));
            const auto offset =
                static_cast<std::size_t>(integer_argument(arguments, input_schema(), "offset"));
            const std::string sql = arguments["sql"].get<std::string>();
            return answer_trace_question(
                {"run_sql",
                 [sql, offset, limit](const TraceTarget& target, const analysis::TraceFilter&) {
                     return compute(target, sql, offset, limit);
                 },
                 render},
                arguments, traces, context);
        }};
}

}  // namespace causeway::server
