// The fake libraries present the real ABI: sonames, exported names, symbol versions, and the
// runtime reaching the driver through dlopen like the real one.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fakecuda/run_program.hpp"
#include "tests/support/temp_dir.hpp"

using causeway::testing::run_program;
using causeway::testing::TempDir;

namespace {

// What `objdump -T` lists as defined, as "<version> <name>" pairs.
std::vector<std::string> defined_dynamic_symbols(const std::string& library) {
    const auto dump = run_program("objdump -T '" + library + "'");
    REQUIRE(dump.exit_code == 0);
    std::vector<std::string> symbols;
    std::istringstream lines(dump.output);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::vector<std::string> words;
        for (std::string word; fields >> word;) {
            words.push_back(word);
        }
        // address flags... section size version name; undefined ones live in *UND*.
        if (words.size() >= 6 && line.find("*UND*") == std::string::npos &&
            line.find(" DF ") != std::string::npos) {
            symbols.push_back(words[words.size() - 2] + " " + words.back());
        }
    }
    return symbols;
}

std::string dynamic_section(const std::string& library) {
    const auto dump = run_program("readelf -d '" + library + "'");
    REQUIRE(dump.exit_code == 0);
    return dump.output;
}

// Addresses of the defined functions, each once: probes on one symbol never fire for another.
bool every_function_has_its_own_address(const std::string& library) {
    const auto dump = run_program("objdump -T '" + library + "'");
    REQUIRE(dump.exit_code == 0);
    std::vector<std::string> addresses;
    std::istringstream lines(dump.output);
    for (std::string line; std::getline(lines, line);) {
        if (line.find(" DF .text") != std::string::npos) {
            addresses.push_back(line.substr(0, line.find(' ')));
        }
    }
    std::sort(addresses.begin(), addresses.end());
    return !addresses.empty() &&
           std::adjacent_find(addresses.begin(), addresses.end()) == addresses.end();
}

bool contains(const std::vector<std::string>& all, const std::string& wanted) {
    return std::find(all.begin(), all.end(), wanted) != all.end();
}

}  // namespace

TEST_CASE(
    "fake runtime has soname libcudart.so.13 and exports the traced calls versioned like "
    "the real ones") {
    const std::string library = FAKECUDA_RUNTIME_PATH;
    CHECK(dynamic_section(library).find("Library soname: [libcudart.so.13]") != std::string::npos);

    const auto symbols = defined_dynamic_symbols(library);
    for (const char* name : {"cudaMalloc",
                             "cudaFree",
                             "cudaMallocHost",
                             "cudaHostAlloc",
                             "cudaFreeHost",
                             "cudaMemcpy",
                             "cudaMemcpyAsync",
                             "cudaLaunchKernel",
                             "cudaStreamCreate",
                             "cudaStreamCreateWithFlags",
                             "cudaStreamDestroy",
                             "cudaStreamSynchronize",
                             "cudaStreamQuery",
                             "cudaStreamWaitEvent",
                             "cudaDeviceSynchronize",
                             "cudaSetDeviceFlags",
                             "cudaEventCreate",
                             "cudaEventCreateWithFlags",
                             "cudaEventRecord",
                             "cudaEventSynchronize",
                             "cudaEventQuery",
                             "cudaEventElapsedTime",
                             "cudaEventDestroy",
                             "cudaMallocAsync",
                             "cudaFreeAsync",
                             "cudaGetDeviceCount",
                             "cudaSetDevice",
                             "cudaGetDevice",
                             "cudaGetLastError",
                             "cudaPeekAtLastError",
                             "cudaGetErrorString",
                             "cudaGetErrorName",
                             "cudaMemset",
                             "cudaMemsetAsync",
                             "cudaDriverGetVersion",
                             "cudaRuntimeGetVersion"}) {
        INFO(name);
        CHECK(contains(symbols, std::string("libcudart.so.13 ") + name));
    }
    CHECK(contains(symbols, "libcudart.so.13 fakecudaSetKernelDuration"));
    for (const std::string& symbol : symbols) {
        INFO(symbol);
        CHECK((symbol.rfind("libcudart.so.13 cuda", 0) == 0 ||
               symbol.rfind("libcudart.so.13 fakecuda", 0) == 0));
    }
}

TEST_CASE("fake driver has soname libcuda.so.1 and exports the driver entry points") {
    const std::string library = FAKECUDA_DRIVER_PATH;
    CHECK(dynamic_section(library).find("Library soname: [libcuda.so.1]") != std::string::npos);

    const auto symbols = defined_dynamic_symbols(library);
    for (const char* name :
         {"cuInit", "cuLaunchKernel", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpyHtoDAsync_v2",
          "cuMemcpyDtoHAsync_v2", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemAllocHost_v2",
          "cuMemHostAlloc", "cuMemFreeHost", "cuCtxSynchronize", "cuStreamSynchronize",
          "cuStreamCreate", "cuEventRecord", "cuEventSynchronize"}) {
        INFO(name);
        // The real driver's symbols are unversioned; objdump shows "Base" for them.
        CHECK(contains(symbols, std::string("Base ") + name));
    }
}

TEST_CASE("every exported function of the fake libraries has an address of its own") {
    CHECK(every_function_has_its_own_address(FAKECUDA_RUNTIME_PATH));
    CHECK(every_function_has_its_own_address(FAKECUDA_DRIVER_PATH));
}

TEST_CASE("fake runtime loads the driver at run time with dlopen, like the real one") {
    CHECK(dynamic_section(FAKECUDA_RUNTIME_PATH).find("[libcuda.so.1]") == std::string::npos);
}

TEST_CASE("fake runtime finds the driver in the folder of its own file, through symlinks too") {
    TempDir elsewhere;
    std::filesystem::create_symlink(FAKECUDA_RUNTIME_PATH, elsewhere.file("libcudart.so.13"));
    // LD_LIBRARY_PATH wins over the probe's RUNPATH: the runtime is loaded through the symlink,
    // from a folder without libcuda.so.1.
    const auto probe =
        run_program("env LD_LIBRARY_PATH='" + elsewhere.path() + "' '" + FAKECUDA_PROBE_PATH + "'");
    INFO(probe.output);
    CHECK(probe.exit_code == 0);
    CHECK(probe.output.find("config_status 0") != std::string::npos);
}
