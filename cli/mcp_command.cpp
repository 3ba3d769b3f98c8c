// causeway mcp: serves trace DBs to AI assistants over MCP (stdio by default, or Streamable HTTP).
#include <pthread.h>
#include <signal.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.hpp"
#include "cli/temp_folder.hpp"
#include "fleet/materialise.hpp"
#include "server/methods/catalog.hpp"
#include "server/rpc/dispatcher.hpp"
#include "server/tools/trace_set.hpp"
#include "server/transport/http_transport.hpp"
#include "server/transport/stdio_transport.hpp"

namespace causeway::cli {
namespace {

struct McpOptions {
    std::vector<std::string> dbs;
    std::string clickhouse;  // http://HOST:PORT of a ClickHouse that `causeway push` filled
    std::string http;        // HOST:PORT; empty: stdio
    std::string token_file;
    std::size_t max_body_bytes = 1024 * 1024;
};

std::string trim(std::string text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    const auto last = text.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// The bearer token: from --token-file, else CAUSEWAY_MCP_TOKEN, else none.
Result<std::optional<std::string>> bearer_token(const std::string& token_file) {
    if (!token_file.empty()) {
        std::ifstream in(token_file);
        if (!in) {
            return Error{fmt::format("cannot read --token-file {}", token_file)};
        }
        std::stringstream content;
        content << in.rdbuf();
        std::string token = trim(content.str());
        if (token.empty()) {
            return Error{fmt::format("--token-file {} is empty; put the token on its first line",
                                     token_file)};
        }
        return std::optional<std::string>(token);
    }
    if (const char* env = std::getenv("CAUSEWAY_MCP_TOKEN"); env != nullptr && *env != '\0') {
        return std::optional<std::string>(trim(env));
    }
    return std::optional<std::string>();
}

Result<server::HttpOptions> http_options(const McpOptions& options) {
    server::HttpOptions http;
    const auto colon = options.http.rfind(':');
    if (colon == std::string::npos || colon + 1 == options.http.size()) {
        return Error{
            fmt::format("--http wants HOST:PORT, e.g. 127.0.0.1:8787 (got '{}')", options.http)};
    }
    http.host = options.http.substr(0, colon);
    if (http.host.size() > 2 && http.host.front() == '[' && http.host.back() == ']') {
        http.host = http.host.substr(1, http.host.size() - 2);
    }
    const std::string port = options.http.substr(colon + 1);
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(port) > 65535) {
        return Error{fmt::format("--http port must be 0..65535 (got '{}')", port)};
    }
    http.port = std::stoi(port);
    auto token = bearer_token(options.token_file);
    if (!token) {
        return token.error();
    }
    http.bearer_token = token.value();
    http.max_body_bytes = options.max_body_bytes;
    return http;
}

bool is_loopback(const std::string& host) {
    return host == "127.0.0.1" || host == "localhost" || host == "::1";
}

// Serves HTTP until SIGINT or SIGTERM, which a dedicated thread waits for (a signal handler
// may not stop the server safely).
int serve_http(server::Dispatcher& dispatcher, const server::HttpOptions& options,
               const server::TraceSet& traces) {
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    server::HttpTransport transport(dispatcher, options);
    if (auto bound = transport.bind(); !bound) {
        std::fprintf(stderr, "causeway mcp: %s\n", bound.error().message.c_str());
        return 1;
    }
    if (!is_loopback(options.host) && !options.bearer_token) {
        std::fprintf(stderr,
                     "causeway mcp: warning: listening on %s without a bearer token; anyone "
                     "who can reach it can read the traces (set CAUSEWAY_MCP_TOKEN)\n",
                     options.host.c_str());
    }
    const std::string host =
        options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
    std::fprintf(stderr, "causeway mcp: serving %s on http://%s:%d/mcp (health: /health)%s\n",
                 fmt::format("{}", fmt::join(traces.names(), ", ")).c_str(), host.c_str(),
                 transport.port(), options.bearer_token ? ", bearer token required" : "");
    std::thread waiter([&] {
        int signal_number = 0;
        sigwait(&stop_signals, &signal_number);
        transport.stop();
    });
    const bool served = transport.serve();
    pthread_kill(waiter.native_handle(), SIGTERM);  // wakes the waiter if serve() ended first
    waiter.join();
    return served ? 0 : 1;
}

// The traces loaded and diagnosed beside the server from its start (trace_set.hpp: warm_up), on
// a thread that blocks every signal: SIGINT and SIGTERM go to the thread that stops the HTTP
// server, or end a stdio server, as without it.
class WarmUp {
  public:
    explicit WarmUp(const server::TraceSet& traces) {
        sigset_t all;
        sigset_t before;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &before);
        thread_ = std::jthread([this, &traces](const std::stop_token& stop) {
            traces.warm_up(stop);
            done_ = true;
        });
        pthread_sigmask(SIG_SETMASK, &before, nullptr);
    }
    bool done() const { return done_; }

  private:
    std::atomic<bool> done_{false};
    std::jthread thread_;
};

// Serves `traces` on stdio, or on HTTP with --http, until the client or a signal ends it.
int serve(server::Dispatcher& dispatcher, const McpOptions& options,
          const server::TraceSet& traces) {
    if (options.http.empty()) {
        std::fprintf(stderr, "causeway mcp: serving %s on stdio\n",
                     fmt::format("{}", fmt::join(traces.names(), ", ")).c_str());
        return server::serve_stdio(dispatcher, stdin, stdout);
    }
    auto http = http_options(options);
    if (!http) {
        std::fprintf(stderr, "causeway mcp: %s\n", http.error().message.c_str());
        return 2;
    }
    return serve_http(dispatcher, http.value(), traces);
}

// Copies every complete node of every job stored in ClickHouse into `folder` as
// <job>.<node>.db, so the trace tools serve them under the name <job>.<node>. A copy is taken
// once, at start: restart the server to see nodes pushed later (get_fleet_overview always
// reads ClickHouse as it is).
Status copy_stored_nodes(const std::string& url, const TempFolder& folder) {
    auto client = fleet::ClickHouseClient::open(url, false);
    if (!client) {
        return client.error();
    }
    auto jobs = fleet::stored_jobs(*client);
    if (!jobs) {
        return jobs.error();
    }
    for (const auto& job : *jobs) {
        auto nodes = fleet::stored_nodes(*client, job);
        if (!nodes) {
            return nodes.error();
        }
        for (const auto& node : *nodes) {
            std::string name = job + "." + node;
            std::replace(name.begin(), name.end(), '/', '_');
            if (auto copied =
                    fleet::materialise_node(*client, job, node, folder.file(name + ".db"));
                !copied) {
                return copied;
            }
        }
    }
    return Ok{};
}

int run_mcp(McpOptions options) {
    std::optional<TempFolder> copies;
    if (!options.clickhouse.empty()) {
        auto folder = TempFolder::create("the copies of the ClickHouse nodes");
        if (!folder) {
            std::fprintf(stderr, "causeway mcp: %s\n", folder.error().message.c_str());
            return 1;
        }
        copies.emplace(std::move(*folder));
        if (auto copied = copy_stored_nodes(options.clickhouse, *copies); !copied) {
            std::fprintf(stderr, "causeway mcp: %s\n", copied.error().message.c_str());
            return 1;
        }
        options.dbs.push_back(copies->path());
    }
    if (options.dbs.empty()) {
        std::fprintf(stderr, "causeway mcp: give --db (a trace or a folder) or --clickhouse\n");
        return 2;
    }
    auto traces = server::TraceSet::open(options.dbs);
    if (!traces) {
        std::fprintf(stderr, "causeway mcp: %s\n", traces.error().message.c_str());
        return 1;
    }
    for (const auto& skipped : traces->skipped()) {
        std::fprintf(stderr, "causeway mcp: skipped %s: %s\n", skipped.path.c_str(),
                     skipped.reason.c_str());
    }
    server::Dispatcher dispatcher(server::make_causeway_catalog(options.clickhouse), traces.value(),
                                  server::ServerIdentity{.version = CAUSEWAY_VERSION});
    // Made after the set it reads, so that it is joined before the set goes.
    const WarmUp warm_up(traces.value());
    const int code = serve(dispatcher, options, traces.value());
    if (!warm_up.done()) {
        // A load or a diagnosis is not broken off, and one takes tens of seconds at 100M calls:
        // the server ends without waiting for it.
        copies.reset();
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}

}  // namespace

void add_mcp_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<McpOptions>();
    CLI::App* command = app.add_subcommand(
        "mcp", "Serve trace DBs to AI assistants over MCP (stdio, or Streamable HTTP with --http)");
    command->add_option(
        "--db", options->dbs,
        "Trace DB to serve, or a folder of *.db traces (repeatable); tools pick one "
        "with their 'trace' argument (the file name without .db)");
    command->add_option("--clickhouse", options->clickhouse,
                        "Also serve every node stored in this ClickHouse (http://HOST:PORT) by "
                        "`causeway push`, as traces named <job>.<node>, and the "
                        "get_fleet_overview tool; credentials from CLICKHOUSE_USER and "
                        "CLICKHOUSE_PASSWORD");
    command->add_option("--http", options->http,
                        "Serve Streamable HTTP on HOST:PORT (POST /mcp, GET /health) instead of "
                        "stdio, e.g. 127.0.0.1:8787; port 0 picks a free one");
    command->add_option("--token-file", options->token_file,
                        "With --http: require 'Authorization: Bearer <token>' using the token in "
                        "this file (or set CAUSEWAY_MCP_TOKEN); never pass a token on the "
                        "command line");
    command
        ->add_option("--max-body-bytes", options->max_body_bytes,
                     "With --http: largest request body accepted (bytes)")
        ->check(CLI::Range(std::size_t{1024}, std::size_t{64} * 1024 * 1024));
    command->callback([options, &exit_code] { exit_code = run_mcp(*options); });
}

}  // namespace causeway::cli
