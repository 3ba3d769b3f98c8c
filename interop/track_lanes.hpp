#pragma once
// Places the slices of one thread on lanes so that, on every lane, slices nest or are disjoint
// (what the Chrome/Perfetto trace format requires of a track). Slices must arrive sorted by start,
// longer first at equal starts; a slice that would cross the end of an enclosing one goes to the
// first lane where it fits, lane 0 being the thread's own track.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace causeway::interop {

class TrackLanes {
  public:
    // The lane for [start_ns, end_ns).
    std::size_t place(std::int64_t start_ns, std::int64_t end_ns);
    // Forget every open slice (the next thread begins).
    void clear() { lanes_.clear(); }

  private:
    // Per lane, the ends of the slices still open at the last start, outermost first.
    std::vector<std::vector<std::int64_t>> lanes_;
};

}  // namespace causeway::interop
