#pragma once
// Disk space held back for closing a trace DB after its disk fills: a file of a fixed size next
// to the DB, given back (deleted) when a write fails for lack of space, so that the rows that
// say why and when the recording stopped, the stop time and the final checkpoint still fit,
// however full the disk was when the failing write came. Deleted when the DB is finished or the
// writer goes away.

#include <cstddef>
#include <string>

namespace causeway::tracedb {

class SpaceReserve {
  public:
    SpaceReserve() = default;
    // Allocates `bytes` at `path`; without room for them it holds nothing (the DB is then
    // closed with whatever space is left, as without a reserve).
    static SpaceReserve allocate(std::string path, std::size_t bytes);

    SpaceReserve(SpaceReserve&& other) noexcept;
    SpaceReserve& operator=(SpaceReserve&& other) noexcept;
    SpaceReserve(const SpaceReserve&) = delete;
    SpaceReserve& operator=(const SpaceReserve&) = delete;
    ~SpaceReserve() { release(); }

    // Gives the space back; does nothing the second time.
    void release();
    bool held() const { return !path_.empty(); }

  private:
    std::string path_;  // empty when nothing is held
};

}  // namespace causeway::tracedb
