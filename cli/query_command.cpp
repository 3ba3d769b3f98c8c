// causeway query: one read-only SQL query against a trace, protected by the engine (see
// analysis/readonly_sql.hpp); an aligned table for a person, JSON for programs.
#include <cstdio>
#include <iostream>
#include <limits>
#include <variant>

#include "analysis/readonly_sql.hpp"
#include "cli/commands.hpp"
#include "report/analysis_json.hpp"
#include "report/terminal_style.hpp"
#include "report/text_table.hpp"

namespace causeway::cli {
namespace {

struct QueryOptions {
    std::string db;
    std::string sql;
    bool json = false;
    std::size_t max_rows = 1000;
    double timeout_s = 10;
};

std::string cell_text(const analysis::SqlValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::nullptr_t>) {
                return "NULL";
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
                return std::to_string(v);
            } else if constexpr (std::is_same_v<T, double>) {
                char buffer[64];
                std::snprintf(buffer, sizeof buffer, "%.6g", v);
                return buffer;
            } else if constexpr (std::is_same_v<T, std::string>) {
                return report::printable(v);
            } else {
                return "<blob " + std::to_string(v.bytes) + " bytes>";
            }
        },
        value);
}

std::string render(const analysis::SqlResult& result) {
    std::vector<report::TextTable::Align> align;
    for (std::size_t c = 0; c < result.columns.size(); ++c) {
        bool numeric =
            !result.rows.empty() && (std::holds_alternative<std::int64_t>(result.rows[0][c]) ||
                                     std::holds_alternative<double>(result.rows[0][c]));
        align.push_back(numeric ? report::TextTable::Align::kRight
                                : report::TextTable::Align::kLeft);
    }
    report::TextTable table(result.columns, align);
    for (const auto& row : result.rows) {
        std::vector<std::string> cells;
        for (const auto& value : row) {
            cells.push_back(cell_text(value));
        }
        table.add_row(std::move(cells));
    }
    std::string out = table.render("");
    out += "(" + std::to_string(result.rows.size()) + " rows" +
           (result.truncated ? ", cut at the row limit: add LIMIT or --max-rows" : "") + ")\n";
    return out;
}

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
        std::cout << report::to_json(*result).dump(2) << "\n";
    } else {
        std::cout << render(*result);
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
