#pragma once
// Who is who in an Ingero trace. Ingero keys events by pid and tid but its records do not agree
// on what "pid" means: CUDA calls, exits and wakeups carry the thread-group id, sched_switch
// repeats the tid, and process_fork fires for new threads as well as new processes. This pass
// reads every event's (pid, tid) once and decides, for each id, whether it is a thread of
// another process or a process of its own, with parents, names, start, exec and exit times.

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "interop/ingero_ops.hpp"
#include "interop/ingero_scope.hpp"
#include "interop/ingero_source.hpp"

namespace causeway::interop {

// A pid or tid on one node (pids of different nodes of a merged recording never merge).
struct TaskKey {
    std::string node{};
    std::int64_t id = 0;
    auto operator<=>(const TaskKey&) const = default;
};

// Times here are Ingero's: Unix epoch (ns). The importer moves them onto the session's axis.
struct ResolvedProcess {
    std::optional<TaskKey> parent{};  // from a process_fork event; absent when not seen
    std::string comm{};
    std::optional<std::int64_t> fork_ns{}, exec_ns{}, exit_ns{};
    bool in_tree = false;
};

struct ResolvedThread {
    TaskKey process{};
    std::string comm{};
    std::optional<std::int64_t> fork_ns{}, exit_ns{};
};

class IngeroIdentity {
  public:
    static Result<IngeroIdentity> resolve(const IngeroSource& source, const IngeroOpTable& ops,
                                          const IngeroScope& scope,
                                          const std::vector<IngeroSession>& sessions);

    const std::map<TaskKey, ResolvedProcess>& processes() const { return processes_; }
    const std::map<TaskKey, ResolvedThread>& threads() const { return threads_; }
    // The process an id belongs to: its thread group when one was seen, else the id itself.
    TaskKey process_of(const TaskKey& task) const;
    // The process an event_aggregates pid belongs to; absent for pid 0 (no process) and in
    // multi-node files, whose aggregates do not say which node they counted.
    std::optional<TaskKey> aggregate_process(std::int64_t pid) const;
    bool aggregates_attributable() const { return aggregate_node_.has_value(); }
    // Forked ids that no event tied to a thread group: imported as processes of their own.
    std::int64_t unproven_processes() const { return unproven_processes_; }

  private:
    ResolvedThread& ensure_thread(const TaskKey& tid);
    ResolvedProcess& ensure_process(const TaskKey& pid);
    void mark_tree(const std::set<TaskKey>& roots);

    std::map<TaskKey, std::int64_t> thread_group_;  // tid -> pid, from events that carry both
    std::map<TaskKey, ResolvedProcess> processes_;
    std::map<TaskKey, ResolvedThread> threads_;
    std::map<std::int64_t, std::string> names_;
    std::int64_t unproven_processes_ = 0;
    std::optional<std::string> aggregate_node_;  // node of event_aggregates rows, when known
};

}  // namespace causeway::interop
