#include "tests/collector/runtime/python_program.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "tests/collector/runtime/collector_process.hpp"
#include "tracedb/reader.hpp"

namespace causeway::testing {

PipedProcess::PipedProcess(const std::vector<std::string>& argv) {
    int to_child[2], from_child[2];
    REQUIRE(pipe2(to_child, O_CLOEXEC) == 0);
    REQUIRE(pipe2(from_child, O_CLOEXEC) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        exec_or_exit(argv);
    }
    close(to_child[0]);
    close(from_child[1]);
    stdin_fd_ = to_child[1];
    stdout_fd_ = from_child[0];
}

PipedProcess::~PipedProcess() {
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        finish();
    }
    if (stdout_fd_ >= 0) {
        close(stdout_fd_);
    }
}

std::string PipedProcess::read_line() {
    std::string line;
    char c = 0;
    while (read(stdout_fd_, &c, 1) == 1 && c != '\n') {
        line += c;
    }
    return line;
}

int PipedProcess::finish() {
    if (stdin_fd_ >= 0) {
        close(stdin_fd_);
        stdin_fd_ = -1;
    }
    int status = 0;
    if (pid_ > 0) {
        waitpid(pid_, &status, 0);
        pid_ = -1;
    }
    return status;
}

std::string python_workload(const std::string& script) {
    return std::string(CW_PYTHON_WORKLOADS_DIR) + "/" + script;
}

int marker_line(const std::string& script, const std::string& name) {
    std::ifstream in(script);
    REQUIRE(in);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        auto at = line.find("# cw-line: ");
        if (at != std::string::npos && line.substr(at + 11) == name) {
            return number;
        }
    }
    FAIL("no line marked '# cw-line: " << name << "' in " << script);
    return 0;
}

namespace {

// One line per row of `sql`, its columns joined by spaces.
std::string rows_text(const tracedb::TraceReader& trace, const char* sql) {
    auto statement = trace.db().prepare(sql);
    if (!statement) {
        return "  (" + statement.error().message + ")\n";
    }
    std::string text;
    while (statement->step() == SQLITE_ROW) {
        text += " ";
        for (int column = 0; column < sqlite3_column_count(statement->get()); ++column) {
            text += " " + statement->column_text(column);
        }
        text += "\n";
    }
    return text.empty() ? "  (none)\n" : text;
}

// What a trace that never met a test's condition holds: its calls, their Python stacks and the
// collector's counters, so that a failure says which part of the recording was missing.
std::string recorded_so_far(const std::string& db_path) {
    auto trace = tracedb::TraceReader::open(db_path);
    if (!trace) {
        return db_path + " cannot be opened: " + trace.error().message;
    }
    return "calls by op (op, calls, with a stack):\n" +
           rows_text(*trace,
                     "SELECT op_id, count(*), count(stack_id) FROM cuda_call GROUP BY op_id") +
           "Python frames of the calls (depth, function, line, file, calls):\n" +
           rows_text(*trace,
                     "SELECT f.depth, f.function, f.line, f.file, count(*) FROM cuda_call c JOIN "
                     "stack_python_frame f ON f.stack_id = c.stack_id GROUP BY f.depth, "
                     "f.function, f.line, f.file ORDER BY f.depth LIMIT 12") +
           "data quality:\n" + rows_text(*trace, "SELECT source, counter, value FROM data_quality");
}

}  // namespace

bool wait_for_trace(const std::string& db_path, const std::string& sql, int limit_s) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limit_s);
    while (std::chrono::steady_clock::now() < deadline) {
        if (auto trace = tracedb::TraceReader::open(db_path)) {
            auto value = trace->db().query_int64(sql.c_str());
            if (value && *value > 0) {
                return true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    UNSCOPED_INFO("waited " << limit_s << " s for: " << sql << "\n" << recorded_so_far(db_path));
    return false;
}

}  // namespace causeway::testing
