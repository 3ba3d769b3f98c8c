#pragma once
// `causeway query` for a person: the rows as an aligned table, numbers right-aligned.

#include <string>

#include "analysis/sql/readonly_sql.hpp"

namespace causeway::report {

std::string render_sql_table(const analysis::SqlResult& result);

}  // namespace causeway::report
