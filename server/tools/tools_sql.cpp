// run_sql: one read-only SQL query over the trace DB, protected by the engine (see
// analysis/sql/readonly_sql.hpp), paged with limit and offset.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/sql/readonly_sql.hpp"
#include "report/shapes/sql.hpp"
#include "server/rpc/sanitize.hpp"
#include "server/tools/tool_runner.hpp"
#include "server/tools/tools.hpp"

namespace causeway::server {
namespace {

// A query from a model must not hold the server: it is stopped after this, or sooner when the
// batch it came in has less time left.
constexpr std::chrono::milliseconds kQueryTimeLimit{2000};
// Text copied out of SQLite per value: a little more than the sanitiser keeps, so that it still
// sees that a value was longer and marks the cut.
constexpr std::size_t kMaxTextBytes = kMaxUntrustedStringBytes + 4;
// Text copied out in all rows: the answer holds it twice (structured and rendered) and must stay
// under the answer limit of tools/call; later rows are left for the next page.
constexpr std::size_t kMaxResultBytes = 24 * 1024;

// The query's time: its own limit, or what the batch has left (rounded up, so a query never
// stops before the batch's deadline and leaves a sliver to the next request).
std::chrono::milliseconds time_limit(std::chrono::steady_clock::time_point deadline) {
    const auto now = std::chrono::steady_clock::now();
    if (deadline - now >= kQueryTimeLimit) {
        return kQueryTimeLimit;
    }
    return std::max(std::chrono::ceil<std::chrono::milliseconds>(deadline - now),
                    std::chrono::milliseconds{1});
}

struct SqlInput {
    TraceArguments trace{};
    std::string sql{};
    std::int64_t limit = 100;
    std::int64_t offset = 0;
};

template <class V>
void describe(V& v, SqlInput& in) {
    describe(v, in.trace);
    v.field("sql", in.sql,
            {.description = "One read-only SQL statement (SELECT / WITH / read-only PRAGMA) over "
                            "the trace DB; the schema is the resource causeway://schema/trace.sql.",
             .min_length = 1,
             .max_length = 8000});
    v.field("limit", in.limit,
            {.description = "Most rows returned (default 100, at most 500).",
             .minimum = 1,
             .maximum = 500});
    v.field("offset", in.offset,
            {.description = kOffsetDescription, .minimum = 0, .maximum = 10'000});
}

Result<ToolAnswer> compute(const Trace& trace, const std::string& sql, std::size_t offset,
                           std::size_t limit, std::chrono::milliseconds query_time_limit) {
    auto result = analysis::run_readonly_sql(trace.path(), sql,
                                             {.skip_rows = offset,
                                              .max_rows = limit,
                                              .time_limit = query_time_limit,
                                              .max_text_bytes = kMaxTextBytes,
                                              .max_result_bytes = kMaxResultBytes});
    if (!result) {
        return Error{result.error().message +
                     " (the schema is the resource causeway://schema/trace.sql)"};
    }
    const std::size_t next = offset + result->rows.size();
    std::vector<std::string> notes;
    if (result->truncated) {
        notes.push_back(fmt::format(
            "more rows than shown; pass offset {} for the next page, or aggregate in SQL", next));
    }
    if (result->cut_values > 0) {
        notes.push_back(fmt::format(
            "text values longer than {0} bytes are cut and end in …; select substr(x, {1}, {0}) "
            "to read further",
            kMaxUntrustedStringBytes, kMaxUntrustedStringBytes + 1));
    }
    const bool truncated = result->truncated;
    return tool_answer(report::SqlAnswer{
        .trace = trace.name(),
        .result = std::move(result).value(),
        .offset = offset,
        .next_offset = truncated ? std::optional<std::size_t>(next) : std::nullopt,
        .note = fmt::format("{}", fmt::join(notes, "; "))});
}

}  // namespace

void add_run_sql_tool(ToolRegistry& tools) {
    tools.add_tool<SqlInput, report::SqlAnswer>(
        {.name = "run_sql",
         .title = "Read-only SQL over the trace",
         .description =
             "Runs one read-only SQL statement (SELECT, WITH, read-only PRAGMA) over the trace DB "
             "and returns columns and rows (`limit` rows from `offset`). Read-only at the engine "
             "level, stopped after 2 s. Timestamps and durations are ns since the start of "
             "recording; the tables and columns are documented in the resource "
             "causeway://schema/trace.sql. Prefer the other tools; use this for precise "
             "questions they do not answer." +
             std::string(kUntrustedStringsSentence)},
        [](const SqlInput& in, const ToolRequest& request) {
            const auto limit = static_cast<std::size_t>(in.limit);
            const auto offset = static_cast<std::size_t>(in.offset);
            const auto query_time_limit = time_limit(request.context.deadline());
            return answer_trace_db_question(
                request, in.trace,
                [sql = in.sql, offset, limit, query_time_limit](const Trace& trace) {
                    return compute(trace, sql, offset, limit, query_time_limit);
                });
        });
}

}  // namespace causeway::server
