// causeway-bench-floor: attaches uprobe + uretprobe programs to one function of one library and
// holds them until SIGINT/SIGTERM. With --body empty (the default), running a call loop under it
// measures the floor that every uprobe tracer pays per call on this kernel; bench/run.sh compares
// tracers against it. --body clock adds a clock read at entry and at return, --body record also
// one ring-buffer record per call (consumed here, as the collector consumes its own): the least
// work of a tracer that stores every call, measured the same way.
// Prints "attached" on stdout once both probes are in place, so a driver knows when to start.
#include <bpf/libbpf.h>
#include <signal.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "uprobe_floor.skel.h"

namespace {

struct SkeletonDestroyer {
    void operator()(uprobe_floor* skeleton) const { uprobe_floor__destroy(skeleton); }
};
struct LinkDestroyer {
    void operator()(bpf_link* link) const { bpf_link__destroy(link); }
};
using LinkPtr = std::unique_ptr<bpf_link, LinkDestroyer>;
struct RingBufferFreer {
    void operator()(ring_buffer* records) const { ring_buffer__free(records); }
};

// Attaches `program` at the entry (or return) of `symbol` in `library`, for `pid` (-1: all).
LinkPtr attach(bpf_program* program, const std::string& library, const std::string& symbol, int pid,
               bool is_return) {
    LIBBPF_OPTS(bpf_uprobe_opts, options, .retprobe = is_return, .func_name = symbol.c_str());
    bpf_link* link = bpf_program__attach_uprobe_opts(program, pid, library.c_str(), 0, &options);
    if (link == nullptr) {
        int error = errno;
        std::fprintf(stderr, "causeway-bench-floor: cannot attach %s to %s in %s: %s%s\n",
                     is_return ? "uretprobe" : "uprobe", symbol.c_str(), library.c_str(),
                     std::strerror(error), error == EPERM ? " (run as root)" : "");
    }
    return LinkPtr(link);
}

// Drains the ring buffer of --body record until a stop signal arrives; records are dropped.
void consume_until_stopped(ring_buffer* records, const sigset_t& stop_signals) {
    const timespec no_wait{};
    while (sigtimedwait(&stop_signals, nullptr, &no_wait) < 0) {
        ring_buffer__poll(records, 100);
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Hold uprobe + uretprobe programs on one library function"};
    std::string library;
    std::string symbol;
    std::string body = "empty";
    int pid = -1;
    app.add_option("--lib", library, "library (or executable) that defines the function")
        ->required()
        ->check(CLI::ExistingFile);
    app.add_option("--symbol", symbol, "function to probe, e.g. cudaStreamSynchronize")->required();
    app.add_option("--pid", pid, "probe only this process (default: every process)");
    app.add_option("--body", body,
                   "what the programs do: empty, clock (two clock reads), record "
                   "(clock reads and one ring-buffer record per call)")
        ->check(CLI::IsMember({"empty", "clock", "record"}));
    CLI11_PARSE(app, argc, argv);

    // Block the stop signals before anything else so that sigwait() receives them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    std::unique_ptr<uprobe_floor, SkeletonDestroyer> skeleton(uprobe_floor__open_and_load());
    if (!skeleton) {
        std::fprintf(stderr, "causeway-bench-floor: cannot load the empty BPF programs: %s\n",
                     std::strerror(errno));
        return 1;
    }
    auto& progs = skeleton->progs;
    bool empty = body == "empty";
    LinkPtr entry =
        attach(empty ? progs.floor_entry : progs.clock_entry, library, symbol, pid, false);
    LinkPtr exit = attach(empty             ? progs.floor_return
                          : body == "clock" ? progs.clock_return
                                            : progs.record_return,
                          library, symbol, pid, true);
    if (!entry || !exit) {
        return 1;
    }
    std::unique_ptr<ring_buffer, RingBufferFreer> records(ring_buffer__new(
        bpf_map__fd(skeleton->maps.records), [](void*, void*, size_t) { return 0; }, nullptr,
        nullptr));
    if (!records) {
        std::fprintf(stderr, "causeway-bench-floor: cannot open the ring buffer: %s\n",
                     std::strerror(errno));
        return 1;
    }
    std::printf("attached\n");
    std::fflush(stdout);
    consume_until_stopped(records.get(), stop_signals);
    return 0;
}
