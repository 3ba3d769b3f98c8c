#include "collector/record/loader_stops.hpp"

namespace causeway::collector {

Status LoaderStops::start_guard(const BpfPrograms& programs) {
    if (!stop_on_dlopen_) {
        return Ok{};
    }
    auto guard = LoaderStopGuard::start(programs.loader_stopped_fd());
    if (!guard) {
        return guard.error();
    }
    guard_.emplace(std::move(guard.value()));
    return Ok{};
}

Status LoaderStops::handle(const BpfPrograms& programs, const AttachNew& attach_new) {
    for (std::uint32_t tgid : pending_) {
        if (auto status = attach_new(tgid); !status) {
            continue_loader_stop(programs.loader_stopped_fd(), tgid);
            return status;
        }
        if (stop_on_dlopen_) {
            continue_loader_stop(programs.loader_stopped_fd(), tgid);
        }
    }
    pending_.clear();
    return Ok{};
}

void LoaderStops::release(BpfPrograms& programs) {
    if (!guard_) {
        return;
    }
    programs.detach_loader();
    continue_loader_stops(programs.loader_stopped_fd());
    guard_->dismiss();
    guard_.reset();
}

}  // namespace causeway::collector
