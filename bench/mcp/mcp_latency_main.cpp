// causeway-bench-mcp: starts `causeway mcp --db DB` on stdio, lists its tools and calls each one
// repeatedly, timing request to response. Prints one key=value line per tool with p50/p99/max
// latency in ms and how many calls came back as errors (isError or a JSON-RPC error).
// With --first-calls it times instead what an assistant meets on a server it has just started
// (the server loads and diagnoses its trace from its start): run_sql at once, then
// get_causal_chains, timed from the server's start, then get_causal_chains with other arguments
// (not an answer already given), and prints one key=value line.
#include <nlohmann/json.hpp>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/clocks.hpp"
#include "bench/mcp/child_process.hpp"

namespace {

using causeway::bench::ChildProcess;
using nlohmann::json;

// The SQL given to tools that take one: a full pass over the largest table.
constexpr char kBenchSql[] = "SELECT op_id, count(*), sum(dur_ns) FROM cuda_call GROUP BY op_id";

class McpClient {
  public:
    explicit McpClient(ChildProcess child) : child_(std::move(child)) {}

    // Sends a request and returns its response, skipping notifications the server sends first.
    causeway::Result<json> request(const std::string& method, const json& params) {
        const int id = ++last_id_;
        json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
        if (auto status = child_.write_line(message.dump()); !status) {
            return status.error();
        }
        while (auto line = child_.read_line()) {
            json response = json::parse(*line, nullptr, false);
            if (response.is_discarded()) {
                return causeway::Error{"the server wrote a line that is not JSON: " + *line};
            }
            if (response.contains("id") && response["id"] == id) {
                return response;
            }
        }
        return causeway::Error{"the server closed its stdout while answering " + method};
    }

    causeway::Status notify(const std::string& method) {
        return child_.write_line(json{{"jsonrpc", "2.0"}, {"method", method}}.dump());
    }

  private:
    ChildProcess child_;
    int last_id_ = 0;
};

// Arguments for a tool: its required properties filled in, or an error naming the one we
// cannot fill. A tool that names traces (compare_traces' before and after) gets the one served,
// `trace`: the trace against itself.
causeway::Result<json> arguments_for(const json& tool, const std::string& trace) {
    json arguments = json::object();
    const json schema = tool.value("inputSchema", json::object());
    for (const auto& name : schema.value("required", json::array())) {
        const std::string key = name.get<std::string>();
        if (key.find("sql") != std::string::npos || key.find("query") != std::string::npos) {
            arguments[key] = kBenchSql;
        } else if (key == "before" || key == "after") {
            arguments[key] = trace;
        } else {
            return causeway::Error{"tool " + tool.value("name", "?") + " requires argument '" +
                                   key + "' which the benchmark does not know how to fill"};
        }
    }
    return arguments;
}

// Nearest-rank percentile of sorted samples.
double percentile(const std::vector<double>& sorted, double p) {
    auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

bool is_error(const json& response) {
    return response.contains("error") ||
           (response.contains("result") && response["result"].value("isError", false));
}

double ms_since(std::int64_t begin_ns) {
    return static_cast<double>(causeway::bench::monotonic_ns() - begin_ns) / 1e6;
}

// The --first-calls figures of a server started at `start_ns`; 1 when a call fails.
int time_first_calls(McpClient& client, std::int64_t start_ns) {
    const std::vector<std::pair<const char*, json>> calls = {
        {"run_sql", {{"sql", "SELECT count(*) FROM thread"}}},
        {"get_causal_chains", json::object()},
        {"get_causal_chains", {{"limit", 3}}}};
    std::vector<double> ms;
    for (const auto& [tool, arguments] : calls) {
        const std::int64_t begin_ns = causeway::bench::monotonic_ns();
        auto response = client.request("tools/call", {{"name", tool}, {"arguments", arguments}});
        if (!response || is_error(*response)) {
            std::fprintf(stderr, "causeway-bench-mcp: %s failed: %s\n", tool,
                         response ? response->dump().substr(0, 300).c_str()
                                  : response.error().message.c_str());
            return 1;
        }
        ms.push_back(ms_since(begin_ns));
    }
    std::printf(
        "first_run_sql_ms=%.2f start_to_chains_ms=%.2f chains_ms=%.2f next_chains_ms=%.2f\n", ms[0],
        ms_since(start_ns) - ms[2], ms[1], ms[2]);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Time every MCP tool of `causeway mcp` over stdio"};
    std::string causeway = "causeway";
    std::string db;
    int repeat = 50;
    app.add_option("--causeway", causeway, "the causeway binary");
    app.add_option("--db", db, "trace DB to serve")->required()->check(CLI::ExistingFile);
    app.add_option("--repeat", repeat, "timed calls per tool")->check(CLI::PositiveNumber);
    bool first_calls = false;
    app.add_flag("--first-calls", first_calls,
                 "time run_sql and get_causal_chains on a server just started instead");
    CLI11_PARSE(app, argc, argv);

    const std::int64_t start_ns = causeway::bench::monotonic_ns();
    auto child = ChildProcess::spawn({causeway, "mcp", "--db", db});
    if (!child) {
        std::fprintf(stderr, "causeway-bench-mcp: %s\n", child.error().message.c_str());
        return 1;
    }
    McpClient client(std::move(child.value()));
    auto init = client.request("initialize",
                               {{"protocolVersion", "2025-06-18"},
                                {"capabilities", json::object()},
                                {"clientInfo", {{"name", "causeway-bench"}, {"version", "1"}}}});
    if (!init || is_error(*init) || !client.notify("notifications/initialized")) {
        std::fprintf(stderr, "causeway-bench-mcp: initialize failed: %s\n",
                     init ? init->dump().c_str() : init.error().message.c_str());
        return 1;
    }
    if (first_calls) {
        return time_first_calls(client, start_ns);
    }
    auto listed = client.request("tools/list", json::object());
    if (!listed || is_error(*listed)) {
        std::fprintf(stderr, "causeway-bench-mcp: tools/list failed: %s\n",
                     listed ? listed->dump().c_str() : listed.error().message.c_str());
        return 1;
    }
    int failures = 0;
    for (const auto& tool : (*listed)["result"]["tools"]) {
        const std::string name = tool.value("name", "");
        auto arguments = arguments_for(tool, std::filesystem::path(db).stem().string());
        if (!arguments) {
            std::fprintf(stderr, "causeway-bench-mcp: %s\n", arguments.error().message.c_str());
            ++failures;
            continue;
        }
        const json params = {{"name", name}, {"arguments", *arguments}};
        std::vector<double> latencies_ms;
        double first_ms = 0;  // the untimed warm-up call: a cold server computes here
        int errors = 0;
        std::string first_error;
        for (int i = 0; i <= repeat; ++i) {  // call 0 is an untimed warm-up
            const std::int64_t begin_ns = causeway::bench::monotonic_ns();
            auto response = client.request("tools/call", params);
            const double ms = ms_since(begin_ns);
            if (!response) {
                std::fprintf(stderr, "causeway-bench-mcp: %s\n", response.error().message.c_str());
                return 1;
            }
            if (is_error(*response)) {
                ++errors;
                first_error = first_error.empty() ? response->dump().substr(0, 300) : first_error;
            }
            if (i > 0) {
                latencies_ms.push_back(ms);
            } else {
                first_ms = ms;
            }
        }
        std::sort(latencies_ms.begin(), latencies_ms.end());
        std::printf(
            "tool=%s calls=%d first_ms=%.2f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f errors=%d\n",
            name.c_str(), repeat, first_ms, percentile(latencies_ms, 0.50),
            percentile(latencies_ms, 0.99), latencies_ms.back(), errors);
        if (errors > 0) {
            std::fprintf(stderr, "causeway-bench-mcp: %s answered with an error: %s\n",
                         name.c_str(), first_error.c_str());
            ++failures;
        }
    }
    return failures == 0 ? 0 : 2;
}
