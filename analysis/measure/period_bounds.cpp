#include "analysis/measure/period_bounds.hpp"

namespace causeway::analysis {

void PeriodBoundsList::push_back(const PeriodBounds& bounds, std::int64_t drain_ns) {
    const std::size_t k = stored_.size();
    Stored s{.min = narrow_distance(0, bounds.device_min_ns, kAside),
             .max = narrow_distance(0, bounds.device_max_ns, kAside),
             .done_to_drain = kNotDone};
    if (s.min == kAside) {
        mins_aside_.add(k, bounds.device_min_ns);
    }
    if (s.max == kAside) {
        maxes_aside_.add(k, bounds.device_max_ns);
    }
    if (bounds.device_done_ns != -1) {
        // kNotDone and above do not fit: such a finish is kept aside.
        s.done_to_drain = narrow_distance(bounds.device_done_ns, drain_ns, kNotDone);
        if (s.done_to_drain == kNotDone) {
            s.done_to_drain = kAside;
            done_aside_.add(k, bounds.device_done_ns);
        }
    }
    stored_.push_back(s);
}

PeriodBounds PeriodBoundsList::at(std::size_t k, std::int64_t drain_ns) const {
    const Stored& s = stored_[k];
    PeriodBounds b;
    b.device_min_ns = s.min != kAside ? s.min : mins_aside_.at(k);
    b.device_max_ns = s.max != kAside ? s.max : maxes_aside_.at(k);
    if (s.done_to_drain == kAside) {
        b.device_done_ns = done_aside_.at(k);
    } else if (s.done_to_drain != kNotDone) {
        b.device_done_ns = drain_ns - static_cast<std::int64_t>(s.done_to_drain);
    }
    return b;
}

}  // namespace causeway::analysis
