#pragma once
// What each drain period's drain says of the device's work (device_queue.hpp), held in 12 bytes a
// period instead of 24 while the queue is measured: a 100M-call trace's queue holds millions of
// periods, and their bounds are alive when its analysis holds the most. The least and most work
// are kept as 32-bit nanoseconds, and the device's finish as a 32-bit distance back from the
// period's drain, each whole, aside, where it does not fit. Each is read back exactly as stored.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/model/compact_column.hpp"

namespace causeway::analysis {

// For a drain that kept its CPU, the work lies between nothing and the most that finished before
// it was called; for one that lost its CPU, between what finished by the last moment it was seen
// waiting and what finished by its return.
struct PeriodBounds {
    std::int64_t device_done_ns = -1;  // waited: when the device finished; -1 otherwise
    std::int64_t device_min_ns = 0;
    std::int64_t device_max_ns = 0;
};

class PeriodBoundsList {
  public:
    void reserve(std::size_t periods) { stored_.reserve(periods); }
    // The bounds of the next period, whose drain returned at `drain_ns`.
    void push_back(const PeriodBounds& bounds, std::int64_t drain_ns);
    // Period k's bounds (k < size()); `drain_ns` as given to push_back.
    PeriodBounds at(std::size_t k, std::int64_t drain_ns) const;
    std::size_t size() const { return stored_.size(); }
    std::size_t bytes() const {
        return stored_.capacity() * sizeof(Stored) + mins_aside_.bytes() + maxes_aside_.bytes() +
               done_aside_.bytes();
    }

  private:
    static constexpr std::uint32_t kAside = 0xFFFFFFFF;    // the value is kept whole, aside
    static constexpr std::uint32_t kNotDone = 0xFFFFFFFE;  // device_done_ns is -1
    struct Stored {
        std::uint32_t min = 0;
        std::uint32_t max = 0;
        std::uint32_t done_to_drain = kNotDone;  // drain_ns - device_done_ns
    };

    CallColumn<Stored> stored_;
    WideValues<std::int64_t> mins_aside_;
    WideValues<std::int64_t> maxes_aside_;
    WideValues<std::int64_t> done_aside_;
};

}  // namespace causeway::analysis
