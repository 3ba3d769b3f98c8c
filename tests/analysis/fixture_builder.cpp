#include "tests/analysis/fixture_builder.hpp"

#include <catch2/catch.hpp>

#include "tracedb/reader.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::testing {

FixtureBuilder::FixtureBuilder(std::int64_t cpu_count, std::string source)
    : path_(dir_.file("run.db")) {
    tracedb::SessionRecord session;
    session.host = "fixture-host";
    session.kernel = "6.18.0";
    session.machine = "x86_64";
    session.cpu_count = cpu_count;
    session.collector_version = "test";
    session.collector_flags = "";
    session.source = std::move(source);
    auto writer = tracedb::TraceWriter::create(path_, session);
    REQUIRE(writer);
    writer_.emplace(std::move(writer).value());
}

std::int64_t FixtureBuilder::process(std::int64_t pid, const std::string& comm,
                                     std::optional<std::int64_t> parent_id, bool in_tree,
                                     std::optional<std::int64_t> start_ns,
                                     std::optional<std::int64_t> exit_ns) {
    auto id = writer_->add_process({.pid = pid,
                                    .parent_id = parent_id,
                                    .comm = comm,
                                    .in_tree = in_tree,
                                    .start_ns = start_ns,
                                    .exit_ns = exit_ns});
    REQUIRE(id);
    return *id;
}

std::int64_t FixtureBuilder::thread(std::int64_t process_id, std::int64_t tid,
                                    const std::string& comm) {
    auto id = writer_->add_thread({.tid = tid, .process_id = process_id, .comm = comm});
    REQUIRE(id);
    return *id;
}

void FixtureBuilder::call(std::int64_t thread_id, std::int64_t op_id, std::int64_t ts_ns,
                          std::int64_t dur_ns, std::optional<std::int64_t> bytes,
                          std::optional<std::int64_t> host_pinned) {
    std::optional<std::int64_t> copy_kind;
    if (host_pinned) {
        copy_kind = 1;
    }
    REQUIRE(writer_->add_cuda_call({.thread_id = thread_id,
                                    .op_id = op_id,
                                    .ts_ns = ts_ns,
                                    .dur_ns = dur_ns,
                                    .bytes = bytes,
                                    .copy_kind = copy_kind,
                                    .host_pinned = host_pinned}));
}

void FixtureBuilder::runnable(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                              std::optional<std::int64_t> next_thread_id,
                              tracedb::OffCpuReason reason) {
    REQUIRE(writer_->add_offcpu({.thread_id = thread_id,
                                 .ts_ns = ts_ns,
                                 .dur_ns = dur_ns,
                                 .reason = reason,
                                 .runq_wait_ns = dur_ns,
                                 .next_thread_id = next_thread_id}));
}

void FixtureBuilder::preempted(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                               std::optional<std::int64_t> next_thread_id) {
    runnable(thread_id, ts_ns, dur_ns, next_thread_id, tracedb::OffCpuReason::kPreempted);
}

void FixtureBuilder::throttled(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                               std::optional<std::int64_t> next_thread_id) {
    runnable(thread_id, ts_ns, dur_ns, next_thread_id, tracedb::OffCpuReason::kThrottled);
}

void FixtureBuilder::blocked(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                             std::int64_t runq_wait_ns) {
    REQUIRE(writer_->add_offcpu({.thread_id = thread_id,
                                 .ts_ns = ts_ns,
                                 .dur_ns = dur_ns,
                                 .reason = tracedb::OffCpuReason::kBlocked,
                                 .runq_wait_ns = runq_wait_ns}));
}

void FixtureBuilder::woken(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                           std::int64_t runq_wait_ns, const Wakeup& wakeup) {
    REQUIRE(writer_->add_offcpu(
        {.thread_id = thread_id,
         .ts_ns = ts_ns,
         .dur_ns = dur_ns,
         .reason = tracedb::OffCpuReason::kBlocked,
         .runq_wait_ns = runq_wait_ns,
         .wake_context = wakeup.context,
         .waker_thread_id = wakeup.waker_thread_id,
         .syscall_nr = wakeup.syscall_nr,
         .iowait = wakeup.iowait,
         .waits_for = wakeup.gil ? tracedb::WaitsFor::kGil : tracedb::WaitsFor::kUnknown}));
}

void FixtureBuilder::sched_total(std::int64_t thread_id, std::int64_t oncpu_ns,
                                 std::int64_t preempted_ns) {
    REQUIRE(writer_->put_thread_sched_total(
        {.thread_id = thread_id, .oncpu_ns = oncpu_ns, .preempted_ns = preempted_ns}));
}

void FixtureBuilder::snapshot(std::int64_t ts_ns, double cpu_busy_pct, std::int64_t procs_running) {
    REQUIRE(writer_->add_snapshot({.ts_ns = ts_ns,
                                   .cpu_busy_pct = cpu_busy_pct,
                                   .cpu_user_pct = cpu_busy_pct,
                                   .mem_total_bytes = 1LL << 34,
                                   .mem_available_bytes = 1LL << 33,
                                   .load1 = static_cast<double>(procs_running),
                                   .procs_running = procs_running}));
}

void FixtureBuilder::snapshots(std::int64_t end_ns, double cpu_busy_pct,
                               std::int64_t procs_running) {
    for (std::int64_t ts = 100 * kMs; ts <= end_ns; ts += 100 * kMs) {
        snapshot(ts, cpu_busy_pct, procs_running);
    }
}

analysis::TraceModel FixtureBuilder::load(std::int64_t stop_ns) {
    REQUIRE(writer_->finish(stop_ns));
    writer_.reset();
    return load_file();
}

analysis::TraceModel FixtureBuilder::load_edited(std::int64_t stop_ns, const std::string& sql) {
    REQUIRE(writer_->finish(stop_ns));
    writer_.reset();
    {
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open(path_.c_str(), &raw) == SQLITE_OK);
        tracedb::Database db(raw);
        auto status = db.exec(sql.c_str());
        INFO(sql);
        REQUIRE(status);
    }
    return load_file();
}

analysis::TraceModel FixtureBuilder::load_file() const {
    auto reader = tracedb::TraceReader::open(path_);
    REQUIRE(reader);
    auto model = analysis::load_trace(*reader);
    REQUIRE(model);
    return std::move(model).value();
}

}  // namespace causeway::testing
