#include "collector/symbols/kernel_maps.hpp"

#include <bpf/bpf.h>

#include <vector>

namespace causeway::collector {

namespace {

// All keys of a hash map (a snapshot: entries may come and go meanwhile).
template <class Key>
std::vector<Key> map_keys(int fd) {
    std::vector<Key> keys;
    Key key{};
    const Key* previous = nullptr;
    while (bpf_map_get_next_key(fd, previous, &key) == 0) {
        keys.push_back(key);
        previous = &keys.back();
    }
    return keys;
}

}  // namespace

tracedb::ThreadSchedTotalRecord to_totals_record(std::int64_t thread_id, const cw_sched_totals& t) {
    return {thread_id,
            static_cast<std::int64_t>(t.voluntary_switches),
            static_cast<std::int64_t>(t.involuntary_switches),
            static_cast<std::int64_t>(t.oncpu_ns),
            static_cast<std::int64_t>(t.preempted_ns),
            static_cast<std::int64_t>(t.blocked_ns),
            static_cast<std::int64_t>(t.runq_wait_ns),
            static_cast<std::int64_t>(t.wakeups)};
}

Status write_sched_totals(int fd, const ThreadRegistry& registry, tracedb::TraceWriter& writer) {
    for (std::uint32_t tid : map_keys<std::uint32_t>(fd)) {
        cw_thread_sched state{};
        std::int64_t thread_id = registry.known_thread_id(tid);
        if (thread_id == 0 || bpf_map_lookup_elem(fd, &tid, &state) != 0) {
            continue;
        }
        if (auto status = writer.put_thread_sched_total(to_totals_record(thread_id, state.totals));
            !status) {
            return status;
        }
    }
    return Ok{};
}

Result<std::int64_t> drain_page_buckets(int fd, ThreadRegistry& registry,
                                        tracedb::TraceWriter& writer, std::int64_t bucket_ns,
                                        std::optional<std::uint64_t> before_bucket) {
    std::int64_t written = 0;
    for (const cw_page_key& key : map_keys<cw_page_key>(fd)) {
        if (before_bucket && key.bucket >= *before_bucket) {
            continue;
        }
        cw_page_value value{};
        if (bpf_map_lookup_elem(fd, &key, &value) != 0) {
            continue;
        }
        bpf_map_delete_elem(fd, &key);
        auto process = registry.process_id(key.tgid, true);
        if (!process) {
            return process.error();
        }
        tracedb::PageAllocRecord record{*process, static_cast<std::int64_t>(key.bucket) * bucket_ns,
                                        static_cast<std::int64_t>(value.count),
                                        static_cast<std::int64_t>(value.bytes)};
        if (auto status = writer.add_page_alloc(record); !status) {
            return status.error();
        }
        ++written;
    }
    return written;
}

}  // namespace causeway::collector
