// causeway-bench-nccl-loop --lib LIBNCCL: calls ncclAllReduce on a null communicator in a loop
// (the real library refuses it at once, after reading every argument the collector reads: seven,
// one on the stack), so one call is one NCCL probe pair. Under the collector the difference in ns
// per call is its cost per NCCL call. Prints one line of key=value results.
#include <dlfcn.h>

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "bench/clocks.hpp"

namespace {

using AllReduce = int (*)(const void*, void*, std::size_t, int, int, void*, void*);

int call_loop(AllReduce all_reduce, std::int64_t calls) {
    constexpr std::size_t kCount = 1 << 20;
    constexpr int kFloat32 = 7;
    int last = 0;
    for (std::int64_t i = 0; i < calls; ++i) {
        last = all_reduce(nullptr, nullptr, kCount, kFloat32, 0, nullptr, nullptr);
    }
    return last;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Call ncclAllReduce (refused: no communicator) in a loop, report ns per call"};
    std::string library;
    std::int64_t calls = 200'000;
    std::int64_t warmup = 2'000;
    app.add_option("--lib", library, "the NCCL library (libnccl.so.2)")->required();
    app.add_option("--calls", calls, "timed calls")->check(CLI::PositiveNumber);
    app.add_option("--warmup", warmup, "untimed calls first")->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);

    void* nccl = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    auto all_reduce =
        nccl != nullptr ? reinterpret_cast<AllReduce>(dlsym(nccl, "ncclAllReduce")) : nullptr;
    if (all_reduce == nullptr) {
        std::fprintf(stderr, "causeway-bench-nccl-loop: no ncclAllReduce in %s: %s\n",
                     library.c_str(), dlerror());
        return 1;
    }
    call_loop(all_reduce, warmup);
    const std::int64_t begin_ns = causeway::bench::monotonic_ns();
    const std::int64_t cpu_begin_ns = causeway::bench::thread_cpu_ns();
    const int last = call_loop(all_reduce, calls);
    const std::int64_t elapsed_ns = causeway::bench::monotonic_ns() - begin_ns;
    const std::int64_t cpu_ns = causeway::bench::thread_cpu_ns() - cpu_begin_ns;
    std::printf("calls=%lld ns_per_call=%.1f cpu_ns_per_call=%.1f last_return=%d\n",
                static_cast<long long>(calls), static_cast<double>(elapsed_ns) / calls,
                static_cast<double>(cpu_ns) / calls, last);
    return 0;
}
