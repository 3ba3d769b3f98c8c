#pragma once
// The options every analysis command shares (--db, --window, --pid), and turning them into a
// loaded trace and a checked filter, with errors that say what to do.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "analysis/trace_filter.hpp"
#include "analysis/trace_model.hpp"
#include "tracedb/result.hpp"

namespace causeway::cli {

struct TraceInputOptions {
    std::string db;
    std::string window;  // "A..B"; empty: the whole trace
    std::optional<std::int64_t> pid;
};

// Adds --db (required), --window and --pid to `command`.
void add_trace_input_options(CLI::App& command, TraceInputOptions& options);

struct TraceInput {
    analysis::TraceModel model;
    analysis::TraceFilter filter;
};

// Opens the DB read-only, loads it and checks the filter against it.
Result<TraceInput> load_trace_input(const TraceInputOptions& options);

}  // namespace causeway::cli
