// causeway query: one read-only SQL query against a trace, protected by the engine (see
// analysis/sql/readonly_sql.hpp); an aligned table for a person, JSON for programs.
#include <cstdio>
#include <iostream>
#include <limits>
#include <variant>

#include "analysis/sql/readonly_sql.hpp"
#include "cli/commands.hpp"
#include "report/analysis_json.hpp"
#include "report/sql_text.hpp"

namespace causeway::cli {
namespace {

struct QueryOptions {
    std::string db;
    std::string sql;
    bool json = false;
    std::size_t max_rows = 1000;
    double timeout_s = 10;
};

int run_query(const QueryOptions& options) {
    analysis::SqlLimits limits;
    limits.max_rows = options.max_rows;
    // A person asked for these rows on their own terminal: texts whole (up to the value cap),
    // rows up to --max-rows; the cuts are for answers sent to a model.
    limits.max_text_bytes = static_cast<std::size_t>(limits.max_value_bytes);
    limits.max_result_bytes = std::numeric_limits<std::size_t>::max();
    limits.time_limit =
        std::chrono::milliseconds(static_cast<std::int64_t>(options.timeout_s * 1000));
    auto result = analysis::run_readonly_sql(options.db, options.sql, limits);
    if (!result) {
        std::fprintf(stderr, "causeway query: %s\n", result.error().message.c_str());
        return 2;
    }
    if (options.json) {
        std::cout << report::json_text(report::to_json(*result)) << "\n";
    } else {
        std::cout << report::render_sql_table(*result);
    }
    return 0;
}

}  // namespace

void add_query_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<QueryOptions>();
    CLI::App* command = app.add_subcommand(
        "query", "run one read-only SQL query on a trace (schemas/trace.sql lists the tables)");
    command->add_option("--db", options->db, "trace DB")->required();
    command->add_option("sql", options->sql, "one SELECT statement")->required();
    command->add_flag("--json", options->json, "print one JSON object instead of a table");
    command->add_option("--max-rows", options->max_rows, "rows to print at most (default 1000)")
        ->check(CLI::Range(1, 1'000'000));
    command->add_option("--timeout", options->timeout_s, "seconds before the query is stopped")
        ->check(CLI::Range(0.01, 3600.0));
    command->callback([options, &exit_code] { exit_code = run_query(*options); });
}

}  // namespace causeway::cli
