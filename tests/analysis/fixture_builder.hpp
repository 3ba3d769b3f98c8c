#pragma once
// Builds small trace DBs for analysis tests with the real TraceWriter: processes, threads, CUDA
// call loops and off-CPU intervals in a few lines, then loads them with the real loader. The
// units, op ids and snapshots are those of every synthetic trace (tests/support/trace_fixture.hpp);
// a failed write throws FixtureWriteError, which fails the test case that made it.

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/model/trace_model.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/trace_fixture.hpp"
#include "tracedb/writer.hpp"

namespace causeway::testing {

class FixtureBuilder {
  public:
    explicit FixtureBuilder(std::int64_t cpu_count = 2, std::string source = "synthetic");

    tracedb::TraceWriter& writer() { return *writer_; }
    const std::string& path() const { return path_; }

    std::int64_t process(std::int64_t pid, const std::string& comm,
                         std::optional<std::int64_t> parent_id = std::nullopt, bool in_tree = true,
                         std::optional<std::int64_t> start_ns = 0,
                         std::optional<std::int64_t> exit_ns = std::nullopt);
    std::int64_t thread(std::int64_t process_id, std::int64_t tid, const std::string& comm);
    void call(std::int64_t thread_id, std::int64_t op_id, std::int64_t ts_ns, std::int64_t dur_ns,
              std::optional<std::int64_t> bytes = std::nullopt,
              std::optional<std::int64_t> host_pinned = std::nullopt);
    void preempted(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                   std::optional<std::int64_t> next_thread_id);
    // Runnable, stopped by its group's CPU quota; `next_thread_id` got the CPU it left.
    void throttled(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                   std::optional<std::int64_t> next_thread_id);
    void blocked(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                 std::int64_t runq_wait_ns = 0);
    // A sleep as the collector records it: what it slept in and who ended it (a thread, or an
    // interrupt when `waker_thread_id` is empty).
    struct Wakeup {
        std::optional<std::int64_t> waker_thread_id{};
        std::int64_t syscall_nr = 0;
        bool iowait = false;
        tracedb::WakeContext context = tracedb::WakeContext::kThread;
        bool gil = false;  // a wait for CPython's GIL (offcpu.waits_for)
    };
    void woken(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
               std::int64_t runq_wait_ns, const Wakeup& wakeup);
    // The thread's exact scheduling totals over the run, as the collector writes them at the end.
    void sched_total(std::int64_t thread_id, std::int64_t oncpu_ns, std::int64_t preempted_ns = 0);
    void snapshot(std::int64_t ts_ns, double cpu_busy_pct, std::int64_t procs_running);
    // One snapshot per 100 ms over [0, end_ns).
    void snapshots(std::int64_t end_ns, double cpu_busy_pct, std::int64_t procs_running);

    // Finishes the file at stop_ns and loads it as the analysis does. REQUIREs success.
    analysis::TraceModel load(std::int64_t stop_ns);
    // Finishes the file at stop_ns, then changes it with `sql` on a writable connection (to
    // build what the writer never writes: damaged or hostile files), then loads it.
    analysis::TraceModel load_edited(std::int64_t stop_ns, const std::string& sql);
    // Loads the finished file again (after a test changed its bytes).
    analysis::TraceModel load_file() const;

  private:
    void runnable(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                  std::optional<std::int64_t> next_thread_id, tracedb::OffCpuReason reason);

    TempDir dir_;
    std::string path_;
    std::optional<tracedb::TraceWriter> writer_;
};

}  // namespace causeway::testing
