#include "fleet/batch_sender.hpp"

#include <utility>

namespace causeway::fleet {

BatchSender::BatchSender(const ClickHouseClient& client,
                         std::function<void(std::uint64_t batches_sent)> after_batch)
    : client_(client), after_batch_(std::move(after_batch)), thread_([this] { run(); }) {}

BatchSender::~BatchSender() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
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
    changed_.wait(lock, [this] { return (!waiting_ && !sending_) || failed_; });
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
        changed_.wait(lock, [this] { return waiting_ || stopping_; });
        if (!waiting_) {
            return;  // stopping, nothing left
        }
        Batch batch = std::move(*waiting_);
        waiting_.reset();
        sending_ = true;
        changed_.notify_all();
        lock.unlock();
        Status sent = client_.insert_native(batch.table, batch.columns, batch.rows);
        std::uint64_t stored = 0;
        lock.lock();
        sending_ = false;
        if (!sent) {
            failed_ = sent.error();
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
        if (failed_) {
            changed_.wait(lock, [this] { return stopping_; });
            return;
        }
    }
}

}  // namespace causeway::fleet
