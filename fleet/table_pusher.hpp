#pragma once
// Sends the rows of one trace table to ClickHouse as a push does: read from the table's b-tree
// pages where the page reader can (tracedb/btree_scan.hpp: several times cheaper than SQLite's
// row by row), with SQL where it cannot, from the first row it could not read; written as Native
// blocks (native_block.hpp) of batch_rows rows (a table's first an eighth, so that the server
// starts storing while the rest is read), each sorted by (thread_id, ts_ns) where ClickHouse
// keeps the table in that order (it then writes a block without sorting it: a third of an
// insert's time, measured); sent by a BatchSender while the next block is read.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "fleet/batch_sender.hpp"
#include "fleet/clickhouse_client.hpp"
#include "fleet/native_block.hpp"
#include "fleet/thread_call_summary.hpp"
#include "fleet/trace_tables.hpp"
#include "tracedb/btree_scan.hpp"
#include "tracedb/reader.hpp"

namespace causeway::fleet {

// Whose rows a push sends: the values of kOwnerColumns but row_index.
struct RowOwner {
    std::string job;
    std::string node;
    std::string push_id;
    std::uint64_t attempt = 0;
};

// A row's place in the order of a thread_time_ordered table.
struct SortKey {
    std::int64_t thread_id = 0;
    std::int64_t ts_ns = 0;
    std::uint32_t row = 0;  // in its block
    auto operator<=>(const SortKey&) const = default;
};

// The rows of `keys` (listed in row order) by (thread_id, ts_ns, row). A thread's calls come in
// time order nearly always, so the rows are dealt out by thread, keeping their order, and a
// thread's run is sorted only when it is out of order: one pass instead of a sort of them all.
std::vector<std::uint32_t> thread_time_order(std::vector<SortKey>& keys);

class TablePusher {
  public:
    TablePusher(const ClickHouseClient& client, std::size_t batch_rows,
                std::function<void(std::uint64_t batches_sent)> after_batch, const RowOwner& owner);

    // Sends the rows of `table`, counting them in `rows_out`. `calls` (may be null) adds them up
    // per thread: the table's thread_id, ts_ns and dur_ns.
    Status push(const tracedb::TraceReader& trace, const TraceTable& table,
                ThreadCallSummary* calls, std::uint64_t& rows_out);
    // Waits until every batch is stored.
    Status finish() { return sender_.finish(); }
    std::uint64_t bytes_sent() const { return sender_.bytes_sent(); }

  private:
    // The next row's place in its table; the caller adds the table's values (the owner's are
    // the block's, repeated).
    void begin_row() { block_->uint64(kOwnerColumnCount - 1, rows_++); }
    template <class Value>
    Status end_row(const Value& value);
    Result<bool> add_from_pages(const tracedb::BtreeTableScan& scan,
                                std::optional<std::int64_t>& last_rowid);
    Status add_with_sql(const tracedb::TraceReader& trace, std::optional<std::int64_t> after_rowid);
    void add_value(const tracedb::Statement& row, std::size_t col);
    Status send();

    static constexpr std::size_t kOwnerColumnCount = 5;  // kOwnerColumns, row_index last
    static constexpr std::size_t kSenders = 2;           // INSERTs in flight at once
    std::size_t batch_rows_;
    const RowOwner& owner_;
    BatchSender sender_;
    const TraceTable* table_ = nullptr;
    std::optional<NativeBlockWriter> block_;
    // The table's thread_id and ts_ns columns, when ClickHouse orders its rows by them.
    std::optional<std::pair<std::size_t, std::size_t>> sort_columns_;
    std::vector<SortKey> keys_;  // of the block's rows
    ThreadCallSummary* calls_ = nullptr;
    std::array<std::size_t, 3> call_columns_{};  // thread_id, ts_ns, dur_ns
    std::string insert_columns_;
    std::uint64_t rows_ = 0;  // of the table, read so far
};

}  // namespace causeway::fleet
