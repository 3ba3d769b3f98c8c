// The page reader (tracedb/btree_scan.hpp) and the trace loader on any file: mutated trace DBs,
// whose b-tree pages, records, schema and header hold whatever the fuzzer wrote. Promises:
// - the page reader either reads cuda_call exactly as SQL reads it (rowids, values, NULLs, in
//   the order of the cells) or refuses, saying why;
// - loading the trace either fails with a message or gives a model whose calls all name a known
//   thread and op, lie inside the session, and whose data quality names every read with SQL;
// - nothing crashes, leaks, overflows or reads out of bounds (AddressSanitizer and
//   UndefinedBehaviorSanitizer), whatever the file holds.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/measure/trace_stats.hpp"
#include "analysis/model/plausible_values.hpp"
#include "analysis/model/trace_model.hpp"
#include "fuzz/fuzz_check.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/reader.hpp"

using causeway::fuzz::require;
using namespace causeway;

namespace {

std::string g_path;  // the file each input is written to (tmpfs), chosen once

const std::vector<std::string> kColumns{"thread_id", "op_id",       "ts_ns", "dur_ns",
                                        "bytes",     "host_pinned", "ret",   "stack_id"};
using Rows = std::vector<std::vector<std::int64_t>>;

// cuda_call as SQL reads it, in the order of its cells; empty when SQLite refuses it.
std::optional<Rows> rows_with_sql(const tracedb::Database& db) {
    auto stmt = db.prepare(
        "SELECT rowid, thread_id, op_id, ts_ns, dur_ns, bytes, host_pinned, "
        "ret, stack_id FROM cuda_call");
    if (!stmt) {
        return std::nullopt;
    }
    Rows rows;
    int rc;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        std::vector<std::int64_t> row;
        for (int column = 0; column <= static_cast<int>(kColumns.size()); ++column) {
            // NULL as a value no integer column can hold next to the NULL flag.
            row.push_back(stmt->column_is_null(column) ? -1 : stmt->column_int64(column));
            row.push_back(stmt->column_is_null(column) ? 1 : 0);
        }
        rows.push_back(std::move(row));
    }
    return rc == SQLITE_DONE ? std::optional(std::move(rows)) : std::nullopt;
}

// The same from the pages; empty when the page reader refuses.
std::optional<Rows> rows_from_pages(const tracedb::Database& db) {
    auto scan = tracedb::BtreeTableScan::open(db, g_path, "cuda_call", kColumns);
    if (!scan) {
        require(!scan.error().reason.empty(), "a refusal of the page reader says why");
        return std::nullopt;
    }
    Rows rows;
    tracedb::BtreeTableScan::Buffer buffer;
    std::vector<tracedb::BtreeTableScan::Row> leaf_rows;
    for (std::size_t leaf = 0; leaf < scan->leaves().size(); ++leaf) {
        auto status = scan->read_leaf(leaf, buffer, leaf_rows);
        if (!status) {
            require(!status.error().reason.empty(), "a refusal of the page reader says why");
            return std::nullopt;
        }
        require(leaf_rows.size() == scan->leaves()[leaf].cells, "a leaf gives its cell count");
        for (const auto& r : leaf_rows) {
            std::vector<std::int64_t> row{r.rowid, 0};
            for (int column = 0; column < static_cast<int>(kColumns.size()); ++column) {
                bool null = r.is_null(column);
                row.push_back(null ? -1 : r.columns[static_cast<std::size_t>(column)]);
                row.push_back(null ? 1 : 0);
            }
            rows.push_back(std::move(row));
        }
    }
    require(static_cast<std::int64_t>(rows.size()) == scan->rows(),
            "the rows read are the rows counted");
    return rows;
}

void check_model(const analysis::TraceModel& model) {
    const analysis::CudaCalls& c = model.calls;
    require(c.thread_index.size() == c.size() && c.op_index.size() == c.size() &&
                c.ret.size() == c.size() && c.stack_id.size() == c.size() &&
                c.dur_ns.size() == c.size() && c.bytes.size() == c.size() &&
                c.host_pinned.size() == c.size() && c.enclosed.size() == c.size(),
            "every column holds every call");
    const analysis::PlausibleValues plausible(model.session.stop_ns);
    for (std::size_t i = 0; i < c.size(); ++i) {
        require(c.thread_index[i] >= 0 &&
                    static_cast<std::size_t>(c.thread_index[i]) < model.threads.size() &&
                    c.op_index[i] >= 0 &&
                    static_cast<std::size_t>(c.op_index[i]) < model.ops.size(),
                "a loaded call names a known thread and op");
        require(plausible.interval(c.ts_ns[i], c.dur_ns[i]),
                "a loaded call lies inside the session");
    }
}

// The scratch file and what SQLite made beside it (at exit, when libFuzzer's time is up).
void remove_scratch_files() {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        ::unlink((g_path + suffix).c_str());
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    char path[] = "/dev/shm/causeway-trace-pages-XXXXXX";
    int fd = ::mkstemp(path);
    require(fd >= 0, "a scratch file can be created");
    ::close(fd);
    g_path = path;
    std::atexit(remove_scratch_files);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
        ::unlink((g_path + suffix).c_str());  // nothing of the last input may be read with this one
    }
    FILE* file = std::fopen(g_path.c_str(), "wb");
    require(file != nullptr, "the scratch file can be written");
    std::fwrite(data, 1, size, file);
    std::fclose(file);

    auto reader = tracedb::TraceReader::open(g_path);
    if (!reader) {
        require(!reader.error().message.empty(), "a refused file says why");
        return 0;
    }
    bool pages_read = false;
    {
        auto begun = reader->db().exec("BEGIN");
        if (begun) {
            auto from_pages = rows_from_pages(reader->db());
            pages_read = from_pages.has_value();
            auto with_sql = rows_with_sql(reader->db());
            if (from_pages && with_sql) {
                require(*from_pages == *with_sql, "the page reader reads what SQL reads");
            }
            (void)reader->db().exec("COMMIT");
        }
    }
    auto model = analysis::load_trace(*reader);
    if (!model) {
        require(!model.error().message.empty(), "a trace that cannot be loaded says why");
        return 0;
    }
    check_model(*model);
    bool fallback_reported = false;
    for (const auto& item : model->data_quality) {
        fallback_reported = fallback_reported ||
                            item.is(tracedb::DataQualityCounter::kCudaCallReadWithSql) ||
                            item.is(tracedb::DataQualityCounter::kDamagedFile);
    }
    require(pages_read || fallback_reported, "every read with SQL is a data-quality row");
    // The numbers over whatever was loaded: sums and spans of hostile values.
    (void)analysis::compute_stats(*model, {});
    (void)analysis::diagnose(*model, {});
    return 0;
}
