#pragma once
// Writes a trace DB: WAL journal, prepared statements, rows batched into transactions.
// Used by the collector, the importers and the tests that build fixture DBs. A writer must be
// used by one thread at a time.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "tracedb/records.hpp"
#include "tracedb/space_reserve.hpp"
#include "tracedb/sqlite.hpp"

namespace causeway::tracedb {

class TraceWriter {
  public:
    // Rows written before the open transaction is committed on its own.
    static constexpr std::int64_t kDefaultBatchRows = 65'536;
    // CUDA calls per multi-row INSERT: SQLite's cost per statement execution (step, reset, VDBE
    // setup) is then paid once per this many calls, which halves the cost of a stored call.
    static constexpr std::size_t kCallsPerInsert = 64;
    // Disk space held back next to the DB (`<path>-space-reserve`) until the DB is finished, and
    // given back when the disk fills, for the rows that close it (SpaceReserve).
    static constexpr std::size_t kSpaceReserveBytes = 512 * 1024;

    // Creates a new trace DB at `path` with the schema and the session row. Refuses a path that
    // already exists, so a recording never overwrites another one.
    static Result<TraceWriter> create(const std::string& path, const SessionRecord& session);

    const std::string& path() const { return path_; }

    Result<std::int64_t> add_process(const ProcessRecord& process);
    Status set_process_exec(std::int64_t process_id, std::int64_t exec_ns, const std::string& comm,
                            const std::optional<std::string>& cmdline);
    Status set_process_exit(std::int64_t process_id, std::int64_t exit_ns,
                            std::optional<std::int64_t> exit_code);

    Result<std::int64_t> add_thread(const ThreadRecord& thread);
    // Records the rename and makes `new_comm` the thread's current name (and its process's, when
    // it is the main thread).
    Status rename_thread(std::int64_t thread_id, std::int64_t ts_ns,
                         const std::optional<std::string>& old_comm, const std::string& new_comm);
    Status set_thread_exit(std::int64_t thread_id, std::int64_t exit_ns);

    Result<std::int64_t> add_stream(std::int64_t process_id, std::int64_t handle);
    // A stack of native frames (stack_frame), Python frames (stack_python_frame), or both.
    Result<std::int64_t> add_stack(std::int64_t process_id,
                                   const std::vector<StackFrameRecord>& frames,
                                   const std::optional<PythonStackRecord>& python = std::nullopt);
    Status add_switch_out_stack(const SwitchOutStackRecord& sample);

    // Buffered: calls reach the DB kCallsPerInsert at a time, and at the latest on commit().
    Status add_cuda_call(const CudaCallRecord& call);
    // nccl_comm: a communicator of a process; its ranks once a ncclCommInit* call says them.
    Result<std::int64_t> add_nccl_comm(std::int64_t process_id, std::int64_t handle);
    Status set_nccl_comm_ranks(std::int64_t comm_id, std::int64_t nranks,
                               std::optional<std::int64_t> rank);
    Status add_nccl_call(const NcclCallRecord& call);
    Status add_offcpu(const OffCpuRecord& interval);
    // Inserts or replaces the thread's totals (the collector rewrites them as they grow).
    Status put_thread_sched_total(const ThreadSchedTotalRecord& total);
    // Adds to the bucket's count and bytes when the bucket already has a row.
    Status add_page_alloc(const PageAllocRecord& bucket);
    Status add_snapshot(const SnapshotRecord& snapshot);
    Status add_cgroup_sample(const CgroupSampleRecord& sample);
    Status put_probe(const ProbeRecord& probe);
    // Inserts or replaces the counter: data-quality values are totals, not increments.
    Status put_data_quality(const DataQualityRecord& counter);
    Status add_event_count(const EventCountRecord& count);
    Status set_meta(const std::string& key, const std::string& value);
    // An op the schema's cuda_op table does not list (an importer's): its id must be new.
    Status add_cuda_op(const CudaOpRecord& op);

    // After a failed write: drops the calls not yet inserted and rolls the open batch back, so
    // that what still fits (a data-quality row, the stop time) can be written after it.
    void abandon_batch();
    // Commits the open batch; the next write opens a new one.
    Status commit();
    // Writes the stop time, commits, checkpoints the WAL and leaves the file in rollback-journal
    // mode so that it is one self-contained file that opens read-only anywhere.
    Status finish(std::int64_t stop_ns);

    std::int64_t rows_written() const { return rows_written_; }
    // A write failed because the storage did (disk full, I/O error), not the data: what was
    // committed before stays readable, and nothing more can be written.
    bool storage_failed() const { return storage_failed_; }

  private:
    TraceWriter() = default;
    Status prepare_statements();
    Status begin_if_needed();
    // The error of a failed write, noting whether the storage failed.
    Error write_failed(std::string message);
    // Steps a prepared insert/update, resets it, and counts the row toward the batch.
    Status run(Statement& stmt, std::int64_t rows = 1);
    Status flush_calls();

    std::string path_;
    Database db_;
    bool in_transaction_ = false;
    std::int64_t rows_in_batch_ = 0;
    std::int64_t rows_written_ = 0;
    bool storage_failed_ = false;
    SpaceReserve space_reserve_;

    Statement insert_process_, set_process_exec_, set_process_exit_;
    Statement insert_thread_, insert_rename_, set_thread_comm_, set_main_thread_process_comm_;
    Statement set_thread_exit_;
    Statement insert_stream_, insert_stack_, insert_frame_, insert_python_frame_;
    Statement insert_nccl_comm_, set_nccl_comm_ranks_, insert_nccl_call_;
    Statement insert_switch_out_stack_;
    std::vector<CudaCallRecord> pending_calls_;
    Statement insert_cuda_call_, insert_cuda_calls_, insert_offcpu_, put_sched_total_;
    Statement add_page_alloc_;
    Statement insert_snapshot_, add_cgroup_sample_, put_probe_, put_data_quality_,
        insert_event_count_, set_meta_;
    Statement insert_cuda_op_;
};

}  // namespace causeway::tracedb
