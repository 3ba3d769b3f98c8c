#include "tests/collector/runtime/collector_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

namespace causeway::testing {

bool Finished::exited_ok() const {
    return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

std::string collector_path() {
    return CAUSEWAY_COLLECTOR_BIN;
}

pid_t spawn(const std::vector<std::string>& argv, const std::string& stderr_path) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        if (!stderr_path.empty()) {
            int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(err, STDERR_FILENO);
        }
        exec_or_exit(argv);
    }
    return pid;
}

void exec_or_exit(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const auto& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
}

int wait_for(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

Finished run_collector(const std::vector<std::string>& args, const std::string& scratch_dir,
                       const std::vector<std::string>& wrapper) {
    std::vector<std::string> argv = wrapper;
    argv.push_back(collector_path());
    argv.push_back("record");
    argv.insert(argv.end(), args.begin(), args.end());
    std::string stderr_path = scratch_dir + "/collector.stderr";
    Finished finished;
    finished.wait_status = wait_for(spawn(argv, stderr_path));
    std::ifstream in(stderr_path);
    std::stringstream text;
    text << in.rdbuf();
    finished.stderr_text = text.str();
    return finished;
}

tracedb::TraceReader open_trace(const std::string& path) {
    auto trace = tracedb::TraceReader::open(path);
    if (!trace) {
        FAIL("cannot open the trace " << path << ": " << trace.error().message);
    }
    return std::move(trace.value());
}

std::int64_t query_int(const tracedb::TraceReader& trace, const std::string& sql) {
    auto value = trace.db().query_int64(sql.c_str());
    if (!value) {
        FAIL("query failed: " << sql << ": " << value.error().message);
    }
    return *value;
}

std::int64_t cuda_probe_counter(const tracedb::TraceReader& trace, const std::string& counter) {
    return query_int(trace, "SELECT value FROM data_quality WHERE source = 'cuda' AND counter = '" +
                                counter + "'");
}

std::string output_of(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
        out.append(buffer, n);
    }
    int status = pclose(pipe);
    INFO(command << "\n" << out);
    REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    return out;
}

std::string shell_quoted(const std::string& text) {
    return "'" + text + "'";
}

nlohmann::json explain_json(const std::string& db) {
    return nlohmann::json::parse(
        output_of(shell_quoted(CAUSEWAY_CLI_BIN) + " explain --json --db " + shell_quoted(db)));
}

}  // namespace causeway::testing
