#pragma once
// The ranks of an NCCL job on one host meet in each collective: no rank leaves it before the last
// has arrived. Marked on their device queues (device_queue.hpp), this lets the critical-path
// replay (critical_path.hpp) judge a removal for the job, not for each rank alone:
//  * the time a rank's device waited for the others is no device work a faster GPU would shorten
//    (DrainPeriod::peer_wait_ns);
//  * a period that ends in a collective every rank's period ends in (DrainPeriod::meeting) ends
//    for every rank when the last of them is ready: a removal gains the job what it brings the
//    last rank's readiness forward, past the next one's. Time saved on a rank that waited for the
//    others is spent waiting longer.
// A rank arrives when it enqueues the collective (rank_alignment.hpp): its device reaching it
// after work queued before it is not modelled.

#include <vector>

#include "analysis/measure/device_queue.hpp"
#include "analysis/measure/rank_alignment.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// Sets peer_wait_ns, meeting and meeting_arrival_ns on the periods of `queues` that hold the
// aligned collectives of `communicators`.
void mark_collectives(const TraceModel& model, const std::vector<CommunicatorRanks>& communicators,
                      std::vector<DeviceQueue>& queues);

// What the job gains when the rank of queue `late` arrives at each collective it was last at as
// the next-to-last rank did: at each such meeting, the time between the two, on every rank's
// period (ns, summed). No removal on that rank alone gains more: the others are not ready sooner.
std::int64_t on_time_saving(const std::vector<DeviceQueue>& queues, std::size_t late);

}  // namespace causeway::analysis
