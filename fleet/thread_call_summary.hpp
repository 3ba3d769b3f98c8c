#pragma once
// A node's CUDA calls summed per thread (push_tables.hpp: node_thread), added up from the
// cuda_call rows as a push sends them. The server holds those same rows once the push has
// counted them there, so the sums are the ones it would make, without a second scan of every
// call on the server (0.17 s at 2M calls).

#include <cstdint>
#include <map>

namespace causeway::fleet {

class ThreadCallSummary {
  public:
    struct Calls {
        std::uint64_t calls = 0;
        std::int64_t first_ts_ns = 0;  // the start of its first call
        std::int64_t last_end_ns = 0;  // the end of its last call (ts_ns + dur_ns, as Int64)
    };

    // One call of `thread_id`.
    void add(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns);
    // The threads that made calls, by id.
    const std::map<std::int64_t, Calls>& threads() const { return threads_; }

  private:
    std::map<std::int64_t, Calls> threads_;
    Calls* last_ = nullptr;  // the thread of the last call: calls come in runs of one thread
    std::int64_t last_thread_id_ = 0;
};

}  // namespace causeway::fleet
