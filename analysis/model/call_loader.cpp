#include "analysis/model/call_loader.hpp"

#include <algorithm>
#include <functional>
#include <future>
#include <limits>
#include <thread>

namespace causeway::analysis {
namespace {

// Below this many rows one thread is as fast as several.
constexpr std::int64_t kParallelRows = 500'000;
constexpr unsigned kMaxParts = 4;

unsigned parts_for(std::int64_t rows) {
    return rows >= kParallelRows ? std::clamp(std::thread::hardware_concurrency(), 1u, kMaxParts)
                                 : 1u;
}

// Applies `f` to the storage of every column load_calls fills but the timestamps', taken from each
// of `calls` side by side: the narrow values of a narrow column (its values that do not fit are
// added apart).
template <class F, class... Calls>
void for_each_loaded_column(F f, Calls&... calls) {
    f(calls.thread_index.narrow_values()...);
    f(calls.op_index.narrow_values()...);
    f(calls.dur_ns.narrow_values()...);
    f(calls.bytes.narrow_values()...);
    f(calls.host_pinned...);
    f(calls.ret.narrow_values()...);
    f(calls.stack_id.narrow_values()...);
}

// Sizes every column of `calls` for `rows` rows, keeping the rows stored (their new rows are not
// initialised).
void size_columns(LoadedCallColumns& calls, std::size_t rows) {
    for_each_loaded_column([rows](auto& column) { column.resize(rows); }, calls);
    calls.ts_ns.size_for_fill(rows);
}

// A part's values that did not fit their narrow columns, by the part's own row numbers.
struct PartWideValues {
    std::vector<std::pair<std::size_t, std::int32_t>> thread_index, op_index, ret, stack_id;
    std::vector<std::pair<std::size_t, std::int64_t>> dur_ns, bytes;

    // Stores `value` at `row` of `column`, or marks it there and keeps it for later.
    template <class Column, class Wide>
    static void store(Column& column, std::size_t at, std::size_t row, Wide value,
                      std::vector<std::pair<std::size_t, Wide>>& aside) {
        if (!Column::store(column.narrow_values()[at + row], value)) {
            aside.emplace_back(row, value);
        }
    }
    // Adds them to `out`, whose row `first` is the part's first.
    void add_to(LoadedCallColumns& out, std::size_t first) const {
        auto add = [first](auto& column, const auto& aside) {
            for (const auto& [row, value] : aside) {
                column.add_wide(first + row, value);
            }
        };
        add(out.thread_index, thread_index);
        add(out.op_index, op_index);
        add(out.dur_ns, dur_ns);
        add(out.bytes, bytes);
        add(out.ret, ret);
        add(out.stack_id, stack_id);
    }
};

// The columns read, in CallRow's order.
const std::vector<std::string> kCallColumns{"thread_id", "op_id",       "ts_ns", "dur_ns",
                                            "bytes",     "host_pinned", "ret",   "stack_id"};

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

CallExample example_of(const CallRow& row) {
    return {row.thread_id, row.op_id, row.ts_ns, row.dur_ns, row.bytes, row.ret, row.stack_id};
}

// Makes the values the columns hold fit them: false when one could not be kept as stored.
bool fit_values(CallRow& row, const PlausibleValues& plausible) {
    constexpr std::int64_t kMin32 = std::numeric_limits<std::int32_t>::min();
    constexpr std::int64_t kMax32 = std::numeric_limits<std::int32_t>::max();
    bool fits = true;
    if (row.bytes != -1 && !plausible.amount(row.bytes)) {
        row.bytes = -1;
        fits = false;
    }
    if (row.stack_id != -1 && (row.stack_id < 0 || row.stack_id > kMax32)) {
        row.stack_id = -1;
        fits = false;
    }
    if (row.ret < kMin32 || row.ret > kMax32) {
        row.ret = std::clamp(row.ret, kMin32, kMax32);  // still an error, still its sign
        fits = false;
    }
    // 1 pinned, 0 pageable, whatever else was stored there (NULL stays unknown).
    row.host_pinned = row.host_pinned == -1 ? -1 : row.host_pinned != 0 ? 1 : 0;
    return fits;
}

// What the rows need to be kept.
struct RowChecks {
    const IdLookup& thread_of_id;
    const IdLookup& op_of_id;
    const PlausibleValues& plausible;
};

// Where a part's rows go and what it skipped. A part of the page reader writes into its own
// slice of columns shared by all parts, sized from the leaves' cell counts, so parts read in
// parallel write disjoint slices and nothing is copied afterwards unless rows were skipped. A
// part read with SQL (whose row count is not known up front) writes into columns of its own
// that grow.
class PartWriter {
  public:
    PartWriter(LoadedCallColumns& shared, std::size_t at, std::size_t rows, const RowChecks& checks)
        : c_(&shared), at_(at), room_(rows), checks_(checks) {
        times_.first_row = at;
    }
    // `expected_rows`: how many the part probably holds, so that its columns seldom grow.
    PartWriter(const RowChecks& checks, std::size_t expected_rows)
        : c_(&own_), room_(std::numeric_limits<std::size_t>::max()), checks_(checks) {
        size_columns(own_, expected_rows);
    }
    PartWriter(PartWriter&& other) noexcept
        : counts(other.counts),
          own_(std::move(other.own_)),
          wide_(std::move(other.wide_)),
          times_(std::move(other.times_)),
          c_(other.c_ == &other.own_ ? &own_ : other.c_),
          at_(other.at_),
          room_(other.room_),
          checks_(other.checks_) {}

    // False when the part has no room left for the row (its leaves held more rows than their
    // pages said).
    bool store(CallRow row) {
        std::int32_t thread = checks_.thread_of_id(row.thread_id);
        std::int32_t op = checks_.op_of_id(row.op_id);
        if (thread < 0 || op < 0) {
            ++(thread < 0 ? counts.unknown_thread : counts.unknown_op);
            return true;
        }
        if (!checks_.plausible.interval(row.ts_ns, row.dur_ns)) {
            ++counts.impossible_time;
            if (!counts.first_impossible_time) {
                counts.first_impossible_time = example_of(row);
            }
            return true;
        }
        if (CallRow stored = row; !fit_values(row, checks_.plausible)) {
            ++counts.impossible_values;
            if (!counts.first_impossible_value) {
                counts.first_impossible_value = example_of(stored);
            }
        }
        if (counts.stored == room_) {
            return false;
        }
        const std::size_t k = counts.stored++;
        const std::size_t i = at_ + k;
        if (c_ == &own_ && i >= own_.ts_ns.size()) {
            size_columns(own_, 2 * i + 1024);
        }
        PartWideValues::store(c_->thread_index, at_, k, thread, wide_.thread_index);
        PartWideValues::store(c_->op_index, at_, k, op, wide_.op_index);
        c_->ts_ns.fill(times_, i, row.ts_ns);
        PartWideValues::store(c_->dur_ns, at_, k, row.dur_ns, wide_.dur_ns);
        PartWideValues::store(c_->bytes, at_, k, row.bytes, wide_.bytes);
        c_->host_pinned[i] = static_cast<std::int8_t>(row.host_pinned);
        PartWideValues::store(c_->ret, at_, k, static_cast<std::int32_t>(row.ret), wide_.ret);
        PartWideValues::store(c_->stack_id, at_, k, static_cast<std::int32_t>(row.stack_id),
                              wide_.stack_id);
        counts.last_end_ns = std::max(counts.last_end_ns, row.ts_ns + row.dur_ns);
        return true;
    }

    // Whether the stored rows already lie at index `size` of `out`.
    bool rows_in_place(const LoadedCallColumns& out, std::size_t size) const {
        return c_ == &out && at_ == size;
    }
    // Finishes the timestamps of rows in place, in row order.
    void finish_times() const { c_->ts_ns.finish_fill(times_); }
    // Appends the stored rows' timestamps to `times`.
    void append_times(TimeColumn& times) const {
        for (std::size_t k = 0; k < counts.stored; ++k) {
            times.push_back(c_->ts_ns.value_at(times_, at_ + k));
        }
    }
    // Moves the stored rows but their timestamps to `out` from index `size` on (size <= at_ for
    // a shared slice).
    void move_rows_to(LoadedCallColumns& out, std::size_t size) {
        auto count = static_cast<std::ptrdiff_t>(counts.stored);
        wide_.add_to(out, size);
        if (rows_in_place(out, size)) {
            return;
        }
        for_each_loaded_column(
            [&](auto& from, auto& to) {
                if (to.size() < size + counts.stored) {
                    to.resize(size + counts.stored);
                }
                auto begin = from.begin() + static_cast<std::ptrdiff_t>(at_);
                std::move(begin, begin + count, to.begin() + static_cast<std::ptrdiff_t>(size));
            },
            *c_, out);
        if (c_ == &own_) {
            own_ = {};
        }
    }

    struct Counts {
        std::size_t stored = 0;
        std::int64_t unknown_thread = 0;
        std::int64_t unknown_op = 0;
        std::int64_t impossible_time = 0;
        std::int64_t impossible_values = 0;
        std::optional<CallExample> first_impossible_time;
        std::optional<CallExample> first_impossible_value;
        std::int64_t last_end_ns = 0;
    } counts;

  private:
    LoadedCallColumns own_;
    PartWideValues wide_;
    TimeColumn::PartFill times_;
    LoadedCallColumns* c_;
    std::size_t at_ = 0;
    std::size_t room_;
    const RowChecks& checks_;
};

// Runs `read(p)` for every part, the first on this thread and the others on threads of their
// own, and returns their outcomes once all have finished.
template <class Outcome>
std::vector<Outcome> run_parts(std::size_t parts, const std::function<Outcome(std::size_t)>& read) {
    std::vector<std::future<Outcome>> others;
    for (std::size_t p = 1; p < parts; ++p) {
        others.push_back(std::async(std::launch::async, read, p));
    }
    std::vector<Outcome> outcomes;
    outcomes.push_back(read(0));
    for (auto& other : others) {
        outcomes.push_back(other.get());  // every part is joined before its writer goes away
    }
    return outcomes;
}

// Gathers the parts' rows, in part order, into `out` (which may hold the parts' shared slices)
// and adds up what they skipped.
void gather(std::vector<PartWriter>& writers, LoadedCalls& out) {
    // The timestamps first: finished where they lie when every part's rows do (the usual case),
    // else read into a column of their own before the rows move.
    std::size_t size = 0;
    bool in_place = true;
    for (const PartWriter& writer : writers) {
        in_place = in_place && writer.rows_in_place(out.calls, size);
        size += writer.counts.stored;
    }
    TimeColumn times;
    if (!in_place) {
        times.reserve(size);
    }
    for (const PartWriter& writer : writers) {
        if (in_place) {
            writer.finish_times();
        } else {
            writer.append_times(times);
        }
    }
    size = 0;
    for (PartWriter& writer : writers) {
        writer.move_rows_to(out.calls, size);
        const PartWriter::Counts& c = writer.counts;
        size += c.stored;
        out.unknown_thread += c.unknown_thread;
        out.unknown_op += c.unknown_op;
        out.impossible_time += c.impossible_time;
        out.impossible_values += c.impossible_values;
        if (!out.first_impossible_time) {
            out.first_impossible_time = c.first_impossible_time;
        }
        if (!out.first_impossible_value) {
            out.first_impossible_value = c.first_impossible_value;
        }
        out.last_end_ns = std::max(out.last_end_ns, c.last_end_ns);
    }
    for_each_loaded_column([size](auto& column) { column.resize(size); }, out.calls);
    if (in_place) {
        out.calls.ts_ns.end_fill(size);
    } else {
        out.calls.ts_ns = std::move(times);
    }
}

// A range of rowids, both inclusive.
struct RowidRange {
    std::int64_t first = 0;
    std::int64_t last = 0;
};

// Reads the rows in `rowids` on `db` with SQL, or every row, in the order of the b-tree's cells
// as count(*) counts them, when `rowids` is empty.
Status read_rows_with_sql(const tracedb::Database& db, std::optional<RowidRange> rowids,
                          PartWriter& writer) {
    std::string sql =
        "SELECT thread_id, op_id, ts_ns, dur_ns, bytes, host_pinned, ret, stack_id FROM cuda_call";
    auto stmt = db.prepare(rowids ? sql + " WHERE rowid BETWEEN ? AND ?" : sql);
    if (!stmt) {
        return Error{"cannot read table cuda_call: " + stmt.error().message};
    }
    if (rowids) {
        stmt->bind(1, rowids->first);
        stmt->bind(2, rowids->last);
    }
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

// The whole table with SQL, split by rowid range, one connection per range. In a damaged file
// the rowids may be out of order, which a range would cut short: there it is read in one pass
// in the order of its cells.
Result<LoadedCalls> load_with_sql(const std::string& path, const tracedb::Database& db,
                                  const RowChecks& checks, bool damaged) {
    if (damaged) {
        std::vector<PartWriter> writers;
        writers.emplace_back(checks, 0);
        if (auto status = read_rows_with_sql(db, std::nullopt, writers[0]); !status) {
            return status.error();
        }
        LoadedCalls out;
        gather(writers, out);
        return out;
    }
    auto rows = db.query_int64("SELECT count(*) FROM cuda_call");
    auto first = db.query_int64("SELECT ifnull(min(rowid), 0) FROM cuda_call");
    auto last = db.query_int64("SELECT ifnull(max(rowid), -1) FROM cuda_call");
    if (!rows || !first || !last) {
        return Error{"cannot read table cuda_call: " + db.last_error()};
    }
    // Rowids may span all of int64: the split is computed on their unsigned distance.
    std::size_t count = parts_for(*rows);
    auto span = static_cast<std::uint64_t>(*last) - static_cast<std::uint64_t>(*first);
    std::uint64_t per_part = span / count + 1;
    auto bound = [&](std::size_t p) {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(*first) + p * per_part);
    };
    std::vector<PartWriter> writers;
    for (std::size_t p = 0; p < count; ++p) {
        // Rowids are dense in what the collector writes: a range holds about its width in rows,
        // never more than the table.
        std::uint64_t width = p + 1 == count ? static_cast<std::uint64_t>(*last) -
                                                   static_cast<std::uint64_t>(bound(p)) + 1
                                             : per_part;
        writers.emplace_back(
            checks, static_cast<std::size_t>(std::min(width, static_cast<std::uint64_t>(*rows))));
    }
    auto statuses = run_parts<Status>(count, [&](std::size_t p) -> Status {
        RowidRange rowids{bound(p), p + 1 == count ? *last : bound(p + 1) - 1};
        if (p == 0) {
            return read_rows_with_sql(db, rowids, writers[p]);
        }
        auto own = tracedb::TraceReader::open(path);
        return own ? read_rows_with_sql(own->db(), rowids, writers[p]) : Status{own.error()};
    });
    for (const Status& status : statuses) {
        if (!status) {
            return status.error();
        }
    }
    LoadedCalls out;
    gather(writers, out);
    return out;
}

// The whole table from its b-tree pages, split by leaf into slices sized by the leaves' cells.
tracedb::ScanResult<LoadedCalls> load_from_pages(const tracedb::BtreeTableScan& scan,
                                                 const RowChecks& checks) {
    using tracedb::BtreeTableScan;
    const auto& leaves = scan.leaves();
    std::size_t count = std::min<std::size_t>(parts_for(scan.rows()), leaves.size());
    LoadedCalls out;
    size_columns(out.calls, static_cast<std::size_t>(scan.rows()));
    std::vector<PartWriter> writers;
    std::vector<std::size_t> first_leaf;
    std::size_t at = 0;
    for (std::size_t p = 0; p < count; ++p) {
        std::size_t begin = leaves.size() * p / count;
        std::size_t end = leaves.size() * (p + 1) / count;
        std::size_t rows = 0;
        for (std::size_t leaf = begin; leaf < end; ++leaf) {
            rows += leaves[leaf].cells;
        }
        writers.emplace_back(out.calls, at, rows, checks);
        first_leaf.push_back(begin);
        at += rows;
    }
    first_leaf.push_back(leaves.size());
    auto statuses =
        run_parts<tracedb::ScanStatus>(count, [&](std::size_t p) -> tracedb::ScanStatus {
            BtreeTableScan::Buffer buffer;
            std::vector<BtreeTableScan::Row> rows;
            auto value = [](const BtreeTableScan::Row& row, int column) {
                return row.is_null(column) ? -1 : row.columns[static_cast<std::size_t>(column)];
            };
            for (std::size_t leaf = first_leaf[p]; leaf < first_leaf[p + 1]; ++leaf) {
                if (auto status = scan.read_leaf(leaf, buffer, rows); !status) {
                    return status;
                }
                for (const auto& row : rows) {
                    if (!writers[p].store({.thread_id = value(row, 0),
                                           .op_id = value(row, 1),
                                           .ts_ns = value(row, 2),
                                           .dur_ns = value(row, 3),
                                           .bytes = value(row, 4),
                                           .host_pinned = value(row, 5),
                                           .ret = value(row, 6),
                                           .stack_id = value(row, 7)})) {
                        // read_leaf returns as many rows as the leaf's cell count: never reached.
                        return tracedb::ScanRefusal{
                            tracedb::ScanRefusal::Kind::kDamaged,
                            "cuda_call's leaves hold more rows than counted"};
                    }
                }
            }
            return Ok{};
        });
    // Damage anywhere outweighs what another part merely could not decode.
    const tracedb::ScanStatus* refused = nullptr;
    for (const auto& status : statuses) {
        if (!status && (!refused || status.error().kind == tracedb::ScanRefusal::Kind::kDamaged)) {
            refused = &status;
        }
    }
    if (refused) {
        return refused->error();
    }
    gather(writers, out);
    return out;
}

}  // namespace

IdLookup::IdLookup(const std::unordered_map<std::int64_t, int>& index) {
    // Minted ids count up from 1: a table a few times the number of ids holds them all.
    std::size_t dense_limit = 8 * index.size() + 4096;
    for (const auto& [id, value] : index) {
        if (id >= 0 && static_cast<std::uint64_t>(id) < dense_limit) {
            if (dense_.size() <= static_cast<std::size_t>(id)) {
                dense_.resize(static_cast<std::size_t>(id) + 1, -1);
            }
            dense_[static_cast<std::size_t>(id)] = value;
        } else {
            sparse_.emplace(id, value);
        }
    }
}

Result<LoadedCalls> load_calls(const std::string& path, const IdLookup& thread_of_id,
                               const IdLookup& op_of_id, const PlausibleValues& plausible) {
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
    RowChecks checks{thread_of_id, op_of_id, plausible};
    auto scan = tracedb::BtreeTableScan::open(db, path, "cuda_call", kCallColumns);
    std::optional<tracedb::ScanRefusal> refused;
    if (scan) {
        auto loaded = load_from_pages(*scan, checks);
        if (loaded) {
            return std::move(loaded.value());
        }
        refused = loaded.error();
    } else {
        refused = scan.error();
    }
    auto loaded =
        load_with_sql(path, db, checks, refused->kind == tracedb::ScanRefusal::Kind::kDamaged);
    if (!loaded) {
        return Error{refused->reason +
                     "; reading it with SQL failed too: " + loaded.error().message};
    }
    loaded->read_with_sql_because = std::move(refused);
    return loaded;
}

}  // namespace causeway::analysis
