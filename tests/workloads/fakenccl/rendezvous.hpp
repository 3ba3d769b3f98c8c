#pragma once
// What the ranks of one fake communicator share: a POSIX shared-memory segment named by the
// communicator's unique id, in which each rank marks the collectives and point-to-point calls it
// has reached, and waits (on a futex) for the others to reach them too. A late rank makes every
// other rank wait, as on a real cluster.

#include <atomic>
#include <cstdint>
#include <string>

namespace fakenccl {

inline constexpr int kMostRanks = 64;

struct SharedState {
    std::atomic<std::uint32_t> changes;              // bumped (and woken) on every mark below
    std::atomic<std::int32_t> joined;                // ranks that have opened the segment
    std::atomic<std::int32_t> left;                  // ranks that have closed it
    std::atomic<std::uint64_t> reached[kMostRanks];  // per rank: its latest collective's number
    // [sender][receiver]: the latest ncclSend of sender to receiver, and ncclRecv of receiver
    // from sender, by number.
    std::atomic<std::uint64_t> sent[kMostRanks][kMostRanks];
    std::atomic<std::uint64_t> received[kMostRanks][kMostRanks];
};

class Rendezvous {
  public:
    // Opens (creating if needed) the segment `name` as rank `rank` of `nranks`, and waits until
    // every rank has opened it, as ncclCommInitRank does. `name` is empty for a one-rank
    // communicator of this process alone (ncclCommInitAll).
    Rendezvous(const std::string& name, int nranks, int rank);
    ~Rendezvous();
    Rendezvous(const Rendezvous&) = delete;
    Rendezvous& operator=(const Rendezvous&) = delete;

    bool ok() const { return state_ != nullptr; }
    int rank() const { return rank_; }
    int nranks() const { return nranks_; }

    // Marks collective `number` reached by this rank and waits until every rank has.
    void collective(std::uint64_t number);
    // The `number`-th send to `peer` waits for the matching receive, and the other way round.
    void send(int peer, std::uint64_t number);
    void receive(int peer, std::uint64_t number);

  private:
    void mark(std::atomic<std::uint64_t>& slot, std::uint64_t number);
    template <class Done>
    void wait_until(Done done);

    std::string name_;
    int nranks_ = 0;
    int rank_ = 0;
    SharedState* state_ = nullptr;
    bool private_ = false;
};

}  // namespace fakenccl
