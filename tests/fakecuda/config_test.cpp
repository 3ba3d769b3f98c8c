// FAKECUDA_* variables configure the fake device when the library is loaded: checked in fresh
// processes of fakecuda_probe with the variables set.

#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>

#include "tests/fakecuda/run_program.hpp"

using causeway::testing::ProgramOutput;
using causeway::testing::run_program;

namespace {

// Runs the probe with `environment` ("NAME=value ...") added.
ProgramOutput run_probe(const std::string& environment) {
    return run_program("env " + environment + " '" FAKECUDA_PROBE_PATH "'");
}

// The probe's `<name> <value>` lines.
std::map<std::string, std::string> fields_of(const std::string& output) {
    std::map<std::string, std::string> fields;
    std::istringstream lines(output);
    for (std::string name, value; lines >> name >> value;) {
        fields[name] = value;
    }
    return fields;
}

double number(std::map<std::string, std::string>& fields, const std::string& name) {
    INFO("field " << name);
    REQUIRE(fields.count(name) == 1);
    return std::stod(fields[name]);
}

}  // namespace

TEST_CASE("FAKECUDA_* variables set the device model") {
    const ProgramOutput probe = run_probe(
        "FAKECUDA_PINNED_GBPS=0.5 FAKECUDA_PAGEABLE_GBPS=0.25 FAKECUDA_DEVICE_GBPS=100 "
        "FAKECUDA_COPY_LATENCY_NS=7000 FAKECUDA_KERNEL_NS=50000000 FAKECUDA_LAUNCH_NS=1000 "
        "FAKECUDA_MALLOC_NS=2000 FAKECUDA_HOST_ALLOC_NS=3000 FAKECUDA_SYNC_SPIN_NS=4000 "
        "FAKECUDA_DEVICE_MEMORY_MIB=64");
    INFO(probe.output);
    REQUIRE(probe.exit_code == 0);
    auto fields = fields_of(probe.output);
    CHECK(number(fields, "config_status") == 0);
    CHECK(number(fields, "pinned_gbps") == 0.5);
    CHECK(number(fields, "pageable_gbps") == 0.25);
    CHECK(number(fields, "device_gbps") == 100);
    CHECK(number(fields, "copy_latency_ns") == 7000);
    CHECK(number(fields, "kernel_ns") == 50'000'000);
    CHECK(number(fields, "launch_ns") == 1000);
    CHECK(number(fields, "malloc_ns") == 2000);
    CHECK(number(fields, "host_alloc_ns") == 3000);
    CHECK(number(fields, "sync_spin_ns") == 4000);
    CHECK(number(fields, "device_memory_bytes") == 64.0 * 1024 * 1024);
    // 1 MiB at 0.5 GB/s is 2.1 ms; an unregistered kernel takes FAKECUDA_KERNEL_NS. The floors
    // prove the variables took effect (the defaults give 0.05 ms and 0.02 ms); the ceilings only
    // catch a runaway, as another process's waits for a CPU cannot be taken out here.
    CHECK(number(fields, "pinned_copy_1mib_ns") >= 2'097'152 + 7000);
    CHECK(number(fields, "pinned_copy_1mib_ns") < 100'000'000);
    CHECK(number(fields, "default_kernel_ns") >= 50'000'000);
    CHECK(number(fields, "default_kernel_ns") < 250'000'000);
}

TEST_CASE("by default device work only takes time and FAKECUDA_MOVE_BYTES=1 moves the bytes") {
    const ProgramOutput timing_only = run_probe("FAKECUDA_MOVE_BYTES=0");
    const ProgramOutput moving = run_probe("FAKECUDA_MOVE_BYTES=1");
    INFO(timing_only.output << moving.output);
    REQUIRE(timing_only.exit_code == 0);
    REQUIRE(moving.exit_code == 0);
    CHECK(fields_of(timing_only.output)["round_trip_byte"] == "0x00");
    CHECK(fields_of(moving.output)["round_trip_byte"] == "0xab");
}

TEST_CASE("an invalid FAKECUDA_* value is named on stderr and makes CUDA initialisation fail") {
    const ProgramOutput probe = run_probe("FAKECUDA_PINNED_GBPS=fast FAKECUDA_KERNEL_NS=-5");
    INFO(probe.output);
    CHECK(probe.exit_code == 1);
    CHECK(probe.output.find("FAKECUDA_PINNED_GBPS='fast' is invalid: expected a bandwidth in "
                            "GB/s greater than 0") != std::string::npos);
    CHECK(probe.output.find("FAKECUDA_KERNEL_NS='-5' is invalid: expected a whole number from 0 "
                            "to ") != std::string::npos);
    auto fields = fields_of(probe.output);
    CHECK(number(fields, "config_status") == static_cast<int>(cudaErrorInitializationError));
    CHECK(number(fields, "cudaMalloc") == static_cast<int>(cudaErrorInitializationError));
}
