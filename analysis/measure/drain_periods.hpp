#pragma once
// The drain periods of one thread's device queue (device_queue.hpp), held in 40 bytes a period
// instead of 72: a 100M-call trace's queue holds millions of them. A period's start is the
// previous period's drain, and kept only where it is not; the drain's entry and its time runnable
// are kept as 32-bit distances back from its return, whole where they do not fit; the least and
// most work only where they differ from the estimate. Each period is read back exactly as stored.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <vector>

#include "analysis/model/call_column.hpp"
#include "analysis/model/row_iterator.hpp"

namespace causeway::analysis {

struct DrainPeriod {
    std::int64_t start_ns = 0;           // the previous drain's return: the queue was empty
    std::int64_t drain_entry_ns = 0;     // entry of the call that drained it
    std::int64_t drain_ns = 0;           // its return: the queue is empty again
    std::int64_t drain_runnable_ns = 0;  // runnable but not running inside the drain
    std::uint32_t first_enqueue = 0;     // into DeviceQueue::enqueue_ns
    std::uint32_t enqueues = 0;
    // The device's work in the period (ns): measured when the drain shows when the device finished
    // (it waited on a CPU, or slept until the device woke it). Otherwise it lies within the
    // period's PeriodBounds (period_bounds.hpp) and is estimated from the measured periods, each
    // clamped into that range: their median (device_ns) and their 10th to 90th percentiles
    // (device_low_ns, device_high_ns). Too few measured periods (kMinMeasuredPeriods,
    // kMinMeasuredShare) say nothing of the others: then the periods with as many enqueues narrow
    // each other's range, and device_ns is the work most of their ranges hold.
    std::int64_t device_ns = 0;
    std::int64_t device_low_ns = 0;
    std::int64_t device_high_ns = 0;
    bool waited = false;  // the drain shows when the device finished: device_ns is measured

    std::int64_t span_ns() const { return drain_ns - start_ns; }
    // Whether the device's work is the same at its least, most and estimate (measured).
    bool one_work() const { return device_low_ns == device_ns && device_high_ns == device_ns; }
};

class DrainPeriods {
  public:
    // Reads the periods in order; each is given by value.
    using const_iterator = RowIterator<DrainPeriods>;
    using value_type = DrainPeriod;

    DrainPeriods() = default;
    DrainPeriods(std::initializer_list<DrainPeriod> periods);

    void reserve(std::size_t periods) { stored_.reserve(periods); }
    void push_back(const DrainPeriod& period);
    // Replaces period k (k < size()); the periods after it keep their starts.
    void set(std::size_t k, const DrainPeriod& period);

    DrainPeriod operator[](std::size_t k) const {
        const Stored& s = stored_[k];
        DrainPeriod p;
        p.start_ns = start_ns(k);
        p.drain_entry_ns = s.entry_to_drain != kAside
                               ? s.drain_ns - static_cast<std::int64_t>(s.entry_to_drain)
                               : entries_aside_.at(k);
        p.drain_ns = s.drain_ns;
        p.drain_runnable_ns = s.runnable != kAside ? s.runnable : runnable_aside_.at(k);
        p.first_enqueue = s.first_enqueue;
        p.enqueues = s.enqueues;
        p.device_ns = s.device_ns;
        p.device_low_ns = s.work_range == kOneWork ? s.device_ns : work_ranges_[s.work_range][0];
        p.device_high_ns = s.work_range == kOneWork ? s.device_ns : work_ranges_[s.work_range][1];
        p.waited = s.waited;
        return p;
    }
    DrainPeriod front() const { return (*this)[0]; }
    DrainPeriod back() const { return (*this)[size() - 1]; }
    std::size_t size() const { return stored_.size(); }
    bool empty() const { return stored_.empty(); }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

  private:
    static constexpr std::uint32_t kAside = 0xFFFFFFFF;  // the value is kept whole, aside
    // Stored::work_range of a period of one work (DrainPeriod::one_work).
    static constexpr std::uint32_t kOneWork = 0xFFFFFFFF;
    struct Stored {
        std::int64_t drain_ns = 0;
        std::int64_t device_ns = 0;
        std::uint32_t entry_to_drain = 0;  // drain_ns - drain_entry_ns
        std::uint32_t runnable = 0;        // drain_runnable_ns
        std::uint32_t first_enqueue = 0;
        std::uint32_t enqueues = 0;
        std::uint32_t work_range = kOneWork;  // into work_ranges_
        bool waited = false;
    };

    std::int64_t start_ns(std::size_t k) const {
        if (k == 0) {
            return first_start_ns_;
        }
        if (!starts_aside_.empty()) {
            if (auto aside = starts_aside_.find(k); aside != starts_aside_.end()) {
                return aside->second;
            }
        }
        return stored_[k - 1].drain_ns;
    }
    // Keeps `period` as period k (k <= size()), its start against the period before it.
    Stored store(std::size_t k, const DrainPeriod& period, std::uint32_t work_range);
    // Keeps period k's start (k < size()) against the period before it.
    void keep_start(std::size_t k, std::int64_t start_ns);

    CallColumn<Stored> stored_;
    std::int64_t first_start_ns_ = 0;
    // device_low_ns, device_high_ns of the periods whose range is not their estimate; a range no
    // period reads any more (set() gave it one work) stays unread.
    std::vector<std::array<std::int64_t, 2>> work_ranges_;
    // By period: where the start is not the previous drain, and where a distance did not fit.
    std::map<std::size_t, std::int64_t> starts_aside_;
    std::map<std::size_t, std::int64_t> entries_aside_;
    std::map<std::size_t, std::int64_t> runnable_aside_;
};

}  // namespace causeway::analysis
