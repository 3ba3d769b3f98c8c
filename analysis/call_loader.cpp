#include "analysis/call_loader.hpp"

#include <algorithm>
#include <functional>
#include <future>
#include <limits>
#include <thread>

#include "tracedb/btree_scan.hpp"

namespace causeway::analysis {
namespace {

// Below this many rows one thread is as fast as several.
constexpr std::int64_t kParallelRows = 500'000;
constexpr unsigned kMaxParts = 4;

unsigned parts_for(std::int64_t rows) {
    return rows >= kParallelRows ? std::clamp(std::thread::hardware_concurrency(), 1u, kMaxParts)
                                 : 1u;
}

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
    f(c.stack_id);
}

// One cuda_call row as either reader decodes it; -1 stands for NULL in bytes, host_pinned and
// stack_id.
struct CallRow {
    std::int64_t thread_id = 0;
    std::int64_t op_id = 0;
    std::int64_t ts_ns = 0;
    std::int64_t dur_ns = 0;
    std::int64_t bytes = -1;
    std::int64_t host_pinned = -1;
    std::int64_t ret = 0;
    std::int64_t stack_id = -1;
};

// Where a part's rows go and what it skipped. Each part writes its rows one after another from
// its own slice of the columns, which are sized for every rowid of the table, so parts read in
// parallel write disjoint slices and nothing is copied afterwards unless rows were skipped or
// rowids are missing.
class PartWriter {
  public:
    PartWriter(CudaCalls& calls, std::size_t at, const std::vector<std::int32_t>& thread_of_id,
               const std::vector<std::int32_t>& op_of_id)
        : c_(calls), at_(at), thread_of_id_(thread_of_id), op_of_id_(op_of_id) {}

    void store(const CallRow& row) {
        std::int32_t thread = lookup(thread_of_id_, row.thread_id);
        std::int32_t op = lookup(op_of_id_, row.op_id);
        if (thread < 0 || op < 0) {
            ++(thread < 0 ? counts.unknown_thread : counts.unknown_op);
            return;
        }
        std::size_t i = at_ + counts.stored++;
        c_.thread_index[i] = thread;
        c_.op_index[i] = op;
        c_.ts_ns[i] = row.ts_ns;
        c_.dur_ns[i] = row.dur_ns;
        c_.bytes[i] = row.bytes;
        c_.host_pinned[i] = static_cast<std::int8_t>(row.host_pinned);
        c_.ret[i] = static_cast<std::int32_t>(row.ret);
        c_.stack_id[i] = static_cast<std::int32_t>(row.stack_id);
        counts.last_end_ns = std::max(counts.last_end_ns, row.ts_ns + row.dur_ns);
    }

    struct Counts {
        std::size_t stored = 0;
        std::int64_t unknown_thread = 0;
        std::int64_t unknown_op = 0;
        std::int64_t last_end_ns = 0;
    } counts;

  private:
    CudaCalls& c_;
    std::size_t at_;
    const std::vector<std::int32_t>& thread_of_id_;
    const std::vector<std::int32_t>& op_of_id_;
};

// A part of the table: the index of its slice and how to read it into a PartWriter.
struct Part {
    std::size_t slice = 0;
    std::function<Status(PartWriter&)> read;
};

// Sizes the columns for `rows` rowids, reads the parts (at least one; the first on this thread,
// the others on threads of their own), then closes up the slices.
Result<LoadedCalls> read_parts(std::int64_t rows, const std::vector<Part>& parts,
                               const std::vector<std::int32_t>& thread_of_id,
                               const std::vector<std::int32_t>& op_of_id) {
    LoadedCalls out;
    for_each_loaded_column(out.calls,
                           [rows](auto& column) { column.resize(static_cast<std::size_t>(rows)); });
    std::vector<PartWriter> writers;
    for (const Part& part : parts) {
        writers.emplace_back(out.calls, part.slice, thread_of_id, op_of_id);
    }
    std::vector<std::future<Status>> others;
    for (std::size_t p = 1; p < parts.size(); ++p) {
        others.push_back(std::async(std::launch::async, parts[p].read, std::ref(writers[p])));
    }
    std::vector<Status> statuses;
    statuses.push_back(parts[0].read(writers[0]));
    for (auto& other : others) {
        statuses.push_back(other.get());  // every part is joined before `out` goes away
    }
    std::size_t size = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (!statuses[p]) {
            return statuses[p].error();
        }
        const PartWriter::Counts& c = writers[p].counts;
        if (parts[p].slice != size) {  // close the gap left by skipped rows or missing rowids
            for_each_loaded_column(out.calls, [&](auto& column) {
                auto from = column.begin() + static_cast<std::ptrdiff_t>(parts[p].slice);
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

// Reads rows with rowid in [first, last] on `db` with SQL.
Status read_rows_with_sql(const tracedb::Database& db, std::int64_t first, std::int64_t last,
                          PartWriter& writer) {
    auto stmt = db.prepare(
        "SELECT thread_id, op_id, ts_ns, dur_ns, bytes, host_pinned, ret, stack_id FROM cuda_call "
        "WHERE rowid BETWEEN ? AND ?");
    if (!stmt) {
        return Error{"cannot read table cuda_call: " + stmt.error().message};
    }
    stmt->bind(1, first);
    stmt->bind(2, last);
    sqlite3_stmt* s = stmt->get();
    auto optional_column = [s](int column) {
        return sqlite3_column_type(s, column) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, column);
    };
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        writer.store({.thread_id = sqlite3_column_int64(s, 0),
                      .op_id = sqlite3_column_int64(s, 1),
                      .ts_ns = sqlite3_column_int64(s, 2),
                      .dur_ns = sqlite3_column_int64(s, 3),
                      .bytes = optional_column(4),
                      .host_pinned = optional_column(5),
                      .ret = sqlite3_column_int64(s, 6),
                      .stack_id = optional_column(7)});
    }
    if (rc != SQLITE_DONE) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    return Ok{};
}

// The whole table with SQL, split by rowid range, one connection per range.
Result<LoadedCalls> load_with_sql(const std::string& path, const tracedb::Database& db,
                                  std::int64_t first, std::int64_t last,
                                  const std::vector<std::int32_t>& thread_of_id,
                                  const std::vector<std::int32_t>& op_of_id) {
    std::int64_t rows = last - first + 1;
    unsigned count = parts_for(rows);
    std::int64_t per_part = rows / count + 1;
    std::vector<Part> parts;
    for (unsigned p = 0; p < count; ++p) {
        std::int64_t begin = first + p * per_part;
        std::int64_t end = p + 1 == count ? last : begin + per_part - 1;
        parts.push_back({static_cast<std::size_t>(p * per_part), [&, p, begin, end](PartWriter& w) {
                             if (p == 0) {
                                 return read_rows_with_sql(db, begin, end, w);
                             }
                             auto own = tracedb::TraceReader::open(path);
                             return own ? read_rows_with_sql(own->db(), begin, end, w)
                                        : Status{own.error()};
                         }});
    }
    return read_parts(rows, parts, thread_of_id, op_of_id);
}

// Positions of the columns the analysis reads in a cuda_call record; empty when one is missing.
std::vector<int> record_positions(const std::vector<std::string>& columns) {
    std::vector<int> positions;
    for (const char* name :
         {"thread_id", "op_id", "ts_ns", "dur_ns", "bytes", "host_pinned", "ret", "stack_id"}) {
        auto it = std::find(columns.begin(), columns.end(), name);
        if (it == columns.end()) {
            return {};
        }
        positions.push_back(static_cast<int>(it - columns.begin()));
    }
    return positions;
}

// The whole table from its b-tree pages, split by leaf; fails (the caller then uses SQL) on
// anything the page reader does not handle.
Result<LoadedCalls> load_from_pages(const tracedb::BtreeTableScan& scan, std::int64_t first,
                                    std::int64_t last,
                                    const std::vector<std::int32_t>& thread_of_id,
                                    const std::vector<std::int32_t>& op_of_id) {
    std::vector<int> at = record_positions(scan.columns());
    if (at.empty()) {
        return Error{"cuda_call lacks a column the analysis reads"};
    }
    const auto& leaves = scan.leaves();
    std::size_t count = std::min<std::size_t>(parts_for(last - first + 1), leaves.size());
    std::vector<Part> parts;
    for (std::size_t p = 0; p < count; ++p) {
        std::size_t begin = leaves.size() * p / count;
        std::size_t end = leaves.size() * (p + 1) / count;
        std::int64_t lowest = begin == 0 ? first : leaves[begin - 1].max_rowid + 1;
        if (lowest < first) {
            return Error{"cuda_call's b-tree keys are out of order"};
        }
        std::int64_t highest = end == leaves.size() ? last : leaves[end - 1].max_rowid;
        auto read = [&scan, &at, begin, end, lowest, highest](PartWriter& writer) -> Status {
            std::vector<std::uint8_t> page;
            std::vector<tracedb::BtreeTableScan::Row> rows;
            std::int64_t previous = lowest - 1;
            auto value = [&at](const tracedb::BtreeTableScan::Row& row, int field) {
                int column = at[static_cast<std::size_t>(field)];
                return row.is_null(column) ? -1 : row.columns[static_cast<std::size_t>(column)];
            };
            for (std::size_t leaf = begin; leaf < end; ++leaf) {
                if (auto status = scan.read_leaf(leaf, page, rows); !status) {
                    return status;
                }
                for (const auto& row : rows) {
                    // Rowids rise through the part and stay in its range, so the part never
                    // writes past its slice.
                    if (row.rowid <= previous || row.rowid > highest) {
                        return Error{"cuda_call's rowids are out of order"};
                    }
                    previous = row.rowid;
                    writer.store({.thread_id = value(row, 0),
                                  .op_id = value(row, 1),
                                  .ts_ns = value(row, 2),
                                  .dur_ns = value(row, 3),
                                  .bytes = value(row, 4),
                                  .host_pinned = value(row, 5),
                                  .ret = value(row, 6),
                                  .stack_id = value(row, 7)});
                }
            }
            return Ok{};
        };
        parts.push_back({static_cast<std::size_t>(lowest - first), read});
    }
    return read_parts(last - first + 1, parts, thread_of_id, op_of_id);
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
    // One read transaction for the whole load: in a rollback-journal file its SHARED lock keeps
    // a writer from changing the pages the page reader reads.
    if (auto status = db.exec("BEGIN"); !status) {
        return Error{"cannot read table cuda_call: " + status.error().message};
    }
    auto first = db.query_int64("SELECT ifnull(min(rowid), 0) FROM cuda_call");
    auto last = db.query_int64("SELECT ifnull(max(rowid), -1) FROM cuda_call");
    if (!first || !last) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    if (auto scan = tracedb::BtreeTableScan::open(db, path, "cuda_call")) {
        if (auto loaded = load_from_pages(*scan, *first, *last, thread_of_id, op_of_id)) {
            return loaded;
        }
    }
    return load_with_sql(path, db, *first, *last, thread_of_id, op_of_id);
}

}  // namespace causeway::analysis
