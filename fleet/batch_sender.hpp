#pragma once
// Sends batches of rows (Native blocks: native_block.hpp) to ClickHouse on threads of its own
// while the caller encodes the next one: reading the trace and the server's inserts overlap
// instead of taking turns. Several batches are in flight at once, one INSERT each: the server
// stores them side by side, which matters most for a trace's many small tables (each INSERT makes
// a part, about 15 ms however few its rows). At most one batch waits, so memory stays at the
// senders' count plus one batch.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/result.hpp"
#include "fleet/clickhouse_client.hpp"

namespace causeway::fleet {

class BatchSender {
  public:
    // `senders` batches are sent at once. `after_batch` (may be empty) is called on a sending
    // thread after each batch is stored, with the count stored so far.
    BatchSender(const ClickHouseClient& client, std::size_t senders,
                std::function<void(std::uint64_t batches_sent)> after_batch);
    ~BatchSender();  // sends what waits, then stops
    BatchSender(const BatchSender&) = delete;
    BatchSender& operator=(const BatchSender&) = delete;

    // Queues the block `rows` for INSERT INTO `table` (`columns`), waiting while a batch already
    // waits. Once a batch has failed nothing more is sent, and this returns its error.
    Status send(std::string table, std::string columns, std::string rows);
    // An empty buffer with the capacity of a batch already sent, for the next one (or a new
    // buffer, when none is free).
    std::string spare_buffer();
    // Waits until every queued batch is stored; the first error, if one failed.
    Status finish();

    std::uint64_t bytes_sent() const;

  private:
    struct Batch {
        std::string table;
        std::string columns;
        std::string rows;
    };
    void run();

    const ClickHouseClient& client_;
    std::function<void(std::uint64_t)> after_batch_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::optional<Batch> waiting_;
    std::string spare_;        // the rows of the last batch sent, emptied
    std::size_t sending_ = 0;  // batches in flight
    bool stopping_ = false;
    std::optional<Error> failed_;
    std::uint64_t batches_sent_ = 0;
    std::uint64_t bytes_sent_ = 0;
    std::vector<std::thread> threads_;  // last: they start once the rest is made
};

}  // namespace causeway::fleet
