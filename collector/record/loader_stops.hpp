#pragma once
// The dlopen stop/continue: a process stopped where its link map changed gets its new CUDA
// libraries (and libpython) attached before it goes on; at the end every stop is released, and
// the guard that would release them if the collector died is dismissed.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>

#include "base/result.hpp"
#include "collector/attach/bpf_programs.hpp"
#include "collector/attach/loader_stop_guard.hpp"

namespace causeway::collector {

class LoaderStops {
  public:
    // Without `stop_on_dlopen` (--pid) the loader's events are still handled, but no process is
    // stopped: there is neither a guard nor a SIGCONT.
    explicit LoaderStops(bool stop_on_dlopen) : stop_on_dlopen_(stop_on_dlopen) {}

    // Starts the guard, before any probe is attached so that it holds none of their links.
    Status start_guard(const BpfPrograms& programs);
    // The lifecycle ring's loader event: `tgid` changed its link map (and is stopped).
    void on_loader_event(std::uint32_t tgid) { pending_.insert(tgid); }
    bool pending() const { return !pending_.empty(); }

    // Calls `attach_new` for each process whose link map changed since, then continues it. On
    // the first failure that process is continued and the failure returned; the others stay
    // pending.
    using AttachNew = std::function<Status(std::uint32_t tgid)>;
    Status handle(const BpfPrograms& programs, const AttachNew& attach_new);
    // Continues whatever is still stopped at a dlopen, once no new stop can come (the loader
    // probe is detached), and dismisses the guard that would otherwise do it.
    void release(BpfPrograms& programs);

  private:
    bool stop_on_dlopen_;
    std::set<std::uint32_t> pending_;       // processes stopped at a link-map change
    std::optional<LoaderStopGuard> guard_;  // while the command may be stopped at a dlopen
};

}  // namespace causeway::collector
