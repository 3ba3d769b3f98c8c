#include "analysis/call_loader.hpp"

#include <algorithm>
#include <future>
#include <thread>

namespace causeway::analysis {
namespace {

// Below this many rows one connection is as fast as several.
constexpr std::int64_t kParallelRows = 500'000;
constexpr unsigned kMaxParts = 4;

std::int32_t lookup(const std::vector<std::int32_t>& table, std::int64_t id) {
    return id >= 0 && static_cast<std::size_t>(id) < table.size()
               ? table[static_cast<std::size_t>(id)]
               : -1;
}

// Applies `f` to every column load_calls fills (`enclosed` is computed later).
template <class F>
void for_each_loaded_column(CudaCalls& c, F f) {
    f(c.thread_index);
    f(c.op_index);
    f(c.ts_ns);
    f(c.dur_ns);
    f(c.bytes);
    f(c.host_pinned);
    f(c.ret);
}

// What one rowid range contributed besides its rows.
struct RangeCounts {
    std::size_t stored = 0;
    std::int64_t unknown_thread = 0;
    std::int64_t unknown_op = 0;
    std::int64_t last_end_ns = 0;
};

// Reads rows with rowid in [first, last] on `db` into `c` from index `at` on. The columns are
// already sized for every rowid of the table, so ranges read in parallel write disjoint slices
// and nothing is copied afterwards unless rows were skipped or rowids are missing.
Result<RangeCounts> read_range(const tracedb::Database& db, std::int64_t first, std::int64_t last,
                               const std::vector<std::int32_t>& thread_of_id,
                               const std::vector<std::int32_t>& op_of_id, CudaCalls& c,
                               std::size_t at) {
    auto stmt = db.prepare(
        "SELECT thread_id, op_id, ts_ns, dur_ns, bytes, host_pinned, ret FROM cuda_call "
        "WHERE rowid BETWEEN ? AND ?");
    if (!stmt) {
        return Error{"cannot read table cuda_call: " + stmt.error().message};
    }
    stmt->bind(1, first);
    stmt->bind(2, last);
    RangeCounts counts;
    sqlite3_stmt* s = stmt->get();
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        std::int32_t thread = lookup(thread_of_id, sqlite3_column_int64(s, 0));
        std::int32_t op = lookup(op_of_id, sqlite3_column_int64(s, 1));
        if (thread < 0 || op < 0) {
            ++(thread < 0 ? counts.unknown_thread : counts.unknown_op);
            continue;
        }
        std::size_t i = at + counts.stored++;
        std::int64_t ts = sqlite3_column_int64(s, 2);
        std::int64_t dur = sqlite3_column_int64(s, 3);
        c.thread_index[i] = thread;
        c.op_index[i] = op;
        c.ts_ns[i] = ts;
        c.dur_ns[i] = dur;
        c.bytes[i] = sqlite3_column_type(s, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 4);
        c.host_pinned[i] = static_cast<std::int8_t>(
            sqlite3_column_type(s, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 5));
        c.ret[i] = static_cast<std::int32_t>(sqlite3_column_int64(s, 6));
        counts.last_end_ns = std::max(counts.last_end_ns, ts + dur);
    }
    if (rc != SQLITE_DONE) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    return counts;
}

}  // namespace

Result<LoadedCalls> load_calls(const std::string& path,
                               const std::vector<std::int32_t>& thread_of_id,
                               const std::vector<std::int32_t>& op_of_id) {
    auto reader = tracedb::TraceReader::open(path);
    if (!reader) {
        return reader.error();
    }
    const tracedb::Database& db = reader->db();
    auto first = db.query_int64("SELECT ifnull(min(rowid), 0) FROM cuda_call");
    auto last = db.query_int64("SELECT ifnull(max(rowid), -1) FROM cuda_call");
    if (!first || !last) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    std::int64_t rows = *last - *first + 1;
    LoadedCalls out;
    for_each_loaded_column(out.calls,
                           [rows](auto& column) { column.resize(static_cast<std::size_t>(rows)); });
    unsigned parts =
        rows >= kParallelRows ? std::clamp(std::thread::hardware_concurrency(), 1u, kMaxParts) : 1u;
    std::int64_t per_part = rows / parts + 1;
    auto range_of = [&](unsigned part) {
        std::int64_t begin = *first + part * per_part;
        return std::pair{begin, part + 1 == parts ? *last : begin + per_part - 1};
    };
    auto slice_of = [&](unsigned part) { return static_cast<std::size_t>(part * per_part); };
    // Parts after the first read on connections of their own.
    std::vector<std::future<Result<RangeCounts>>> others;
    for (unsigned part = 1; part < parts; ++part) {
        others.push_back(std::async(std::launch::async, [&, part]() -> Result<RangeCounts> {
            auto own = tracedb::TraceReader::open(path);
            if (!own) {
                return own.error();
            }
            auto [begin, end] = range_of(part);
            return read_range(own->db(), begin, end, thread_of_id, op_of_id, out.calls,
                              slice_of(part));
        }));
    }
    auto [begin, end] = range_of(0);
    std::vector<Result<RangeCounts>> counts;
    counts.push_back(read_range(db, begin, end, thread_of_id, op_of_id, out.calls, 0));
    for (auto& other : others) {
        counts.push_back(other.get());  // every part is joined before `out` goes away
    }
    std::size_t size = 0;
    for (unsigned part = 0; part < parts; ++part) {
        if (!counts[part]) {
            return counts[part].error();
        }
        const RangeCounts& c = *counts[part];
        if (slice_of(part) != size) {  // close the gap left by skipped rows or missing rowids
            for_each_loaded_column(out.calls, [&](auto& column) {
                auto from = column.begin() + static_cast<std::ptrdiff_t>(slice_of(part));
                std::move(from, from + static_cast<std::ptrdiff_t>(c.stored),
                          column.begin() + static_cast<std::ptrdiff_t>(size));
            });
        }
        size += c.stored;
        out.unknown_thread += c.unknown_thread;
        out.unknown_op += c.unknown_op;
        out.last_end_ns = std::max(out.last_end_ns, c.last_end_ns);
    }
    for_each_loaded_column(out.calls, [size](auto& column) { column.resize(size); });
    return out;
}

}  // namespace causeway::analysis
