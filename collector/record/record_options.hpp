#pragma once
// What `causeway-collector record` was asked to do, parsed and checked.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "collector/host/gpu_link.hpp"

namespace causeway::collector {

struct RecordOptions {
    std::string db_path;
    std::vector<int> pids;             // --pid: trace these processes and their descendants
    std::vector<std::string> command;  // -- COMMAND ARGS...: run and trace it
    double duration_s = 0;             // --duration; 0: until the command exits or SIGINT
    // --kill-after: when the recording stops before the command it started has exited, the
    // command's processes get SIGTERM, and SIGKILL this many seconds later if any is left.
    double kill_after_s = 5;
    std::vector<std::string> cuda_libs;  // --cuda-lib
    std::int64_t offcpu_floor_ns = 50'000;
    std::int64_t page_bucket_ns = 100'000'000;
    std::uint32_t cuda_ring_bytes = 64u << 20;  // --cuda-ring-size: power of two, >= 4096
    bool quiet = false;
    bool verbose = false;
    // Stop a traced process at each dlopen until new CUDA libraries are attached. Default on for
    // a command the collector starts; off for --pid, where a shell's job control would see the
    // stops (the load is still caught, a few milliseconds late).
    bool stop_on_dlopen = true;
    // Attach CUDA symbols with uprobe_multi links when the kernel has them (6.6+); off: one
    // perf-event uprobe per symbol (--no-uprobe-multi, what older kernels get anyway).
    bool uprobe_multi = true;
    // Record the user stack of every CUDA call (--stacks): stack and stack_frame rows, at the
    // cost of a frame-pointer walk per call.
    bool record_stacks = false;
    // With --stacks, the native frames of each call (off: --no-native-frames, which saves the
    // frame-pointer walk, costly in an interpreter built without frame pointers) and the CPython
    // frames of Python processes (off: --no-python-frames), at CUDA calls and at sampled
    // switch-outs: at most one per thread per python_sample_gap_ns (--python-sample-gap).
    bool native_frames = true;
    bool python_frames = true;
    std::int64_t python_sample_gap_ns = 1'000'000;
    // --gpu-link: the GPU's PCIe link as given, for a GPU sysfs does not show; otherwise read.
    std::optional<GpuLink> gpu_link;
    bool walks_native() const { return record_stacks && native_frames; }
    bool walks_python() const { return record_stacks && python_frames; }
    std::string flags;  // the options as given, for session.collector_flags
};

// "50us", "2ms", "1.5s", "250ns", or a plain number of nanoseconds, up to 1e18 ns.
Result<std::int64_t> parse_duration_ns(const std::string& text);

// Checks the combination: exactly one of --pid and a command; a positive duration if given.
Status validate(const RecordOptions& options);

}  // namespace causeway::collector
