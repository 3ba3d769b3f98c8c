// Which processes the kernel may walk, and the data-quality row of those it may not.
#include "collector/python/processes.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace causeway::collector;

namespace {

PythonInterpreter readable_interpreter() {
    PythonInterpreter python;
    python.path = "/usr/bin/python3.11";
    python.version_hex = 0x030b02f0;
    python.runtime_addr = 0xa5b740;
    python.offsets = *table_offsets(3, 11);
    return python;
}

}  // namespace

TEST_CASE("readable interpreters are published to the kernel, unreadable ones are counted") {
    std::map<std::uint32_t, cw_python_process> published;
    std::map<int, causeway::Result<std::optional<PythonInterpreter>>> processes = {
        {10, std::optional<PythonInterpreter>{readable_interpreter()}},
        {20, causeway::Error{"CPython 3.10.13 in /x/libpython3.10.so: a version before 3.11"}},
        {30, std::optional<PythonInterpreter>{}},  // not Python at all
    };
    PythonProcesses python(
        [&](std::uint32_t tgid, const cw_python_process& layout) {
            published[tgid] = layout;
            return causeway::Status{causeway::Ok{}};
        },
        [&](int pid) { return processes.at(pid); });
    for (std::uint32_t tgid : {10u, 20u, 30u}) {
        REQUIRE(python.inspect(tgid));
    }
    REQUIRE(published.size() == 1);
    CHECK(published[10].runtime_addr == 0xa5b740);
    CHECK(published[10].tstate_native_thread_id == 160);
    CHECK(python.interpreter(10) != nullptr);
    CHECK(python.interpreter(20) == nullptr);
    CHECK(python.interpreter(30) == nullptr);

    // A fork inherits what its parent runs; an exec forgets it until the next inspection.
    python.on_fork(10, 11);
    python.on_fork(20, 21);
    CHECK(python.interpreter(11) != nullptr);
    python.on_exec(11);
    CHECK(python.interpreter(11) == nullptr);

    auto row = python.unreadable_record();
    CHECK(row.source == "python");
    CHECK(row.counter == "unreadable_interpreters");
    CHECK(row.value == 2);  // 20 and its child 21
    CHECK(row.severity == causeway::tracedb::Severity::kError);
    CHECK(row.description.find("a version before 3.11 (pid 20 21)") != std::string::npos);
}

TEST_CASE("with every interpreter readable the row says so at info severity") {
    PythonProcesses python(
        [](std::uint32_t, const cw_python_process&) { return causeway::Status{causeway::Ok{}}; });
    auto row = python.unreadable_record();
    CHECK(row.value == 0);
    CHECK(row.severity == causeway::tracedb::Severity::kInfo);
}
