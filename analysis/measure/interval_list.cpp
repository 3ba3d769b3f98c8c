#include "analysis/measure/interval_list.hpp"

#include <cstring>

namespace causeway::analysis {
namespace {

// Weights are compared by their bits: 0.0 and -0.0, or two NaNs, are each kept as they were.
bool same_bits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

IntervalList::IntervalList(std::initializer_list<WeightedInterval> intervals) {
    for (const WeightedInterval& i : intervals) {
        push_back(i);
    }
}

IntervalList::Stored IntervalList::stored(std::size_t k, const WeightedInterval& interval) {
    if (weights_.empty() || !same_bits(weights_.back(), interval.weight)) {
        weights_.push_back(interval.weight);
    }
    // Unsigned: the length of a hostile interval may not fit int64.
    const std::uint64_t length =
        static_cast<std::uint64_t>(interval.end_ns) - static_cast<std::uint64_t>(interval.start_ns);
    const bool fits = interval.end_ns >= interval.start_ns && length < kLong;
    if (fits) {
        if (!long_ends_.empty()) {
            long_ends_.erase(k);
        }
    } else {
        long_ends_[k] = interval.end_ns;
    }
    return {interval.start_ns, fits ? static_cast<std::uint32_t>(length) : kLong,
            static_cast<std::uint32_t>(weights_.size() - 1)};
}

void IntervalList::push_back(const WeightedInterval& interval) {
    if ((size_ & (kChunk - 1)) == 0) {
        chunks_.emplace_back().reserve(kChunk);
    }
    chunks_.back().push_back(stored(size_, interval));
    ++size_;
}

void IntervalList::set(std::size_t k, const WeightedInterval& interval) {
    at(k) = stored(k, interval);
}

void IntervalList::truncate(std::size_t count) {
    if (count >= size_) {
        return;
    }
    chunks_.resize((count + kChunk - 1) >> kChunkShift);
    if (!chunks_.empty()) {
        chunks_.back().resize(count - ((chunks_.size() - 1) << kChunkShift));
    }
    size_ = count;
    long_ends_.erase(long_ends_.lower_bound(count), long_ends_.end());
}

}  // namespace causeway::analysis
