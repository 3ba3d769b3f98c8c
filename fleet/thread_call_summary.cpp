#include "fleet/thread_call_summary.hpp"

#include <algorithm>

namespace causeway::fleet {

void ThreadCallSummary::add(std::int64_t thread_id, std::int64_t ts_ns, std::int64_t dur_ns) {
    // ClickHouse's Int64 sum wraps; so does this one, without overflowing a signed integer.
    const auto end = static_cast<std::int64_t>(static_cast<std::uint64_t>(ts_ns) +
                                               static_cast<std::uint64_t>(dur_ns));
    if (last_ == nullptr || thread_id != last_thread_id_) {
        auto [at, added] = threads_.try_emplace(thread_id, Calls{0, ts_ns, end});
        last_ = &at->second;
        last_thread_id_ = thread_id;
    }
    ++last_->calls;
    last_->first_ts_ns = std::min(last_->first_ts_ns, ts_ns);
    last_->last_end_ns = std::max(last_->last_end_ns, end);
}

}  // namespace causeway::fleet
