#pragma once
// What every writer of synthetic traces shares (the analysis tests' FixtureBuilder, the MCP
// fixture, the golden traces, the fleet nodes): the units, the CUDA op ids, the system call
// numbers of the sleeps they record, and `must`, which turns a failed write into an exception so
// that a fixture reads as the trace it writes rather than as error plumbing. Header-only: the
// fixture programs have their own main().

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/result.hpp"
#include "bpf/causeway_abi.h"
#include "tracedb/writer.hpp"

namespace causeway::testing {

inline constexpr std::int64_t kUs = 1'000;
inline constexpr std::int64_t kMs = 1'000'000;
inline constexpr std::int64_t kSecond = 1'000'000'000;

// cuda_op ids of schemas/trace.sql, as the collector records them.
namespace op {
inline constexpr std::int64_t kMalloc = CW_OP_cudaMalloc;
inline constexpr std::int64_t kFree = CW_OP_cudaFree;
inline constexpr std::int64_t kMemcpy = CW_OP_cudaMemcpy;
inline constexpr std::int64_t kMemcpyAsync = CW_OP_cudaMemcpyAsync;
inline constexpr std::int64_t kLaunchKernel = CW_OP_cudaLaunchKernel;
inline constexpr std::int64_t kStreamSynchronize = CW_OP_cudaStreamSynchronize;
inline constexpr std::int64_t kCuLaunchKernel = CW_OP_cuLaunchKernel;
inline constexpr std::int64_t kCuMemcpyHtoD = CW_OP_cuMemcpyHtoD_v2;
}  // namespace op

// x86_64 system call numbers (the fixtures' sessions are x86_64 machines) of the sleeps recorded.
namespace sys {
inline constexpr std::int64_t kRead = 0;
inline constexpr std::int64_t kPoll = 7;
inline constexpr std::int64_t kFutex = 202;
inline constexpr std::int64_t kClockNanosleep = 230;
}  // namespace sys

// A write the fixture could not make: its message is the writer's.
class FixtureWriteError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The value of a write that succeeded; throws FixtureWriteError otherwise.
template <class T>
T must(Result<T> result) {
    if (!result) {
        throw FixtureWriteError(result.error().message);
    }
    return std::move(result).value();
}

// The session of a synthetic trace: a 2-CPU x86_64 machine on kernel 6.18, named `host`,
// recorded by `collector_version`.
inline tracedb::SessionRecord synthetic_session(std::string host, std::string collector_version) {
    tracedb::SessionRecord session;
    session.host = std::move(host);
    session.kernel = "6.18.0";
    session.machine = "x86_64";
    session.cpu_count = 2;
    session.collector_version = std::move(collector_version);
    session.source = "synthetic";
    return session;
}

// One host snapshot: the CPUs `cpu_busy_pct` busy (all of it user time), `procs_running` tasks
// runnable, half of 16 GiB of memory available.
inline void add_snapshot(tracedb::TraceWriter& writer, std::int64_t ts_ns, double cpu_busy_pct,
                         std::int64_t procs_running) {
    must(writer.add_snapshot({.ts_ns = ts_ns,
                              .cpu_busy_pct = cpu_busy_pct,
                              .cpu_user_pct = cpu_busy_pct,
                              .mem_total_bytes = 1LL << 34,
                              .mem_available_bytes = 1LL << 33,
                              .load1 = static_cast<double>(procs_running),
                              .procs_running = procs_running}));
}

// One such snapshot every 100 ms over (0, end_ns], as the collector's sampler writes them.
inline void add_snapshots(tracedb::TraceWriter& writer, std::int64_t end_ns, double cpu_busy_pct,
                          std::int64_t procs_running) {
    for (std::int64_t ts = 100 * kMs; ts <= end_ns; ts += 100 * kMs) {
        add_snapshot(writer, ts, cpu_busy_pct, procs_running);
    }
}

}  // namespace causeway::testing
