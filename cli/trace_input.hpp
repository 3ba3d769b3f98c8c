#pragma once
// The options every analysis command shares (--db or --clickhouse/--job/--node, --window, --pid),
// and turning them into a loaded trace and a checked filter, with errors that say what to do.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"
#include "base/result.hpp"

namespace causeway::cli {

struct TraceInputOptions {
    std::string db;
    // A node stored in ClickHouse by `causeway push`, instead of --db: copied into a temporary
    // trace DB (fleet/materialise.hpp), loaded, and the copy removed.
    std::string clickhouse;
    std::string job;
    std::string node;
    std::string window;  // "A..B"; empty: the whole trace
    std::optional<std::int64_t> pid;
};

// Adds --db (or --clickhouse, --job and --node), --window and --pid to `command`.
void add_trace_input_options(CLI::App& command, TraceInputOptions& options);

// What the trace is, for the header of a text answer: the DB path, or "node N of job J in
// ClickHouse at URL".
std::string trace_label(const TraceInputOptions& options);

struct TraceInput {
    analysis::TraceModel model;
    analysis::TraceFilter filter;
};

// Opens the DB read-only (or copies the node out of ClickHouse), loads it and checks the filter
// against it.
Result<TraceInput> load_trace_input(const TraceInputOptions& options);

}  // namespace causeway::cli
