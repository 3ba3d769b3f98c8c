#include "server/methods/resources.hpp"

#include "server/rpc/sanitize.hpp"
#include "server/tools/tools.hpp"
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
        [](const TraceSet&, const Trace*) -> Result<ResourceContent> {
            return ResourceContent{"application/sql", std::string(tracedb::schema_sql())};
        }};
    ResourceSpec summary{
        "causeway://traces/{trace}/summary",
        "trace-summary",
        "Trace summary",
        "The statistics of one trace as JSON (what get_trace_stats returns without arguments): "
        "session, time range, CUDA operations by total time, host summary, data quality.",
        "application/json",
        [](const TraceSet&, const Trace* trace) -> Result<ResourceContent> {
            auto stats = trace_summary(*trace);
            if (!stats) {
                return stats.error();
            }
            sanitize_strings(stats.value());
            return ResourceContent{"application/json", to_wire(stats.value())};
        }};
    ResourceSpec served{
        "causeway://traces",
        "served-traces",
        "Served traces",
        "The traces this server serves (the names tools take as their trace argument, with "
        "their files) and the *.db files of the served folders that were skipped, each with "
        "the reason (not SQLite, not a Causeway trace, a broken link).",
        "application/json",
        [](const TraceSet& traces, const Trace*) -> Result<ResourceContent> {
            json listing{{"traces", json::array()}, {"skipped", json::array()}};
            for (const auto& trace : traces.traces()) {
                listing["traces"].push_back({{"name", trace->name()}, {"path", trace->path()}});
            }
            for (const auto& file : traces.skipped()) {
                listing["skipped"].push_back({{"path", file.path}, {"reason", file.reason}});
            }
            sanitize_strings(listing);
            return ResourceContent{"application/json", to_wire(listing)};
        }};
    return {std::move(schema), std::move(served), std::move(summary)};
}

}  // namespace causeway::server
