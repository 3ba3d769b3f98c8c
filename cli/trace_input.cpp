#include "cli/trace_input.hpp"

#include "tracedb/reader.hpp"

namespace causeway::cli {

void add_trace_input_options(CLI::App& command, TraceInputOptions& options) {
    command.add_option("--db", options.db, "trace DB recorded by causeway-collector")->required();
    command.add_option("--window", options.window,
                       "time window since the start of recording, A..B (e.g. 10s..20s, 2.5s..)");
    command.add_option("--pid", options.pid, "only this process (kernel pid)");
}

Result<TraceInput> load_trace_input(const TraceInputOptions& options) {
    auto reader = tracedb::TraceReader::open(options.db);
    if (!reader) {
        return reader.error();
    }
    auto model = analysis::load_trace(*reader);
    if (!model) {
        return model.error();
    }
    TraceInput input{std::move(model).value(), {}};
    input.filter.pid = options.pid;
    if (!options.window.empty()) {
        auto window = analysis::parse_window(options.window, input.model.end_ns());
        if (!window) {
            return Error{"--window: " + window.error().message};
        }
        input.filter.window = *window;
    }
    if (auto valid = analysis::validate_filter(input.model, input.filter); !valid) {
        return valid.error();
    }
    return input;
}

}  // namespace causeway::cli
