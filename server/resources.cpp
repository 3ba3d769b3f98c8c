#include "server/resources.hpp"

#include "server/sanitize.hpp"
#include "server/tools.hpp"
#include "tracedb/schema.hpp"

namespace causeway::server {

std::vector<ResourceSpec> make_resources() {
    ResourceSpec schema{
        "causeway://schema/trace.sql",
        "trace-schema",
        "Trace DB schema",
        "schemas/trace.sql: every table and column of a Causeway trace DB with its unit and what "
        "NULL means. Read it before writing run_sql queries.",
        "application/sql",
        [](const Trace*) -> Result<ResourceContent> {
            return ResourceContent{"application/sql", std::string(tracedb::schema_sql())};
        }};
    ResourceSpec summary{
        "causeway://traces/{trace}/summary",
        "trace-summary",
        "Trace summary",
        "The statistics of one trace as JSON (what get_trace_stats returns without arguments): "
        "session, time range, CUDA operations by total time, host summary, data quality.",
        "application/json",
        [](const Trace* trace) -> Result<ResourceContent> {
            auto stats = trace_summary(*trace);
            if (!stats) {
                return stats.error();
            }
            sanitize_strings(stats.value());
            return ResourceContent{"application/json", to_wire(stats.value())};
        }};
    return {std::move(schema), std::move(summary)};
}

}  // namespace causeway::server
