#include "report/sql_text.hpp"

#include <cstdio>
#include <variant>

#include "report/terminal_style.hpp"
#include "report/text_table.hpp"

namespace causeway::report {
namespace {

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
                return printable(v);
            } else {
                return "<blob " + std::to_string(v.bytes) + " bytes>";
            }
        },
        value);
}

}  // namespace

std::string render_sql_table(const analysis::SqlResult& result) {
    std::vector<TextTable::Align> align;
    for (std::size_t c = 0; c < result.columns.size(); ++c) {
        bool numeric =
            !result.rows.empty() && (std::holds_alternative<std::int64_t>(result.rows[0][c]) ||
                                     std::holds_alternative<double>(result.rows[0][c]));
        align.push_back(numeric ? TextTable::Align::kRight : TextTable::Align::kLeft);
    }
    TextTable table(result.columns, align);
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

}  // namespace causeway::report
