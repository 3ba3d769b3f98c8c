// realcuda_calls, linked against the REAL libcudart.so.13, calls every traced function N times;
// without a GPU each returns cudaErrorInsufficientDriver (35), with one the driver answers. Run
// against the fake's folder the same binary succeeds: the fake honours the real ABI, symbol
// versions included.

#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fakecuda/run_program.hpp"
#include "tests/support/cuda_device.hpp"

using causeway::testing::cuda_device_present;
using causeway::testing::ProgramOutput;
using causeway::testing::run_program;

namespace {

constexpr int kInsufficientDriver = 35;

const std::vector<std::string> kTracedCalls = {
    "cudaMalloc",           "cudaMallocHost",   "cudaHostAlloc",         "cudaMemcpy",
    "cudaMemcpyAsync",      "cudaLaunchKernel", "cudaStreamSynchronize", "cudaDeviceSynchronize",
    "cudaEventSynchronize", "cudaFree",         "cudaFreeHost"};

// Every traced call appears once, with `calls` calls; `check_code(name, last)` judges its last
// return code.
template <typename CodeCheck>
void check_lines(const ProgramOutput& run, int calls, CodeCheck check_code) {
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
        check_code(name, last);
        seen.push_back(name);
    }
    CHECK(seen == kTracedCalls);
}

}  // namespace

TEST_CASE("realcuda_calls on the real runtime: 35 without a GPU, the driver's answers with one") {
    const ProgramOutput run = run_program("'" REALCUDA_CALLS_PATH "' 3");
    if (!cuda_device_present()) {
        check_lines(run, 3,
                    [](const std::string&, int code) { CHECK(code == kInsufficientDriver); });
        return;
    }
    // With a device, memory calls succeed; the launch of a host function may be refused, but
    // never for want of a driver.
    const std::set<std::string> must_succeed = {"cudaMalloc", "cudaMallocHost", "cudaHostAlloc",
                                                "cudaMemcpy", "cudaFree",       "cudaFreeHost"};
    check_lines(run, 3, [&](const std::string& name, int code) {
        CHECK(code != kInsufficientDriver);
        if (must_succeed.count(name) != 0) {
            CHECK(code == 0);
        }
    });
}

TEST_CASE("realcuda_calls runs unchanged on the fake runtime and every call succeeds") {
    check_lines(run_program("env LD_LIBRARY_PATH='" FAKECUDA_DIR "' '" REALCUDA_CALLS_PATH "' 4"),
                4, [](const std::string&, int code) { CHECK(code == 0); });
}

TEST_CASE("realcuda_calls refuses a missing or malformed count") {
    const ProgramOutput run = run_program("'" REALCUDA_CALLS_PATH "' many");
    CHECK(run.exit_code == 2);
    CHECK(run.output.find("usage: realcuda_calls N") != std::string::npos);
}
