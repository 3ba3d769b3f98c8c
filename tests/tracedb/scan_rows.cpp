#include "tests/tracedb/scan_rows.hpp"

#include <climits>

namespace causeway::testing {

tracedb::ScanResult<Rows> rows_from_pages(const tracedb::BtreeTableScan& scan, int columns) {
    Rows rows;
    tracedb::BtreeTableScan::Buffer buffer;
    std::vector<tracedb::BtreeTableScan::Row> leaf_rows;
    for (std::size_t leaf = 0; leaf < scan.leaves().size(); ++leaf) {
        if (auto status = scan.read_leaf(leaf, buffer, leaf_rows); !status) {
            return status.error();
        }
        for (const auto& r : leaf_rows) {
            std::vector<std::int64_t> row{r.rowid};
            for (int column = 0; column < columns; ++column) {
                bool null = r.is_null(column);
                row.push_back(null ? -1 : r.columns[static_cast<std::size_t>(column)]);
                row.push_back(null ? 1 : 0);
            }
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::optional<Rows> rows_with_sql(const tracedb::Database& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    if (!stmt) {
        return std::nullopt;
    }
    int columns = sqlite3_column_count(stmt->get());
    Rows rows;
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        std::vector<std::int64_t> row{stmt->column_int64(0)};
        for (int column = 1; column < columns; ++column) {
            bool null = stmt->column_is_null(column);
            row.push_back(null ? -1 : stmt->column_int64(column));
            row.push_back(null ? 1 : 0);
        }
        rows.push_back(std::move(row));
    }
    return rc == SQLITE_DONE ? std::optional(std::move(rows)) : std::nullopt;
}

std::int64_t wide_value(std::int64_t i) {
    static constexpr std::int64_t kValues[] = {0,          1,
                                               -1,         127,
                                               -129,       40'000,
                                               -8'000'000, 2'000'000'000,
                                               1LL << 40,  -(1LL << 47),
                                               1LL << 62,  INT64_MIN};
    return kValues[static_cast<std::uint64_t>(i) % 12];
}

std::string first_difference(const Rows& pages, const Rows& sql) {
    for (std::size_t i = 0; i < pages.size() && i < sql.size(); ++i) {
        if (pages[i] != sql[i]) {
            return "row " + std::to_string(i) + " (rowid " + std::to_string(pages[i].front()) +
                   " from the pages, " + std::to_string(sql[i].front()) + " from SQL) differs";
        }
    }
    if (pages.size() != sql.size()) {
        return std::to_string(pages.size()) + " rows from the pages, " +
               std::to_string(sql.size()) + " from SQL";
    }
    return {};
}

}  // namespace causeway::testing
