// Writer -> reader round trip over every table of the schema.
#include <catch2/catch.hpp>

#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/schema.hpp"
#include "tracedb/writer.hpp"

using namespace causeway::tracedb;
using causeway::testing::TempDir;

namespace {

SessionRecord test_session() {
    SessionRecord s;
    s.host = "test-host";
    s.kernel = "6.18.44";
    s.cpu_count = 2;
    s.cpu_model = "Test CPU";
    s.mem_total_bytes = 24LL << 30;
    s.command_line = "python train.py";
    s.collector_version = "0.1.0";
    s.collector_flags = "--offcpu-floor 50us";
    s.start_mono_ns = 1'000'000'000;
    s.start_wall_ns = 1'790'000'000'000'000'000;
    return s;
}

std::int64_t count_rows(const Database& db, const std::string& table) {
    auto n = db.query_int64(("SELECT count(*) FROM " + table).c_str());
    REQUIRE(n);
    return *n;
}

}  // namespace

TEST_CASE("a written trace reads back with every table intact", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("run.db");
    {
        auto writer = TraceWriter::create(path, test_session());
        REQUIRE(writer);
        auto parent = writer->add_process({.pid = 100, .comm = "python", .start_ns = 0});
        REQUIRE(parent);
        auto worker = writer->add_process(
            {.pid = 101, .parent_id = *parent, .ppid = 100, .comm = "python", .start_ns = 5});
        REQUIRE(worker);
        // pid 100 reused later by an unrelated process: a new id, never merged.
        auto reused = writer->add_process({.pid = 100, .comm = "bash", .start_ns = 900});
        REQUIRE(reused);
        CHECK(*reused != *parent);

        auto main_thread =
            writer->add_thread({.tid = 100, .process_id = *parent, .comm = "python"});
        REQUIRE(main_thread);
        auto worker_thread =
            writer->add_thread({.tid = 101, .process_id = *worker, .comm = "python"});
        REQUIRE(worker_thread);
        REQUIRE(writer->rename_thread(*worker_thread, 10, std::string("python"), "pt_data_worker"));
        REQUIRE(writer->set_process_exit(*worker, 800, 0));

        auto stream = writer->add_stream(*parent, 0x5555deadbeef);
        REQUIRE(stream);
        auto stack = writer->add_stack(*parent, {{.depth = 0,
                                                  .address = 0x7f00,
                                                  .module = "libcudart.so.13",
                                                  .symbol = "cudaMemcpyAsync",
                                                  .offset = 0},
                                                 {.depth = 1, .address = 0x4000}});
        REQUIRE(stack);
        REQUIRE(writer->add_cuda_call({.thread_id = *main_thread,
                                       .op_id = 7,
                                       .ts_ns = 100,
                                       .dur_ns = 40'000,
                                       .bytes = 4 << 20,
                                       .copy_kind = 1,
                                       .host_pinned = 0,
                                       .stream_id = *stream,
                                       .ret = 0,
                                       .stack_id = *stack}));
        REQUIRE(writer->add_cuda_call(
            {.thread_id = *main_thread, .op_id = 9, .ts_ns = 50'000, .dur_ns = 9'000, .ret = 35}));
        REQUIRE(writer->add_offcpu({.thread_id = *main_thread,
                                    .ts_ns = 1'000,
                                    .dur_ns = 30'000,
                                    .reason = OffCpuReason::kPreempted,
                                    .runq_wait_ns = 30'000,
                                    .cpu = 1,
                                    .next_thread_id = *worker_thread}));
        REQUIRE(writer->put_thread_sched_total(
            {.thread_id = *main_thread, .voluntary_switches = 1, .involuntary_switches = 2}));
        REQUIRE(writer->put_thread_sched_total(
            {.thread_id = *main_thread, .voluntary_switches = 3, .involuntary_switches = 4}));
        REQUIRE(writer->add_page_alloc({*worker, 0, 10, 40960}));
        REQUIRE(writer->add_page_alloc({*worker, 0, 5, 20480}));
        REQUIRE(writer->add_snapshot({.ts_ns = 1'000'000'000, .cpu_busy_pct = 97.5}));
        REQUIRE(writer->put_probe({"/usr/local/cuda/lib64/libcudart.so.13", "cudaMemcpyAsync",
                                   "uprobe", true, true, std::nullopt}));
        REQUIRE(writer->put_data_quality({"cuda", "ringbuf_drops", 3, Severity::kDataLoss,
                                          "3 CUDA events lost: ring buffer full"}));
        REQUIRE(writer->add_event_count({.process_id = *parent,
                                         .bucket_dur_ns = 60'000'000'000,
                                         .event = "sched_switch",
                                         .count = 500,
                                         .stored = 20}));
        REQUIRE(writer->finish(2'000'000'000));
    }

    auto reader = TraceReader::open(path);
    REQUIRE(reader);
    const Database& db = reader->db();
    CHECK(reader->schema_version() == kSchemaVersion);
    CHECK(count_rows(db, "process") == 3);
    CHECK(count_rows(db, "thread") == 2);
    CHECK(count_rows(db, "cuda_call") == 2);
    CHECK(count_rows(db, "offcpu") == 1);
    CHECK(count_rows(db, "stack_frame") == 2);
    CHECK(count_rows(db, "cuda_op") >= 24);

    auto stop = db.query_int64("SELECT stop_ns FROM session WHERE id = 1");
    REQUIRE(stop);
    CHECK(*stop == 2'000'000'000);
    auto comm = db.prepare("SELECT comm FROM thread WHERE tid = 101");
    REQUIRE(comm);
    REQUIRE(comm->step() == SQLITE_ROW);
    CHECK(comm->column_text(0) == "pt_data_worker");
    // The renamed thread is its process's main thread: the process carries the new name too,
    // while the other process with the same old name keeps it.
    auto process_comm = db.prepare("SELECT comm FROM process WHERE pid = 101");
    REQUIRE(process_comm);
    REQUIRE(process_comm->step() == SQLITE_ROW);
    CHECK(process_comm->column_text(0) == "pt_data_worker");
    auto parent_comm = db.prepare("SELECT comm FROM process WHERE pid = 100 AND comm != 'bash'");
    REQUIRE(parent_comm);
    REQUIRE(parent_comm->step() == SQLITE_ROW);
    CHECK(parent_comm->column_text(0) == "python");

    auto call = db.prepare(
        "SELECT o.name, c.bytes, c.copy_kind, c.host_pinned, s.handle, c.ret, f.symbol "
        "FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id "
        "JOIN cuda_stream s ON s.id = c.stream_id "
        "JOIN stack_frame f ON f.stack_id = c.stack_id AND f.depth = 0");
    REQUIRE(call);
    REQUIRE(call->step() == SQLITE_ROW);
    CHECK(call->column_text(0) == "cudaMemcpyAsync");
    CHECK(call->column_int64(1) == (4 << 20));
    CHECK(call->column_int64(2) == 1);
    CHECK(call->column_int64(3) == 0);
    CHECK(call->column_int64(4) == 0x5555deadbeef);
    CHECK(call->column_int64(5) == 0);
    CHECK(call->column_text(6) == "cudaMemcpyAsync");

    auto totals = db.query_int64("SELECT involuntary_switches FROM thread_sched_total");
    REQUIRE(totals);
    CHECK(*totals == 4);  // replaced, not added
    auto pages = db.query_int64("SELECT count FROM page_alloc");
    REQUIRE(pages);
    CHECK(*pages == 15);  // added into the same bucket
    auto drops = db.query_int64("SELECT value FROM data_quality WHERE counter = 'ringbuf_drops'");
    REQUIRE(drops);
    CHECK(*drops == 3);
    // finish() leaves a self-contained file: no WAL to carry around.
    auto journal = db.prepare("PRAGMA journal_mode");
    REQUIRE(journal);
    REQUIRE(journal->step() == SQLITE_ROW);
    CHECK(journal->column_text(0) == "delete");
}

TEST_CASE("the writer refuses to overwrite an existing file", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("run.db");
    { REQUIRE(TraceWriter::create(path, test_session())); }
    auto again = TraceWriter::create(path, test_session());
    REQUIRE_FALSE(again);
    CHECK_THAT(again.error().message, Catch::Contains("already exists"));
}

TEST_CASE("an importer's CUDA op goes in through the writer, a taken id is an error", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("run.db");
    {
        auto writer = TraceWriter::create(path, test_session());
        REQUIRE(writer);
        REQUIRE(writer->add_cuda_op({1001, "cuMemcpy", "driver", "copy"}));
        // Id 1 is cudaMalloc in the schema's own table: the write fails and says which op.
        auto taken = writer->add_cuda_op({1, "cuImported", "driver", "other"});
        REQUIRE_FALSE(taken);
        CHECK_THAT(taken.error().message, Catch::Contains("cuImported") &&
                                              Catch::Contains("id 1") && Catch::Contains("UNIQUE"));
        REQUIRE(writer->finish(1'000));
    }
    auto reader = TraceReader::open(path);
    REQUIRE(reader);
    auto category =
        reader->db().prepare("SELECT api || '/' || category FROM cuda_op WHERE id = 1001");
    REQUIRE(category);
    REQUIRE(category->step() == SQLITE_ROW);
    CHECK(category->column_text(0) == "driver/copy");
}

TEST_CASE("a database that cannot be opened says why", "[tracedb]") {
    TempDir dir;
    auto opened = Database::open(dir.file("no-such-folder/run.db"), SQLITE_OPEN_READWRITE);
    REQUIRE_FALSE(opened);
    CHECK_THAT(opened.error().message, Catch::Contains("unable to open"));
}

TEST_CASE("the embedded schema is the documented one", "[tracedb]") {
    auto sql = schema_sql();
    CHECK(sql.find("PRAGMA user_version = " + std::to_string(kSchemaVersion) + ";") !=
          std::string_view::npos);
    CHECK(sql.find("('schema_version', '" + std::to_string(kSchemaVersion) + "')") !=
          std::string_view::npos);
    CHECK(sql.find("gpu_link_mts") != std::string_view::npos);
    CHECK(sql.find("CREATE TABLE stack_python_frame") != std::string_view::npos);
    CHECK(sql.find("CREATE TABLE switch_out_stack") != std::string_view::npos);
    CHECK(sql.find("CREATE TABLE cuda_call") != std::string_view::npos);
}

TEST_CASE("Python frames and switch-out stacks read back beside native frames", "[tracedb]") {
    TempDir dir;
    const auto path = dir.file("python.db");
    {
        auto session = test_session();
        session.python_sample_gap_ns = 1'000'000;
        session.gpu_link_mts = 32'000;
        session.gpu_link_width = 16;
        auto writer = TraceWriter::create(path, session);
        REQUIRE(writer);
        auto process = writer->add_process({.pid = 100, .comm = "python3"});
        REQUIRE(process);
        auto trainer = writer->add_thread({.tid = 100, .process_id = *process, .comm = "python3"});
        REQUIRE(trainer);
        auto worker = writer->add_thread({.tid = 101, .process_id = *process, .comm = "worker"});
        REQUIRE(worker);
        PythonStackRecord python{.frames = {{.depth = 0,
                                             .file = "train.py",
                                             .function = "Trainer.train_step",
                                             .line = 57,
                                             .first_line = 50,
                                             .code_address = 0x7f0012340000,
                                             .instr_offset = 84},
                                            {.depth = 1,
                                             .first_line = 1,
                                             .code_address = 0x7f0012350000,
                                             .instr_offset = -1}},
                                 .truncated = false};
        auto mixed = writer->add_stack(
            *process, {{.depth = 0, .address = 0x7f00, .symbol = "cudaStreamSynchronize"}}, python);
        REQUIRE(mixed);
        auto native_only = writer->add_stack(*process, {{.depth = 0, .address = 0x7f00}});
        REQUIRE(native_only);
        auto python_only = writer->add_stack(*process, {}, PythonStackRecord{.truncated = true});
        REQUIRE(python_only);
        REQUIRE(writer->add_switch_out_stack({.thread_id = *worker,
                                              .ts_ns = 2'000,
                                              .stack_id = *python_only,
                                              .role = SwitchRole::kCompetitor,
                                              .reason = OffCpuReason::kPreempted,
                                              .gpu_thread_id = *trainer,
                                              .gpu_switch_out_ns = 1'000}));
        REQUIRE(writer->finish(10'000));
    }
    auto reader = TraceReader::open(path);
    REQUIRE(reader);
    const auto& db = reader->db();
    auto count = [&](const char* sql) { return db.query_int64(sql).value(); };
    CHECK(count("SELECT python_sample_gap_ns FROM session") == 1'000'000);
    CHECK(count("SELECT gpu_link_mts FROM session") == 32'000);
    CHECK(count("SELECT gpu_link_width FROM session") == 16);
    CHECK(count("SELECT count(*) FROM stack WHERE python_truncated IS NULL") == 1);
    CHECK(count("SELECT count(*) FROM stack WHERE python_truncated = 0") == 1);
    CHECK(count("SELECT count(*) FROM stack WHERE python_truncated = 1") == 1);
    CHECK(count("SELECT count(*) FROM stack_python_frame WHERE file = 'train.py' AND function = "
                "'Trainer.train_step' AND line = 57 AND first_line = 50 AND instr_offset = 84 "
                "AND depth = 0") == 1);
    CHECK(count("SELECT count(*) FROM stack_python_frame WHERE depth = 1 AND file IS NULL AND "
                "line IS NULL AND instr_offset = -1") == 1);
    CHECK(count("SELECT count(*) FROM stack_frame") == 2);
    CHECK(count("SELECT count(*) FROM switch_out_stack WHERE role = 1 AND reason = 0 AND "
                "gpu_switch_out_ns = 1000 AND ts_ns = 2000") == 1);
}
