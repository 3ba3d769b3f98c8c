#include "tests/analysis/fixture_builder.hpp"

#include <catch2/catch.hpp>

#include "tracedb/reader.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::testing {

FixtureBuilder::FixtureBuilder(std::int64_t cpu_count, std::string source)
    : path_(dir_.file("run.db")) {
    tracedb::SessionRecord session = synthetic_session("fixture-host", "test");
    session.cpu_count = cpu_count;
    session.source = std::move(source);
    writer_.emplace(must(tracedb::TraceWriter::create(path_, session)));
}

std::int64_t FixtureBuilder::process(std::int64_t pid, const std::string& comm,
                                     std::optional<std::int64_t> parent_id, bool in_tree,
                                     std::optional<std::int64_t> start_ns,
                                     std::optional<std::int64_t> exit_ns) {
    return must(writer_->add_process({.pid = pid,
                                      .parent_id = parent_id,
                                      .comm = comm,
                                      .in_tree = in_tree,
                                      .start_ns = start_ns,
                                      .exit_ns = exit_ns}));
}

std::int64_t FixtureBuilder::thread(std::int64_t process_id, std::int64_t tid,
                                    const std::string& comm) {
    return must(writer_->add_thread({.tid = tid, .process_id = process_id, .comm = comm}));
}

void FixtureBuilder::call(std::int64_t thread_id, std::int64_t op_id, std::int64_t ts_ns,
                          std::int64_t dur_ns, std::optional<std::int64_t> bytes,
                          std::optional<std::int64_t> host_pinned) {
    std::optional<std::int64_t> copy_kind;
    if (host_pinned) {
        copy_kind = 1;
    }
    must(writer_->add_cuda_call({.thread_id = thread_id,
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
    must(writer_->add_offcpu({.thread_id = thread_id,
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
    must(writer_->add_offcpu({.thread_id = thread_id,
                              .ts_ns = ts_ns,
                              .dur_ns = dur_ns,
                              .reason = tracedb::OffCpuReason::kBlocked,
                              .runq_wait_ns = runq_wait_ns}));
}

void FixtureBuilder::woken(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns,
                           std::int64_t runq_wait_ns, const Wakeup& wakeup) {
    must(writer_->add_offcpu(
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
    must(writer_->put_thread_sched_total(
        {.thread_id = thread_id, .oncpu_ns = oncpu_ns, .preempted_ns = preempted_ns}));
}

void FixtureBuilder::snapshot(std::int64_t ts_ns, double cpu_busy_pct, std::int64_t procs_running) {
    add_snapshot(*writer_, ts_ns, cpu_busy_pct, procs_running);
}

void FixtureBuilder::snapshots(std::int64_t end_ns, double cpu_busy_pct,
                               std::int64_t procs_running) {
    add_snapshots(*writer_, end_ns, cpu_busy_pct, procs_running);
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
