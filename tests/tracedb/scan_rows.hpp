#pragma once
// Rows of a table as the page reader and as SQL read them, in one comparable shape: per row its
// rowid, then per column its value (-1 when NULL) and a NULL flag.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tracedb/btree_scan.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::testing {

using Rows = std::vector<std::vector<std::int64_t>>;

// Every row of `scan`, leaf by leaf, with its first `columns` asked-for columns; the refusal
// when the page reader refuses.
tracedb::ScanResult<Rows> rows_from_pages(const tracedb::BtreeTableScan& scan, int columns);
// Every row `sql` returns (the rowid first, then the columns); empty when SQLite fails.
std::optional<Rows> rows_with_sql(const tracedb::Database& db, const std::string& sql);
// Values of every integer width SQLite stores (0 and 1 have serial types of their own) and both
// signs, by row number (any int64), so each serial type is decoded.
std::int64_t wide_value(std::int64_t i);

// "" when equal, else which row differs first (for a readable failure).
std::string first_difference(const Rows& pages, const Rows& sql);

}  // namespace causeway::testing
