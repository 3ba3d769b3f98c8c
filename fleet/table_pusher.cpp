#include "fleet/table_pusher.hpp"

#include <sqlite3.h>

#include <algorithm>

namespace causeway::fleet {
namespace {

// The Native columns of a pushed table's rows: the owner's (kOwnerColumns), then the table's.
std::vector<NativeColumn> native_columns(const TraceTable& table) {
    std::vector<NativeColumn> columns{{"job", NativeType::kString, false},
                                      {"node", NativeType::kString, false},
                                      {"push_id", NativeType::kString, false},
                                      {"attempt", NativeType::kUInt64, false},
                                      {"row_index", NativeType::kUInt64, false}};
    for (const TraceColumn& column : table.columns) {
        const NativeType type = column.kind == ColumnKind::kInt64     ? NativeType::kInt64
                                : column.kind == ColumnKind::kFloat64 ? NativeType::kFloat64
                                                                      : NativeType::kString;
        columns.push_back({column.name, type, !column.not_null});
    }
    return columns;
}

// Whether every column of the table holds integers: the page reader reads only those.
bool integers_only(const TraceTable& table) {
    for (const TraceColumn& column : table.columns) {
        if (column.kind != ColumnKind::kInt64) {
            return false;
        }
    }
    return true;
}

std::optional<std::size_t> column_index(const TraceTable& table, const std::string& name) {
    for (std::size_t col = 0; col < table.columns.size(); ++col) {
        if (table.columns[col].name == name) {
            return col;
        }
    }
    return std::nullopt;
}

std::vector<std::string> column_names(const TraceTable& table) {
    std::vector<std::string> names;
    for (const TraceColumn& column : table.columns) {
        names.push_back(column.name);
    }
    return names;
}

}  // namespace

std::vector<std::uint32_t> thread_time_order(std::vector<SortKey>& keys) {
    constexpr std::size_t kMostThreads = 256;                   // past it, one sort of them all
    std::vector<std::pair<std::int64_t, std::size_t>> threads;  // id, rows; by id
    for (const SortKey& key : keys) {
        auto at = std::lower_bound(threads.begin(), threads.end(),
                                   std::pair<std::int64_t, std::size_t>{key.thread_id, 0});
        if (at == threads.end() || at->first != key.thread_id) {
            if (threads.size() == kMostThreads) {
                threads.clear();
                break;
            }
            at = threads.insert(at, {key.thread_id, 0});
        }
        ++at->second;
    }
    std::vector<SortKey> dealt;
    if (threads.empty() && !keys.empty()) {
        std::sort(keys.begin(), keys.end());
    } else {
        std::vector<std::size_t> next(threads.size());
        for (std::size_t t = 1; t < threads.size(); ++t) {
            next[t] = next[t - 1] + threads[t - 1].second;
        }
        dealt.resize(keys.size());
        for (const SortKey& key : keys) {
            auto at = std::lower_bound(threads.begin(), threads.end(),
                                       std::pair<std::int64_t, std::size_t>{key.thread_id, 0});
            dealt[next[static_cast<std::size_t>(at - threads.begin())]++] = key;
        }
        for (std::size_t t = 0, begin = 0; t < threads.size(); begin = next[t++]) {
            if (!std::is_sorted(dealt.begin() + begin, dealt.begin() + next[t])) {
                std::sort(dealt.begin() + begin, dealt.begin() + next[t]);
            }
        }
        keys.swap(dealt);
    }
    std::vector<std::uint32_t> order;
    order.reserve(keys.size());
    for (const SortKey& key : keys) {
        order.push_back(key.row);
    }
    return order;
}

TablePusher::TablePusher(const ClickHouseClient& client, std::size_t batch_rows,
                         std::function<void(std::uint64_t batches_sent)> after_batch,
                         const RowOwner& owner)
    : batch_rows_(batch_rows), owner_(owner), sender_(client, kSenders, std::move(after_batch)) {}

// Ends the row; `value(col)` gives its integer in column col, for the sort key and the
// per-thread sums.
template <class Value>
Status TablePusher::end_row(const Value& value) {
    if (calls_) {
        calls_->add(value(call_columns_[0]), value(call_columns_[1]), value(call_columns_[2]));
    }
    if (sort_columns_) {
        keys_.push_back({value(sort_columns_->first), value(sort_columns_->second),
                         static_cast<std::uint32_t>(block_->rows())});
    }
    block_->end_row();
    // A table's first batch is an eighth of the others: the server starts storing it while
    // the rest is read, instead of waiting for a whole batch to be read first.
    const std::size_t batch =
        rows_ == block_->rows() ? std::max<std::size_t>(batch_rows_ / 8, 1) : batch_rows_;
    return block_->rows() == batch ? send() : Status(Ok{});
}

Status TablePusher::push(const tracedb::TraceReader& trace, const TraceTable& table,
                         ThreadCallSummary* calls, std::uint64_t& rows_out) {
    table_ = &table;
    const auto thread_id = column_index(table, "thread_id");
    const auto ts_ns = column_index(table, "ts_ns");
    const auto dur_ns = column_index(table, "dur_ns");
    calls_ = calls;
    if (calls) {
        if (!thread_id || !ts_ns || !dur_ns) {
            return Error{"table " + table.name + " has no thread_id, ts_ns and dur_ns to sum"};
        }
        call_columns_ = {*thread_id, *ts_ns, *dur_ns};
    }
    block_.emplace(native_columns(table));
    block_->repeat_string(0, owner_.job);
    block_->repeat_string(1, owner_.node);
    block_->repeat_string(2, owner_.push_id);
    block_->repeat_uint64(3, owner_.attempt);
    sort_columns_.reset();
    if (table.thread_time_ordered && thread_id && ts_ns) {  // it has both (trace_tables.hpp)
        sort_columns_ = {*thread_id, *ts_ns};
    }
    insert_columns_ = std::string(kOwnerColumns) + ", " + column_list(table);
    rows_ = 0;
    std::optional<std::int64_t> last_rowid;
    bool all_read = false;
    if (integers_only(table)) {
        auto scan = tracedb::BtreeTableScan::open(trace.db(), trace.path(), table.name,
                                                  column_names(table));
        if (scan) {
            block_->reserve(
                static_cast<std::size_t>(std::min<std::int64_t>(scan->rows(), batch_rows_)));
            auto read = add_from_pages(*scan, last_rowid);
            if (!read) {
                return read.error();
            }
            all_read = *read;
        }
    }
    if (!all_read) {
        if (auto read = add_with_sql(trace, last_rowid); !read) {
            return read;
        }
    }
    rows_out = rows_;
    return block_->rows() == 0 ? Status(Ok{}) : send();
}

// The rows of the table's leaves, in rowid order, up to the first leaf the page reader
// refuses: whether it read them all. `last_rowid` is the last row's.
Result<bool> TablePusher::add_from_pages(const tracedb::BtreeTableScan& scan,
                                         std::optional<std::int64_t>& last_rowid) {
    tracedb::BtreeTableScan::Buffer buffer;
    std::vector<tracedb::BtreeTableScan::Row> rows;
    const std::size_t columns = table_->columns.size();
    for (std::size_t leaf = 0; leaf < scan.leaves().size(); ++leaf) {
        if (!scan.read_leaf(leaf, buffer, rows)) {
            return false;
        }
        for (const auto& row : rows) {
            begin_row();
            for (std::size_t col = 0; col < columns; ++col) {
                if (row.is_null(static_cast<int>(col))) {
                    block_->null(kOwnerColumnCount + col);
                } else {
                    block_->int64(kOwnerColumnCount + col, row.columns[col]);
                }
            }
            if (auto sent = end_row([&row](std::size_t col) { return row.columns[col]; }); !sent) {
                return sent.error();
            }
            last_rowid = row.rowid;
        }
    }
    return true;
}

// The table's rows read with SQL: all of them, or those after `after_rowid`.
Status TablePusher::add_with_sql(const tracedb::TraceReader& trace,
                                 std::optional<std::int64_t> after_rowid) {
    const std::string& name = table_->name;
    auto select = trace.db().prepare("SELECT " + column_list(*table_) + " FROM " + name +
                                     (after_rowid ? " WHERE rowid > ?1" : ""));
    if (!select) {
        return Error{"cannot read table " + name + " of " + trace.path() + ": " +
                     select.error().message};
    }
    if (after_rowid) {
        select->bind(1, *after_rowid);
    }
    int step = 0;
    while ((step = select->step()) == SQLITE_ROW) {
        begin_row();
        for (std::size_t col = 0; col < table_->columns.size(); ++col) {
            add_value(*select, col);
        }
        const auto value = [&select](std::size_t col) {
            return select->column_int64(static_cast<int>(col));
        };
        if (auto sent = end_row(value); !sent) {
            return sent;
        }
    }
    if (step != SQLITE_DONE) {
        return Error{"cannot read table " + name + " of " + trace.path() + ": " +
                     trace.db().last_error()};
    }
    return Ok{};
}

void TablePusher::add_value(const tracedb::Statement& row, std::size_t col) {
    const TraceColumn& column = table_->columns[col];
    const std::size_t at = kOwnerColumnCount + col;
    const int index = static_cast<int>(col);
    if (!column.not_null && row.column_is_null(index)) {
        block_->null(at);
        return;
    }
    switch (column.kind) {
        case ColumnKind::kInt64:
            block_->int64(at, row.column_int64(index));
            break;
        case ColumnKind::kFloat64:
            block_->float64(at, row.column_double(index));
            break;
        case ColumnKind::kString:
            block_->string(at, row.column_text(index));
            break;
    }
}

// Sends the block; a table ordered by (thread_id, ts_ns) in ClickHouse goes in that order,
// which the server writes without sorting it (a third of an insert's time, measured).
Status TablePusher::send() {
    std::vector<std::uint32_t> order;
    if (sort_columns_) {
        order = thread_time_order(keys_);
        keys_.clear();
    }
    std::string block = sender_.spare_buffer();
    if (auto taken = block_->take(order, block); !taken) {
        return taken;
    }
    return sender_.send(clickhouse_table(table_->name), insert_columns_, std::move(block));
}

}  // namespace causeway::fleet
