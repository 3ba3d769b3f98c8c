#pragma once
// Intervals of one thread's time with a weight each, held in 8 bytes an interval: a cause's list
// can hold an interval per call. Each interval is read back exactly as added. Intervals come in
// chunks of 256: a start is kept as its 32-bit offset from its chunk's first start, and a length in
// 32 bits; a weight is kept once for a run of intervals that share it, and once for a chunk whose
// intervals all share one. A start or an end that does not fit is kept aside, whole.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <vector>

#include "analysis/model/row_iterator.hpp"

namespace causeway::analysis {

// Part of a GPU-driving thread's time that a cause accounts for: `weight` of [start_ns, end_ns)
// (a share, when the time is split among causes). Per thread, sorted and disjoint.
struct WeightedInterval {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    double weight = 1.0;
};

class IntervalList {
  public:
    // Reads the intervals in order; each is given by value.
    using const_iterator = RowIterator<IntervalList>;
    using value_type = WeightedInterval;

    IntervalList() = default;
    IntervalList(std::initializer_list<WeightedInterval> intervals);

    void push_back(const WeightedInterval& interval);
    // Replaces interval k (k < size()).
    void set(std::size_t k, const WeightedInterval& interval);
    // Keeps the first `count` intervals.
    void truncate(std::size_t count);

    WeightedInterval operator[](std::size_t k) const {
        const Chunk& chunk = chunks_[k >> kChunkShift];
        const std::size_t i = k & (kChunk - 1);
        const std::int64_t start = start_in(chunk, i, k);
        const std::uint32_t length = chunk.spans[i].length;
        return {start,
                length != kAside ? start + static_cast<std::int64_t>(length) : long_ends_.at(k),
                weights_[chunk.weights.empty() ? chunk.weight : chunk.weights[i]]};
    }
    std::int64_t start_ns(std::size_t k) const {
        return start_in(chunks_[k >> kChunkShift], k & (kChunk - 1), k);
    }
    WeightedInterval back() const { return (*this)[size() - 1]; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

  private:
    static constexpr std::uint32_t kAside = 0xFFFFFFFF;  // the value is in far_starts_/long_ends_
    static constexpr unsigned kChunkShift = 8;
    static constexpr std::size_t kChunk = std::size_t{1} << kChunkShift;
    struct Span {
        std::uint32_t offset;  // start_ns - Chunk::base_ns
        std::uint32_t length;  // end_ns - start_ns
    };
    struct Chunk {
        std::int64_t base_ns = 0;  // the start its offsets are from: its first interval's
        std::vector<Span> spans;
        // Into weights_: one for every interval of the chunk while they share it (weights
        // empty), else one each.
        std::uint32_t weight = 0;
        std::vector<std::uint32_t> weights;
    };

    std::int64_t start_in(const Chunk& chunk, std::size_t i, std::size_t k) const {
        const std::uint32_t offset = chunk.spans[i].offset;
        return offset != kAside ? chunk.base_ns + static_cast<std::int64_t>(offset)
                                : far_starts_.at(k);
    }
    // `interval` as interval k of `chunk`, its start or end kept aside where it does not fit.
    Span span(const Chunk& chunk, std::size_t k, const WeightedInterval& interval);
    std::uint32_t weight_index(double weight);

    // In chunks: lists as long as a trace's calls grow without copying, and without holding twice
    // what they need while they grow.
    std::vector<Chunk> chunks_;
    std::size_t size_ = 0;
    std::vector<double> weights_;
    std::map<std::size_t, std::int64_t> far_starts_;  // by position
    std::map<std::size_t, std::int64_t> long_ends_;   // by position
};

}  // namespace causeway::analysis
