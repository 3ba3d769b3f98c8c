// Schema 3 added Python frames beside the native ones, schema 4 the cgroup samples. The analysis
// still reads the native frames of a trace with Python frames as before, and schema-3 (no cgroup
// samples) and schema-2 files (no Python tables or columns either) still load.
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "analysis/measure/stacks.hpp"
#include "tests/analysis/fixture_builder.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/schema.hpp"

using namespace causeway;
using namespace causeway::testing;

namespace {

// A trainer whose synchronisations share one stack of native and Python frames; the file path.
std::string trace_with_python_frames(FixtureBuilder& fixture) {
    std::int64_t process = fixture.process(100, "python3");
    std::int64_t trainer = fixture.thread(process, 100, "python3");
    auto stack = fixture.writer().add_stack(
        process,
        {{.depth = 0,
          .address = 0x7f00,
          .module = "libcudart.so.13",
          .symbol = "cudaStreamSynchronize",
          .offset = 0}},
        tracedb::PythonStackRecord{.frames = {{.depth = 0,
                                               .file = "train.py",
                                               .function = "train_step",
                                               .line = 57,
                                               .first_line = 50,
                                               .code_address = 0x7f0012340000,
                                               .instr_offset = 84}}});
    REQUIRE(stack);
    for (int i = 0; i < 10; ++i) {
        REQUIRE(fixture.writer().add_cuda_call({.thread_id = trainer,
                                                .op_id = op::kStreamSynchronize,
                                                .ts_ns = i * kMs,
                                                .dur_ns = 500 * kUs,
                                                .stack_id = *stack}));
    }
    fixture.load(20 * kMs);
    return fixture.path();
}

// Turns the trace at `path` into an older schema's file with `sql`.
void rewrite(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
}

void check_native_stack(const std::string& path, std::int64_t schema_version) {
    auto reader = tracedb::TraceReader::open(path);
    REQUIRE(reader);
    CHECK(reader->schema_version() == schema_version);
    auto model = analysis::load_trace(*reader);
    REQUIRE(model);
    auto stacks = analysis::top_stacks(*reader, *model, {}, 10);
    REQUIRE(stacks);
    REQUIRE(stacks->stacks.size() == 1);
    REQUIRE(stacks->stacks[0].frames.size() == 1);
    CHECK(stacks->stacks[0].frames[0].symbol == "cudaStreamSynchronize");
}

}  // namespace

TEST_CASE("a trace with Python frames gives the native stacks as before", "[analysis][schema]") {
    FixtureBuilder fixture;
    check_native_stack(trace_with_python_frames(fixture), tracedb::kSchemaVersion);
}

TEST_CASE("a schema-5 trace, without the GPU's link, still loads", "[analysis][schema]") {
    FixtureBuilder fixture;
    std::string path = trace_with_python_frames(fixture);
    rewrite(path,
            "ALTER TABLE session DROP COLUMN gpu_link_mts; "
            "ALTER TABLE session DROP COLUMN gpu_link_width; "
            "UPDATE meta SET value = '5' WHERE key = 'schema_version'; "
            "PRAGMA user_version = 5;");
    check_native_stack(path, 5);
    auto reader = tracedb::TraceReader::open(path);
    REQUIRE(reader);
    auto model = analysis::load_trace(*reader);
    REQUIRE(model);
    CHECK_FALSE(model->session.gpu_link);
}

TEST_CASE("a schema-3 trace, without cgroup samples, still loads", "[analysis][schema]") {
    FixtureBuilder fixture;
    std::string path = trace_with_python_frames(fixture);
    rewrite(path,
            "DROP TABLE cgroup_sample; "
            "UPDATE meta SET value = '3' WHERE key = 'schema_version'; "
            "PRAGMA user_version = 3;");
    check_native_stack(path, 3);
    auto reader = tracedb::TraceReader::open(path);
    REQUIRE(reader);
    auto model = analysis::load_trace(*reader);
    REQUIRE(model);
    CHECK(model->cgroup_samples.empty());
}

TEST_CASE("a schema-2 trace, without the Python tables, still loads", "[analysis][schema]") {
    FixtureBuilder fixture;
    std::string path = trace_with_python_frames(fixture);
    rewrite(path,
            "DROP TABLE cgroup_sample; "
            "DROP TABLE stack_python_frame; DROP TABLE switch_out_stack; "
            "ALTER TABLE stack DROP COLUMN python_truncated; "
            "ALTER TABLE session DROP COLUMN python_sample_gap_ns; "
            "UPDATE meta SET value = '2' WHERE key = 'schema_version'; "
            "PRAGMA user_version = 2;");
    check_native_stack(path, 2);
}
