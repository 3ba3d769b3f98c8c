#include "analysis/measure/interval_list.hpp"

#include <cstring>

namespace causeway::analysis {
namespace {

// Weights are compared by their bits: 0.0 and -0.0, or two NaNs, are each kept as they were.
bool same_bits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// `to - from` when it fits below `aside` (unsigned: the difference of hostile values may not fit
// int64); else `aside`.
std::uint32_t narrow_difference(std::int64_t from, std::int64_t to, std::uint32_t aside) {
    const std::uint64_t difference =
        static_cast<std::uint64_t>(to) - static_cast<std::uint64_t>(from);
    return to >= from && difference < aside ? static_cast<std::uint32_t>(difference) : aside;
}

// Keeps `value` at position k of `aside` when it was not stored in place, and forgets an earlier
// value of k that was.
void keep_aside(std::map<std::size_t, std::int64_t>& aside, std::size_t k, bool in_place,
                std::int64_t value) {
    if (!in_place) {
        aside[k] = value;
    } else if (!aside.empty()) {
        aside.erase(k);
    }
}

}  // namespace

IntervalList::IntervalList(std::initializer_list<WeightedInterval> intervals) {
    for (const WeightedInterval& i : intervals) {
        push_back(i);
    }
}

std::uint32_t IntervalList::weight_index(double weight) {
    if (weights_.empty() || !same_bits(weights_.back(), weight)) {
        weights_.push_back(weight);
    }
    return static_cast<std::uint32_t>(weights_.size() - 1);
}

void IntervalList::store(std::size_t k, const WeightedInterval& interval) {
    Chunk& chunk = chunks_[k >> kChunkShift];
    const std::size_t i = k & (kChunk - 1);
    Span& span = chunk.spans[i];
    span.offset = narrow_difference(chunk.base_ns, interval.start_ns, kAside);
    span.length = narrow_difference(interval.start_ns, interval.end_ns, kAside);
    keep_aside(far_starts_, k, span.offset != kAside, interval.start_ns);
    keep_aside(long_ends_, k, span.length != kAside, interval.end_ns);
    const std::uint32_t weight = weight_index(interval.weight);
    if (i == 0 && chunk.spans.size() == 1) {
        chunk.weight = weight;
    } else if (chunk.weights.empty() && weight != chunk.weight) {
        chunk.weights.assign(chunk.spans.size(), chunk.weight);
    }
    if (!chunk.weights.empty()) {
        chunk.weights.resize(chunk.spans.size(), chunk.weight);
        chunk.weights[i] = weight;
    }
}

void IntervalList::push_back(const WeightedInterval& interval) {
    if ((size_ & (kChunk - 1)) == 0) {
        Chunk& chunk = chunks_.emplace_back();
        chunk.base_ns = interval.start_ns;
        chunk.spans.reserve(kChunk);
    }
    chunks_.back().spans.emplace_back();
    store(size_, interval);
    ++size_;
}

void IntervalList::set(std::size_t k, const WeightedInterval& interval) {
    store(k, interval);
}

void IntervalList::truncate(std::size_t count) {
    if (count >= size_) {
        return;
    }
    chunks_.resize((count + kChunk - 1) >> kChunkShift);
    if (!chunks_.empty()) {
        Chunk& last = chunks_.back();
        last.spans.resize(count - ((chunks_.size() - 1) << kChunkShift));
        if (!last.weights.empty()) {
            last.weights.resize(last.spans.size());
        }
    }
    size_ = count;
    far_starts_.erase(far_starts_.lower_bound(count), far_starts_.end());
    long_ends_.erase(long_ends_.lower_bound(count), long_ends_.end());
}

}  // namespace causeway::analysis
