#include "analysis/call_loader.hpp"

#include <algorithm>
#include <future>
#include <optional>
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

void reserve(CudaCalls& c, std::size_t n) {
    c.thread_index.reserve(n);
    c.op_index.reserve(n);
    c.ts_ns.reserve(n);
    c.dur_ns.reserve(n);
    c.bytes.reserve(n);
    c.host_pinned.reserve(n);
    c.ret.reserve(n);
}

// Reads rows with rowid in [first, last] on `db`.
Result<LoadedCalls> read_range(const tracedb::Database& db, std::int64_t first, std::int64_t last,
                               const std::vector<std::int32_t>& thread_of_id,
                               const std::vector<std::int32_t>& op_of_id) {
    auto stmt = db.prepare(
        "SELECT thread_id, op_id, ts_ns, dur_ns, bytes, host_pinned, ret FROM cuda_call "
        "WHERE rowid BETWEEN ? AND ?");
    if (!stmt) {
        return Error{"cannot read table cuda_call: " + stmt.error().message};
    }
    stmt->bind(1, first);
    stmt->bind(2, last);
    LoadedCalls out;
    CudaCalls& c = out.calls;
    reserve(c, static_cast<std::size_t>(std::max<std::int64_t>(last - first + 1, 0)));
    sqlite3_stmt* s = stmt->get();
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        std::int32_t thread = lookup(thread_of_id, sqlite3_column_int64(s, 0));
        std::int32_t op = lookup(op_of_id, sqlite3_column_int64(s, 1));
        if (thread < 0 || op < 0) {
            ++(thread < 0 ? out.unknown_thread : out.unknown_op);
            continue;
        }
        std::int64_t ts = sqlite3_column_int64(s, 2);
        std::int64_t dur = sqlite3_column_int64(s, 3);
        c.thread_index.push_back(thread);
        c.op_index.push_back(op);
        c.ts_ns.push_back(ts);
        c.dur_ns.push_back(dur);
        c.bytes.push_back(sqlite3_column_type(s, 4) == SQLITE_NULL ? -1
                                                                   : sqlite3_column_int64(s, 4));
        c.host_pinned.push_back(static_cast<std::int8_t>(
            sqlite3_column_type(s, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 5)));
        c.ret.push_back(static_cast<std::int32_t>(sqlite3_column_int64(s, 6)));
        out.last_end_ns = std::max(out.last_end_ns, ts + dur);
    }
    if (rc != SQLITE_DONE) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    return out;
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

void append(LoadedCalls& to, const LoadedCalls& from) {
    append(to.calls.thread_index, from.calls.thread_index);
    append(to.calls.op_index, from.calls.op_index);
    append(to.calls.ts_ns, from.calls.ts_ns);
    append(to.calls.dur_ns, from.calls.dur_ns);
    append(to.calls.bytes, from.calls.bytes);
    append(to.calls.host_pinned, from.calls.host_pinned);
    append(to.calls.ret, from.calls.ret);
    to.unknown_thread += from.unknown_thread;
    to.unknown_op += from.unknown_op;
    to.last_end_ns = std::max(to.last_end_ns, from.last_end_ns);
}

}  // namespace

Result<LoadedCalls> load_calls(const tracedb::TraceReader& reader,
                               const std::vector<std::int32_t>& thread_of_id,
                               const std::vector<std::int32_t>& op_of_id) {
    const tracedb::Database& db = reader.db();
    auto first = db.query_int64("SELECT ifnull(min(rowid), 0) FROM cuda_call");
    auto last = db.query_int64("SELECT ifnull(max(rowid), -1) FROM cuda_call");
    if (!first || !last) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    std::int64_t rows = *last - *first + 1;
    unsigned parts =
        rows >= kParallelRows ? std::clamp(std::thread::hardware_concurrency(), 1u, kMaxParts) : 1u;
    std::int64_t per_part = rows / parts + 1;
    // Parts after the first read on connections of their own; the first uses the reader's.
    std::vector<std::future<Result<LoadedCalls>>> others;
    for (unsigned part = 1; part < parts; ++part) {
        std::int64_t begin = *first + part * per_part;
        std::int64_t end = part + 1 == parts ? *last : begin + per_part - 1;
        others.push_back(
            std::async(std::launch::async,
                       [&reader, begin, end, &thread_of_id, &op_of_id]() -> Result<LoadedCalls> {
                           auto own = tracedb::TraceReader::open(reader.path());
                           if (!own) {
                               return own.error();
                           }
                           return read_range(own->db(), begin, end, thread_of_id, op_of_id);
                       }));
    }
    auto loaded =
        read_range(db, *first, parts > 1 ? *first + per_part - 1 : *last, thread_of_id, op_of_id);
    for (auto& other : others) {
        auto part = other.get();
        if (!part) {
            return part.error();
        }
        if (loaded) {
            append(*loaded, *part);
        }
    }
    return loaded;
}

}  // namespace causeway::analysis
