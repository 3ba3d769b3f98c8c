#include "tracedb/schema.hpp"

namespace causeway::tracedb {

namespace {
#include "trace_schema.inc"
}  // namespace

std::string_view schema_sql() {
    return kTraceSchemaSql;
}

}  // namespace causeway::tracedb
