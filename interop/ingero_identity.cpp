#include "interop/ingero_identity.hpp"

#include <sstream>

namespace causeway::interop {
namespace {

using tracedb::Statement;

Result<Statement> prepare_scoped(const IngeroSource& source, const IngeroScope& scope,
                                 const std::string& sql) {
    auto stmt = source.db().prepare(sql);
    if (!stmt) {
        return stmt.error();
    }
    scope.bind(*stmt);
    return stmt;
}

std::set<std::int64_t> parse_pid_filter(const std::string& filter) {
    std::set<std::int64_t> pids;
    std::stringstream in(filter);
    std::string item;
    while (std::getline(in, item, ',')) {
        try {
            pids.insert(std::stoll(item));
        } catch (const std::exception&) {
            // Not a pid (Ingero also accepts names); the CUDA callers still make the tree.
        }
    }
    return pids;
}

}  // namespace

std::optional<TaskKey> IngeroIdentity::aggregate_process(std::int64_t pid) const {
    if (!aggregate_node_ || pid == 0) {
        return std::nullopt;
    }
    return process_of({*aggregate_node_, pid});
}

TaskKey IngeroIdentity::process_of(const TaskKey& task) const {
    auto it = thread_group_.find(task);
    return it == thread_group_.end() ? task : TaskKey{task.node, it->second};
}

ResolvedProcess& IngeroIdentity::ensure_process(const TaskKey& pid) {
    auto [it, inserted] = processes_.try_emplace(pid);
    if (inserted) {
        auto name = names_.find(pid.id);
        it->second.comm = name != names_.end() ? name->second : "unknown";
    }
    return it->second;
}

ResolvedThread& IngeroIdentity::ensure_thread(const TaskKey& tid) {
    auto [it, inserted] = threads_.try_emplace(tid);
    if (inserted) {
        it->second.process = process_of(tid);
        const auto& process = ensure_process(it->second.process);
        auto name = names_.find(tid.id);
        it->second.comm = name != names_.end() ? name->second : process.comm;
    }
    return it->second;
}

void IngeroIdentity::mark_tree(const std::set<TaskKey>& roots) {
    for (auto& [key, process] : processes_) {
        process.in_tree = roots.empty() || roots.count(key) != 0;
    }
    // Descendants of traced processes are traced (Ingero auto-enrols forked children).
    for (bool changed = true; changed;) {
        changed = false;
        for (auto& [key, process] : processes_) {
            if (process.in_tree || !process.parent) {
                continue;
            }
            auto parent = processes_.find(*process.parent);
            if (parent != processes_.end() && parent->second.in_tree) {
                process.in_tree = changed = true;
            }
        }
    }
}

Result<IngeroIdentity> IngeroIdentity::resolve(const IngeroSource& source, const IngeroOpTable& ops,
                                               const IngeroScope& scope,
                                               const std::vector<IngeroSession>& sessions) {
    IngeroIdentity identity;
    auto names = source.process_names();
    if (!names) {
        return names.error();
    }
    identity.names_ = std::move(names.value());
    const std::string node = scope.node_expr();
    const std::string in_scope = scope.events_filter();
    const std::string switches = sql_match(ops.pairs_of(IngeroEventKind::kSchedSwitch));

    // Every event except sched_switch carries the thread-group id in `pid`; pid 0 is the idle
    // task or an interrupt.
    auto groups = prepare_scoped(source, scope,
                                 "SELECT DISTINCT " + node + ", pid, tid FROM events WHERE NOT " +
                                     switches + " AND pid != 0 AND tid != 0 AND " + in_scope);
    if (!groups) {
        return groups.error();
    }
    while (groups->step() == SQLITE_ROW) {
        identity.thread_group_.try_emplace({groups->column_text(0), groups->column_int64(2)},
                                           groups->column_int64(1));
    }
    auto tasks = prepare_scoped(
        source, scope,
        "SELECT DISTINCT " + node + ", tid FROM events WHERE tid != 0 AND " + in_scope);
    if (!tasks) {
        return tasks.error();
    }
    while (tasks->step() == SQLITE_ROW) {
        identity.ensure_thread({tasks->column_text(0), tasks->column_int64(1)});
    }

    const auto forks = ops.pairs_of(IngeroEventKind::kProcessFork);
    const auto exits = ops.pairs_of(IngeroEventKind::kProcessExit);
    const auto execs = ops.pairs_of(IngeroEventKind::kProcessExec);
    auto lifecycle = prepare_scoped(
        source, scope,
        "SELECT " + node + ", pid, tid, " + sql_match(forks) + ", " + sql_match(exits) +
            ", arg1, timestamp FROM events WHERE (" + sql_match(forks) + " OR " + sql_match(exits) +
            " OR " + sql_match(execs) + ") AND " + in_scope + " ORDER BY timestamp");
    if (!lifecycle) {
        return lifecycle.error();
    }
    while (lifecycle->step() == SQLITE_ROW) {
        std::string event_node = lifecycle->column_text(0);
        TaskKey pid{event_node, lifecycle->column_int64(1)};
        TaskKey tid{event_node, lifecycle->column_int64(2)};
        bool is_fork = lifecycle->column_int64(3) != 0;
        bool is_exit = lifecycle->column_int64(4) != 0;
        std::int64_t ts = lifecycle->column_int64(6);
        if (is_fork) {
            TaskKey child{event_node, lifecycle->column_int64(5)};
            auto& thread = identity.ensure_thread(child);
            thread.fork_ns = ts;
            if (thread.process == child && child != pid) {
                auto& process = identity.ensure_process(child);
                process.parent = pid;
                process.fork_ns = ts;
                identity.ensure_process(pid);
                if (identity.thread_group_.count(child) == 0) {
                    ++identity.unproven_processes_;
                }
            }
        } else if (is_exit) {
            auto& thread = identity.ensure_thread(tid);
            thread.exit_ns = ts;
            if (thread.process == tid) {
                identity.ensure_process(tid).exit_ns = ts;
            }
        } else {
            identity.ensure_process(identity.process_of(tid)).exec_ns = ts;
        }
    }

    // event_aggregates has no node column: its pids are attributable only in single-node files.
    auto nodes = source.nodes();
    if (!nodes) {
        return nodes.error();
    }
    if (nodes->size() <= 1) {
        identity.aggregate_node_ = nodes->empty() ? std::string() : nodes->front();
    }
    if (identity.aggregate_node_ && source.has_table("event_aggregates")) {
        auto pids = source.db().prepare("SELECT DISTINCT pid FROM event_aggregates WHERE pid != 0");
        if (!pids) {
            return pids.error();
        }
        while (pids->step() == SQLITE_ROW) {
            identity.ensure_process(
                identity.process_of({*identity.aggregate_node_, pids->column_int64(0)}));
        }
    }

    // The traced tree: Ingero's pid filter and every process that called CUDA, with children.
    std::set<TaskKey> roots;
    for (const auto& session : sessions) {
        for (auto pid : parse_pid_filter(session.pid_filter)) {
            TaskKey key{scope.has_node_column ? session.node : "", pid};
            if (identity.processes_.count(key) != 0) {
                roots.insert(key);
            }
        }
    }
    auto cuda_callers = prepare_scoped(source, scope,
                                       "SELECT DISTINCT " + node + ", pid FROM events WHERE " +
                                           sql_match(ops.pairs_of(IngeroEventKind::kCudaCall)) +
                                           " AND " + in_scope);
    if (!cuda_callers) {
        return cuda_callers.error();
    }
    while (cuda_callers->step() == SQLITE_ROW) {
        roots.insert({cuda_callers->column_text(0), cuda_callers->column_int64(1)});
    }
    identity.mark_tree(roots);
    return identity;
}

}  // namespace causeway::interop
