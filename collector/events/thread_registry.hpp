#pragma once
// Mints the trace DB's process and thread ids. A row is minted at the creation event (fork,
// thread start) or, for what existed before recording and for competitors outside the traced
// tree, when it is first seen in any event; names then come from /proc. A pid or tid that
// appears in a new creation event gets a new row, so pid reuse never merges two processes.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "bpf/causeway_abi.h"
#include "tracedb/writer.hpp"

namespace causeway::collector {

class ThreadRegistry {
  public:
    ThreadRegistry(tracedb::TraceWriter& writer, std::int64_t start_mono_ns,
                   std::string proc_root = "/proc");

    // The row of a process / thread, minted on first sight. in_tree is used only when minting.
    Result<std::int64_t> process_id(std::uint32_t tgid, bool in_tree);
    Result<std::int64_t> thread_id(std::uint32_t tid, std::uint32_t tgid, bool in_tree,
                                   const std::string& comm_hint = {});

    // A process the collector starts or attaches to, with its threads as /proc lists them now.
    Result<std::int64_t> add_root_process(std::uint32_t pid);

    // Lifecycle events from bpf/lifecycle.bpf.c (an exit carries the thread's final totals).
    Status on_life_event(const cw_life_event& event);

    // Traced processes alive now (count).
    std::int64_t live_traced_processes() const { return live_traced_; }
    // Their pids and rows.
    std::vector<std::pair<std::uint32_t, std::int64_t>> live_traced() const;
    // /proc/PID/cgroup of a process outside the tree, read when it was first seen (it may be
    // gone by the next sample).
    struct OutsideCgroup {
        std::int64_t process_id = 0;
        std::string cgroup_text;
    };
    // Those read since the last call, for the recorder to sample once.
    std::vector<OutsideCgroup> take_outside_cgroups() { return std::move(outside_cgroups_); }
    // Threads of the tree first seen in an event rather than at creation (count).
    std::int64_t threads_seen_late() const { return threads_seen_late_; }
    // The thread row of a tid if it is known, for the periodic totals (0 when unknown).
    std::int64_t known_thread_id(std::uint32_t tid) const;

  private:
    struct ProcessEntry {
        std::int64_t id = 0;
        bool in_tree = false;
        bool alive = true;
        bool minted_late = false;  // first seen in an event: a creation event reuses the row
    };
    struct ThreadEntry {
        std::int64_t id = 0;
        std::uint32_t tgid = 0;
        std::string comm;
        bool alive = true;
        bool minted_late = false;
    };

    std::int64_t relative(std::uint64_t ts_ns) const;
    Result<std::int64_t> mint_process(std::uint32_t tgid, bool in_tree,
                                      std::optional<std::int64_t> start_ns,
                                      std::optional<std::uint32_t> ppid, const std::string& comm);
    Result<std::int64_t> mint_thread(std::uint32_t tid, std::uint32_t tgid, bool in_tree,
                                     std::optional<std::int64_t> start_ns, const std::string& comm);
    Status on_created(const cw_life_event& event);
    Status on_exec(const cw_life_event& event);
    Status on_exit(const cw_life_event& event);
    Status on_rename(const cw_life_event& event);
    std::string read_proc(const std::string& relative_path) const;

    tracedb::TraceWriter& writer_;
    std::int64_t start_mono_ns_;
    std::string proc_root_;
    std::unordered_map<std::uint32_t, ProcessEntry> processes_;  // by tgid: latest row
    std::unordered_map<std::uint32_t, ThreadEntry> threads_;     // by tid: latest row
    std::vector<OutsideCgroup> outside_cgroups_;
    std::int64_t live_traced_ = 0;
    std::int64_t threads_seen_late_ = 0;
};

// A fixed-size kernel comm buffer as a string (stops at the first NUL).
std::string comm_string(const char (&comm)[CW_COMM_LEN]);

}  // namespace causeway::collector
