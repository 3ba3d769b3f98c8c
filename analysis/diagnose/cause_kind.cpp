#include "analysis/diagnose/cause_kind.hpp"

namespace causeway::analysis {

const char* cause_kind_name(CauseKind kind) {
    switch (kind) {
        case CauseKind::kDataLoaderWorkers:
            return "dataloader_workers";
        case CauseKind::kProcessesOutside:
            return "processes_outside";
        case CauseKind::kTreeThreads:
            return "tree_threads";
        case CauseKind::kLockHolder:
            return "lock_holder";
        case CauseKind::kProducerThread:
            return "producer_thread";
        case CauseKind::kWakerThread:
            return "waker_thread";
        case CauseKind::kDiskIo:
            return "disk_io";
        case CauseKind::kNetwork:
            return "network";
        case CauseKind::kTimer:
            return "timer";
        case CauseKind::kInterrupt:
            return "interrupt";
        case CauseKind::kUnrecordedWaker:
            return "unrecorded_waker";
        case CauseKind::kUnknownCompetitor:
            return "unknown_competitor";
        case CauseKind::kRunQueue:
            return "run_queue";
        case CauseKind::kDevice:
            return "device";
        case CauseKind::kTransfers:
            return "transfers";
        case CauseKind::kAllocator:
            return "allocator";
        case CauseKind::kStartUp:
            return "start_up";
        case CauseKind::kGilHolder:
            return "gil_holder";
        case CauseKind::kLateRank:
            return "late_rank";
        case CauseKind::kOwnCompute:
            return "own_compute";
        case CauseKind::kCpuQuota:
            return "cpu_quota";
        case CauseKind::kSeveral:
            break;
    }
    return "several";
}

}  // namespace causeway::analysis
