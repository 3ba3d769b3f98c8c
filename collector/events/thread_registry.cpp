#include "collector/events/thread_registry.hpp"

#include "collector/symbols/kernel_maps.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace causeway::collector {

namespace {

std::string trim_newline(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) {
        text.pop_back();
    }
    return text;
}

// /proc/PID/cmdline separates arguments with NUL; the schema stores them space-separated.
std::optional<std::string> cmdline_text(std::string raw) {
    raw = trim_newline(std::move(raw));
    if (raw.empty()) {
        return std::nullopt;
    }
    for (char& c : raw) {
        if (c == '\0') {
            c = ' ';
        }
    }
    return raw;
}

// Field 4 of /proc/PID/stat (after the parenthesised comm, which may contain spaces).
std::optional<std::uint32_t> ppid_from_stat(const std::string& stat) {
    auto close = stat.rfind(')');
    if (close == std::string::npos) {
        return std::nullopt;
    }
    std::istringstream fields(stat.substr(close + 1));
    std::string state;
    std::uint32_t ppid = 0;
    if (fields >> state >> ppid) {
        return ppid;
    }
    return std::nullopt;
}

}  // namespace

std::string comm_string(const char (&comm)[CW_COMM_LEN]) {
    return std::string(comm, strnlen(comm, CW_COMM_LEN));
}

ThreadRegistry::ThreadRegistry(tracedb::TraceWriter& writer, std::int64_t start_mono_ns,
                               std::string proc_root)
    : writer_(writer), start_mono_ns_(start_mono_ns), proc_root_(std::move(proc_root)) {}

std::int64_t ThreadRegistry::relative(std::uint64_t ts_ns) const {
    return static_cast<std::int64_t>(ts_ns) - start_mono_ns_;
}

std::string ThreadRegistry::read_proc(const std::string& relative_path) const {
    std::ifstream in(proc_root_ + "/" + relative_path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::pair<std::uint32_t, std::int64_t>> ThreadRegistry::live_traced() const {
    std::vector<std::pair<std::uint32_t, std::int64_t>> live;
    for (const auto& [tgid, entry] : processes_) {
        if (entry.in_tree && entry.alive) {
            live.emplace_back(tgid, entry.id);
        }
    }
    return live;
}

std::int64_t ThreadRegistry::known_thread_id(std::uint32_t tid) const {
    auto it = threads_.find(tid);
    return it == threads_.end() ? 0 : it->second.id;
}

Result<std::int64_t> ThreadRegistry::mint_process(std::uint32_t tgid, bool in_tree,
                                                  std::optional<std::int64_t> start_ns,
                                                  std::optional<std::uint32_t> ppid,
                                                  const std::string& comm) {
    std::string pid = std::to_string(tgid);
    tracedb::ProcessRecord record;
    record.pid = tgid;
    record.ppid = ppid ? ppid : ppid_from_stat(read_proc(pid + "/stat"));
    if (record.ppid) {
        auto parent = processes_.find(static_cast<std::uint32_t>(*record.ppid));
        if (parent != processes_.end() && parent->second.in_tree) {
            record.parent_id = parent->second.id;
        }
    }
    record.comm = comm.empty() ? trim_newline(read_proc(pid + "/comm")) : comm;
    record.cmdline = cmdline_text(read_proc(pid + "/cmdline"));
    record.in_tree = in_tree;
    record.start_ns = start_ns;
    auto id = writer_.add_process(record);
    if (!id) {
        return id;
    }
    auto& entry = processes_[tgid];
    if (entry.in_tree && entry.alive && entry.id != 0) {
        --live_traced_;  // a missed exit: the old row is superseded
    }
    entry = ProcessEntry{*id, in_tree, true, !start_ns.has_value()};
    if (in_tree) {
        ++live_traced_;
    } else {
        outside_cgroups_.push_back({*id, read_proc(pid + "/cgroup")});
    }
    return id;
}

Result<std::int64_t> ThreadRegistry::mint_thread(std::uint32_t tid, std::uint32_t tgid,
                                                 bool in_tree, std::optional<std::int64_t> start_ns,
                                                 const std::string& comm) {
    auto process = process_id(tgid, in_tree);
    if (!process) {
        return process;
    }
    std::string name = comm;
    if (name.empty()) {
        name = trim_newline(
            read_proc(std::to_string(tgid) + "/task/" + std::to_string(tid) + "/comm"));
    }
    auto id = writer_.add_thread({tid, *process, name, start_ns, std::nullopt});
    if (!id) {
        return id;
    }
    threads_[tid] = ThreadEntry{*id, tgid, name, true, !start_ns.has_value()};
    return id;
}

Result<std::int64_t> ThreadRegistry::process_id(std::uint32_t tgid, bool in_tree) {
    auto it = processes_.find(tgid);
    if (it != processes_.end()) {
        return it->second.id;
    }
    return mint_process(tgid, in_tree, std::nullopt, std::nullopt, {});
}

Result<std::int64_t> ThreadRegistry::thread_id(std::uint32_t tid, std::uint32_t tgid, bool in_tree,
                                               const std::string& comm_hint) {
    auto it = threads_.find(tid);
    if (it != threads_.end() && it->second.tgid == tgid) {
        return it->second.id;
    }
    if (in_tree) {
        ++threads_seen_late_;
    }
    return mint_thread(tid, tgid, in_tree, std::nullopt, comm_hint);
}

Result<std::int64_t> ThreadRegistry::add_root_process(std::uint32_t pid) {
    auto id = mint_process(pid, true, std::nullopt, std::nullopt, {});
    if (!id) {
        return id;
    }
    processes_[pid].minted_late = false;
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator(
             proc_root_ + "/" + std::to_string(pid) + "/task", error)) {
        auto tid = static_cast<std::uint32_t>(std::stoul(task.path().filename().string()));
        if (auto thread = mint_thread(tid, pid, true, std::nullopt, {}); !thread) {
            return thread;
        }
        threads_[tid].minted_late = false;
    }
    return id;
}

Status ThreadRegistry::on_life_event(const cw_life_event& event) {
    switch (event.kind) {
        case CW_LIFE_FORK:
        case CW_LIFE_THREAD:
            return on_created(event);
        case CW_LIFE_EXEC:
            return on_exec(event);
        case CW_LIFE_EXIT:
            return on_exit(event);
        case CW_LIFE_RENAME:
            return on_rename(event);
        default:
            return Ok{};
    }
}

Status ThreadRegistry::on_created(const cw_life_event& event) {
    std::int64_t ts = relative(event.ts_ns);
    std::string comm = comm_string(event.comm);
    if (event.kind == CW_LIFE_FORK) {
        auto existing = processes_.find(event.tgid);
        bool seen_early = existing != processes_.end() && existing->second.minted_late &&
                          existing->second.alive && existing->second.in_tree;
        if (!seen_early) {
            if (auto id = mint_process(event.tgid, true, ts, event.ppid, comm); !id) {
                return id.error();
            }
        }
    }
    auto existing = threads_.find(event.tid);
    if (existing != threads_.end() && existing->second.minted_late && existing->second.alive &&
        existing->second.tgid == event.tgid) {
        existing->second.minted_late = false;  // it was seen in another ring first
        return Ok{};
    }
    if (auto id = mint_thread(event.tid, event.tgid, true, ts, comm); !id) {
        return id.error();
    }
    return Ok{};
}

Status ThreadRegistry::on_exec(const cw_life_event& event) {
    auto process = process_id(event.tgid, true);
    if (!process) {
        return process.error();
    }
    std::string comm = comm_string(event.comm);
    auto cmdline = cmdline_text(read_proc(std::to_string(event.tgid) + "/cmdline"));
    if (auto status = writer_.set_process_exec(*process, relative(event.ts_ns), comm, cmdline);
        !status) {
        return status;
    }
    return on_rename(event);
}

Status ThreadRegistry::on_exit(const cw_life_event& event) {
    std::int64_t ts = relative(event.ts_ns);
    auto thread = thread_id(event.tid, event.tgid, true, comm_string(event.comm));
    if (!thread) {
        return thread.error();
    }
    if (auto status = writer_.set_thread_exit(*thread, ts); !status) {
        return status;
    }
    threads_[event.tid].alive = false;
    if (event.has_totals) {
        auto totals = to_totals_record(*thread, event.totals);
        if (auto status = writer_.put_thread_sched_total(totals); !status) {
            return status;
        }
    }
    if (!event.group_dead) {
        return Ok{};
    }
    auto& process = processes_[event.tgid];
    if (process.alive && process.in_tree) {
        --live_traced_;
    }
    process.alive = false;
    return writer_.set_process_exit(process.id, ts, event.exit_code);
}

Status ThreadRegistry::on_rename(const cw_life_event& event) {
    auto thread = thread_id(event.tid, event.tgid, true, comm_string(event.comm));
    if (!thread) {
        return thread.error();
    }
    auto& entry = threads_[event.tid];
    std::string comm = comm_string(event.comm);
    if (entry.comm == comm) {
        return Ok{};
    }
    std::optional<std::string> old_comm;
    if (!entry.comm.empty()) {
        old_comm = entry.comm;
    }
    entry.comm = comm;
    return writer_.rename_thread(*thread, relative(event.ts_ns), old_comm, comm);
}

}  // namespace causeway::collector
