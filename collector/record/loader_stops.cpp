// The dlopen stop/continue: a process stopped where its link map changed gets its new CUDA
// libraries (and libpython) attached before it goes on; at the end every stop is released.
#include "collector/discover/discovery.hpp"
#include "collector/record/recorder_state.hpp"

namespace causeway::collector {

Status Recorder::handle_loader_events() {
    for (std::uint32_t tgid : loader_stops_) {
        // A libpython loaded by the program (or by dlopen) is found here.
        if (auto status = inspect_python(tgid); !status) {
            continue_loader_stop(programs_->loader_stopped_fd(), tgid);
            return status;
        }
        for (const auto& library : cuda_libraries_of_process(static_cast<int>(tgid))) {
            if (auto status = probes_.attach_library(*programs_, library); !status) {
                continue_loader_stop(programs_->loader_stopped_fd(), tgid);
                return status;
            }
        }
        if (options_.stop_on_dlopen) {
            continue_loader_stop(programs_->loader_stopped_fd(), tgid);
        }
    }
    loader_stops_.clear();
    return writer_.commit();
}

// Continues whatever is still stopped at a dlopen, once no new stop can come, and dismisses the
// guard that would otherwise do it.
void Recorder::release_loader_stops() {
    if (!guard_) {
        return;
    }
    programs_->detach_loader();
    continue_loader_stops(programs_->loader_stopped_fd());
    guard_->dismiss();
    guard_.reset();
}

}  // namespace causeway::collector
