#pragma once
// The accounted calls of one thread in a filter: its calls in time order (indices into
// model.calls), less the driver calls made inside runtime calls and the calls the filter leaves
// out. A view, read as it is walked and not held: the GPU-driving thread of a 100M-call trace
// makes most of its calls, and a list of them would cost 4 bytes a call while the device's queue
// and the causes' timelines are built beside each other.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "analysis/model/trace_filter.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

class AccountedCalls {
    using CallsOfThread = decltype(TraceModel::calls_by_thread)::value_type;

  public:
    class iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = std::uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::uint32_t;

        iterator() = default;
        iterator(const AccountedCalls* view, std::size_t at) : view_(view), at_(at) {
            skip_left_out();
        }
        reference operator*() const { return call_; }
        iterator& operator++() {
            ++at_;
            skip_left_out();
            return *this;
        }
        iterator operator++(int) {
            iterator was = *this;
            ++*this;
            return was;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

      private:
        // Each call is read from the compact list once, here, and kept for operator*.
        void skip_left_out() {
            const CallsOfThread& calls = *view_->of_thread_;
            for (; at_ != calls.size(); ++at_) {
                call_ = calls[at_];
                if (view_->accounted(call_)) {
                    return;
                }
            }
        }

        const AccountedCalls* view_ = nullptr;
        std::size_t at_ = 0;
        std::uint32_t call_ = 0;
    };

    AccountedCalls(const TraceModel& model, const ResolvedFilter& filter, int thread_index)
        : model_(&model),
          filter_(&filter),
          of_thread_(&model.calls_by_thread[static_cast<std::size_t>(thread_index)]),
          thread_selected_(filter.thread_selected(thread_index)),
          every_op_and_time_(filter.selects_every_op_and_time()) {}

    // The thread's selection is asked once, not per call: none of its calls when it is left out.
    iterator begin() const { return {this, thread_selected_ ? 0 : of_thread_->size()}; }
    iterator end() const { return {this, of_thread_->size()}; }

  private:
    bool accounted(std::uint32_t call) const {
        return model_->calls.enclosed[call] == 0 &&
               (every_op_and_time_ || filter_->selected_in_thread(call));
    }

    const TraceModel* model_;
    const ResolvedFilter* filter_;
    const CallsOfThread* of_thread_;
    bool thread_selected_;
    bool every_op_and_time_;  // no op or window to ask each call about
};

// Where an accounted call lies on its thread's timeline after the one that returned at
// `previous_end_ns` (-1: it is the first): the gap between the two (empty for the first, and where
// it started before that return), and the call itself, measured from that return where it started
// before it.
struct CallStep {
    std::int64_t gap_start_ns = 0;
    std::int64_t gap_end_ns = 0;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;

    bool has_gap() const { return gap_end_ns > gap_start_ns; }
};

inline CallStep step_to(const CudaCalls& c, std::uint32_t i, std::int64_t previous_end_ns) {
    const bool gap = previous_end_ns >= 0 && c.ts_ns[i] > previous_end_ns;
    const std::int64_t start = std::max(c.ts_ns[i], previous_end_ns);
    return {.gap_start_ns = previous_end_ns,
            .gap_end_ns = gap ? c.ts_ns[i] : previous_end_ns,
            .start_ns = start,
            .end_ns = std::max(c.end_ns(i), start)};
}

}  // namespace causeway::analysis
