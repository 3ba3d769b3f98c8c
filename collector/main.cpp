// causeway-collector: records CUDA calls and host scheduling of a process tree into a trace DB.
// main() only parses the command line and reports; the work is in record/recorder.cpp.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "collector/record/push_after_record.hpp"
#include "collector/record/record_options.hpp"
#include "collector/record/recorder.hpp"

namespace {

// The options as given (up to the traced command), for session.collector_flags.
std::string joined_flags(int argc, char** argv) {
    std::string flags;
    for (int i = 1; i < argc && std::string(argv[i]) != "--"; ++i) {
        flags += (flags.empty() ? "" : " ") + std::string(argv[i]);
    }
    return flags;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "causeway-collector: error: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace causeway::collector;
    CLI::App app{"causeway-collector: record CUDA calls and host scheduling with eBPF"};
    app.require_subcommand(1);
    RecordOptions options;
    std::string offcpu_floor = "50us";
    std::string page_bucket = "100ms";
    bool no_dlopen_stop = false;
    auto* record_cmd = app.add_subcommand(
        "record",
        "Record a command (after --) or running processes (--pid) into a trace DB. Needs root "
        "or CAP_BPF + CAP_PERFMON.");
    record_cmd->add_option("--db", options.db_path, "Trace DB to create (must not exist)")
        ->required();
    record_cmd
        ->add_option("--pid", options.pids,
                     "Trace this running process and its descendants (repeatable)")
        ->allow_extra_args(false);
    record_cmd->add_option("--duration", options.duration_s,
                           "Stop after this many seconds (default: when the command or the "
                           "processes exit, or on Ctrl-C). A command started by the collector "
                           "that is still running then is ended: SIGTERM to each of its "
                           "processes, SIGKILL after --kill-after seconds. Processes given with "
                           "--pid are left running");
    record_cmd->add_option("--kill-after", options.kill_after_s,
                           "Seconds between the SIGTERM and the SIGKILL that end a command still "
                           "running when the recording stops (default 5)");
    record_cmd
        ->add_option("--cuda-lib", options.cuda_libs,
                     "A libcudart/libcuda file (or folder) to attach to, besides the ones "
                     "found automatically (repeatable)")
        ->allow_extra_args(false);
    record_cmd->add_option("--offcpu-floor", offcpu_floor,
                           "Store off-CPU intervals at least this long, e.g. 50us (shorter ones "
                           "are only counted in the per-thread totals)");
    record_cmd->add_option("--page-bucket", page_bucket,
                           "Width of the page-allocation buckets, e.g. 100ms");
    record_cmd->add_flag("--no-dlopen-stop", no_dlopen_stop,
                         "Do not hold the command at each dlopen while new CUDA libraries are "
                         "attached (calls right after a late dlopen may then be missed). While "
                         "it is held, a guard process (causeway-guard) continues it should the "
                         "collector die");
    record_cmd->add_option("--cuda-ring-size", options.cuda_ring_bytes,
                           "Bytes of the CUDA-call ring buffer (power of two; default 64 MiB)");
    bool no_uprobe_multi = false;
    record_cmd->add_flag("--no-uprobe-multi", no_uprobe_multi,
                         "Attach one perf-event uprobe per CUDA symbol instead of one "
                         "uprobe_multi link per library (slower to attach and detach)");
    record_cmd->add_flag("--stacks", options.record_stacks,
                         "Record the user stack of every CUDA call (frame pointers; adds cost "
                         "per call)");
    bool no_native_frames = false;
    record_cmd->add_flag("--no-native-frames", no_native_frames,
                         "With --stacks, record Python frames only: no frame-pointer walk of the "
                         "native stack");
    bool no_python_frames = false;
    record_cmd->add_flag("--no-python-frames", no_python_frames,
                         "With --stacks, record native frames only: do not walk the CPython "
                         "frames of Python processes");
    std::string python_sample_gap = "1ms";
    record_cmd->add_option("--python-sample-gap", python_sample_gap,
                           "With --stacks, walk a thread's Python frames at most once per this "
                           "time when it leaves its CPU runnable, and as often when it goes to "
                           "sleep, e.g. 1ms (CUDA calls are always walked)");
    std::string gpu_link;
    record_cmd->add_option("--gpu-link", gpu_link,
                           "The GPU's PCIe link, as gen4x16, where sysfs does not show it (a "
                           "container without /sys/bus/pci, an emulated device): what pinned "
                           "copies would move is predicted from it");
    record_cmd->add_flag("--quiet", options.quiet, "No progress on stderr, only errors");
    record_cmd->add_flag("--verbose", options.verbose,
                         "Print every probe and libbpf's messages (verifier logs)");
    PushRequest push;
    record_cmd->add_option(
        "--push", push.clickhouse,
        "When the recording ends, store it in this ClickHouse (http://HOST:PORT) "
        "with `causeway push`, as node --node of job --job; credentials from "
        "CLICKHOUSE_USER and CLICKHOUSE_PASSWORD");
    record_cmd->add_option("--job", push.job, "With --push: the training job");
    record_cmd->add_option("--node", push.node, "With --push: the node name (default: the host)");
    record_cmd->add_option("--rank", push.rank, "With --push: the node's rank in the job");
    record_cmd->add_option("--cluster", push.cluster,
                           "With --push: write through Distributed tables over this cluster");
    record_cmd->add_option("command", options.command, "The command to run and trace, after --");
    CLI11_PARSE(app, argc, argv);

    if (!push.clickhouse.empty() && push.job.empty()) {
        return fail("--push needs --job: the training job this recording belongs to");
    }
    auto floor = parse_duration_ns(offcpu_floor);
    if (!floor) {
        return fail("--offcpu-floor: " + floor.error().message);
    }
    auto bucket = parse_duration_ns(page_bucket);
    if (!bucket || *bucket <= 0) {
        return fail("--page-bucket: " +
                    (bucket ? std::string("must be positive") : bucket.error().message));
    }
    auto gap = parse_duration_ns(python_sample_gap);
    if (!gap) {
        return fail("--python-sample-gap: " + gap.error().message);
    }
    options.python_sample_gap_ns = *gap;
    if (!gpu_link.empty()) {
        auto link = parse_gpu_link(gpu_link);
        if (!link) {
            return fail("--gpu-link: " + link.error().message);
        }
        options.gpu_link = *link;
    }
    options.python_frames = !no_python_frames;
    options.native_frames = !no_native_frames;
    options.offcpu_floor_ns = *floor;
    options.page_bucket_ns = *bucket;
    options.stop_on_dlopen = !no_dlopen_stop && options.pids.empty();
    options.uprobe_multi = !no_uprobe_multi;
    options.flags = joined_flags(argc, argv);

    install_stop_handlers();
    auto summary = record(options);
    if (!summary) {
        return fail(summary.error().message);
    }
    if (!options.quiet) {
        std::fprintf(stderr, "causeway-collector: %s\n", summary_line(*summary).c_str());
    }
    if (!push.clickhouse.empty()) {
        if (auto pushed = push_recording(push, options.db_path); !pushed) {
            return fail(pushed.error().message);
        }
    }
    return 0;
}
