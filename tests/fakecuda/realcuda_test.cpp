// realcuda_calls, linked against the REAL libcudart.so.13, calls every traced function N times;
// without a GPU each returns cudaErrorInsufficientDriver (35). Run against the fake's folder the
// same binary succeeds: the fake honours the real ABI, symbol versions included.

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fakecuda/run_program.hpp"

using causeway::testing::ProgramOutput;
using causeway::testing::run_program;

namespace {

const std::vector<std::string> kTracedCalls = {
    "cudaMalloc",           "cudaMallocHost",   "cudaHostAlloc",         "cudaMemcpy",
    "cudaMemcpyAsync",      "cudaLaunchKernel", "cudaStreamSynchronize", "cudaDeviceSynchronize",
    "cudaEventSynchronize", "cudaFree",         "cudaFreeHost"};

// Every traced call appears once, with `calls` calls and `code` as its last return code.
void check_lines(const ProgramOutput& run, int calls, int code) {
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    std::istringstream lines(run.output);
    std::vector<std::string> seen;
    for (std::string name; lines >> name;) {
        int counted = 0;
        int last = 0;
        REQUIRE(lines >> counted >> last);
        INFO(name);
        CHECK(counted == calls);
        CHECK(last == code);
        seen.push_back(name);
    }
    CHECK(seen == kTracedCalls);
}

}  // namespace

TEST_CASE("realcuda_calls: every call on the real runtime returns 35 without a GPU") {
    check_lines(run_program("'" REALCUDA_CALLS_PATH "' 3"), 3, 35);
}

TEST_CASE("realcuda_calls runs unchanged on the fake runtime and every call succeeds") {
    check_lines(run_program("env LD_LIBRARY_PATH='" FAKECUDA_DIR "' '" REALCUDA_CALLS_PATH "' 4"),
                4, 0);
}

TEST_CASE("realcuda_calls refuses a missing or malformed count") {
    const ProgramOutput run = run_program("'" REALCUDA_CALLS_PATH "' many");
    CHECK(run.exit_code == 2);
    CHECK(run.output.find("usage: realcuda_calls N") != std::string::npos);
}
