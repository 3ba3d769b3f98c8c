#pragma once
// The ranks of an NCCL job on one host meet in each collective: no rank leaves it before the last
// has arrived. Marked on their device queues (device_queue.hpp), this lets the critical-path
// replay (critical_path.hpp) judge a removal for the job, not for each rank alone:
//  * the time a rank's device waited for the others is no device work a faster GPU would shorten
//    (PeriodMeeting::peer_wait_ns);
//  * a period that ends in a collective every rank's period ends in (PeriodMeeting::meeting) ends
//    for every rank when the last of them is ready: a removal gains the job what it brings the
//    last rank's readiness forward, past the next one's. Time saved on a rank that waited for the
//    others is spent waiting longer.
// A rank arrives when it enqueues the collective (rank_alignment.hpp); its device reaches it after
// the work queued before it (the replay's FIFO).

#include <vector>

#include "analysis/measure/critical_path.hpp"
#include "analysis/measure/device_queue.hpp"
#include "analysis/measure/rank_alignment.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// Sets the PeriodMeeting (DeviceQueue::meetings) of the periods of `queues` that hold the
// aligned collectives of `communicators`. A collective ends on every rank's device at once, so
// where one rank's drain showed when (PeriodBounds::device_done_ns), the device work of the
// meeting's other periods, whose drains did not, is measured by it.
void mark_collectives(const TraceModel& model, const std::vector<CommunicatorRanks>& communicators,
                      std::vector<DeviceQueue>& queues);

// The rank of queue `late` arriving at each collective it was last at as the next-to-last rank
// did, as host time to remove from it in the critical-path replay: at each such meeting, its time
// from the next-to-last rank's arrival to its own (within its period). Replayed, every rank's
// period gains the lateness less what the late rank's device still had to do before the
// collective: work it enqueued late, in that time, still takes the device its time. No removal
// on that rank alone gains more: the others are not ready sooner.
HostTimeRemoval on_time_removal(const std::vector<DeviceQueue>& queues, std::size_t late);

}  // namespace causeway::analysis
