#include "interop/track_lanes.hpp"

namespace causeway::interop {

std::size_t TrackLanes::place(std::int64_t start_ns, std::int64_t end_ns) {
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
        auto& open = lanes_[lane];
        while (!open.empty() && open.back() <= start_ns) {
            open.pop_back();
        }
        if (open.empty() || end_ns <= open.back()) {
            open.push_back(end_ns);
            return lane;
        }
    }
    lanes_.push_back({end_ns});
    return lanes_.size() - 1;
}

}  // namespace causeway::interop
