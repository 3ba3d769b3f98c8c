#include "fleet/batch_sender.hpp"

#include <algorithm>
#include <utility>

namespace causeway::fleet {

BatchSender::BatchSender(const ClickHouseClient& client, std::size_t senders,
                         std::function<void(std::uint64_t batches_sent)> after_batch)
    : client_(client), after_batch_(std::move(after_batch)) {
    for (std::size_t sender = 0; sender < std::max<std::size_t>(senders, 1); ++sender) {
        threads_.emplace_back([this] { run(); });
    }
}

BatchSender::~BatchSender() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& thread : threads_) {
        thread.join();
    }
}

Status BatchSender::send(std::string table, std::string columns, std::string rows) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !waiting_ || failed_; });
    if (failed_) {
        return *failed_;
    }
    waiting_ = Batch{std::move(table), std::move(columns), std::move(rows)};
    changed_.notify_all();
    return Ok{};
}

Status BatchSender::finish() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return (!waiting_ && sending_ == 0) || failed_; });
    if (failed_) {
        return *failed_;
    }
    return Ok{};
}

std::string BatchSender::spare_buffer() {
    std::lock_guard lock(mutex_);
    return std::exchange(spare_, {});
}

std::uint64_t BatchSender::bytes_sent() const {
    std::lock_guard lock(mutex_);
    return bytes_sent_;
}

void BatchSender::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        // Once a batch has failed nothing more is sent: the senders wait to be stopped.
        changed_.wait(lock, [this] { return (waiting_ && !failed_) || stopping_; });
        if (!waiting_ || failed_) {
            return;  // stopping, nothing left to send
        }
        Batch batch = std::move(*waiting_);
        waiting_.reset();
        ++sending_;
        changed_.notify_all();
        lock.unlock();
        Status sent = client_.insert_native(batch.table, batch.columns, batch.rows);
        std::uint64_t stored = 0;
        lock.lock();
        --sending_;
        if (!sent) {
            if (!failed_) {  // the first error is the one said
                failed_ = sent.error();
            }
            waiting_.reset();
        } else {
            bytes_sent_ += batch.rows.size();
            stored = ++batches_sent_;
            if (batch.rows.capacity() >= spare_.capacity()) {  // the larger one is kept
                batch.rows.clear();
                spare_ = std::move(batch.rows);
            }
        }
        changed_.notify_all();
        if (sent && after_batch_) {
            lock.unlock();
            after_batch_(stored);
            lock.lock();
        }
    }
}

}  // namespace causeway::fleet
