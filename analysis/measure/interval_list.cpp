#include "analysis/measure/interval_list.hpp"

#include <cstring>

#include "analysis/model/compact_column.hpp"

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

std::uint32_t IntervalList::weight_index(double weight) {
    if (weights_.empty() || !same_bits(weights_.back(), weight)) {
        weights_.push_back(weight);
    }
    return static_cast<std::uint32_t>(weights_.size() - 1);
}

IntervalList::Span IntervalList::span(const Chunk& chunk, std::size_t k,
                                      const WeightedInterval& interval) {
    const Span span{narrow_distance(chunk.base_ns, interval.start_ns, kAside),
                    narrow_distance(interval.start_ns, interval.end_ns, kAside)};
    if (span.offset == kAside) {
        far_starts_[k] = interval.start_ns;
    }
    if (span.length == kAside) {
        long_ends_[k] = interval.end_ns;
    }
    return span;
}

void IntervalList::push_back(const WeightedInterval& interval) {
    if ((size_ & (kChunk - 1)) == 0) {
        Chunk& chunk = chunks_.emplace_back();
        chunk.base_ns = interval.start_ns;
        chunk.spans.reserve(kChunk);
    }
    Chunk& chunk = chunks_.back();
    chunk.spans.push_back(span(chunk, size_, interval));
    const std::uint32_t weight = weight_index(interval.weight);
    if (chunk.spans.size() == 1) {
        chunk.weight = weight;
    } else if (!chunk.weights.empty() || weight != chunk.weight) {
        chunk.weights.resize(chunk.spans.size() - 1, chunk.weight);
        chunk.weights.push_back(weight);
    }
    ++size_;
}

void IntervalList::set(std::size_t k, const WeightedInterval& interval) {
    for (auto* aside : {&far_starts_, &long_ends_}) {
        if (!aside->empty()) {
            aside->erase(k);
        }
    }
    Chunk& chunk = chunks_[k >> kChunkShift];
    const std::size_t i = k & (kChunk - 1);
    chunk.spans[i] = span(chunk, k, interval);
    const std::uint32_t weight = weight_index(interval.weight);
    if (chunk.weights.empty() && weight != chunk.weight) {
        chunk.weights.assign(chunk.spans.size(), chunk.weight);
    }
    if (!chunk.weights.empty()) {
        chunk.weights[i] = weight;
    }
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
