// SPDX-License-Identifier: GPL-2.0
/* Page allocations (mm_page_alloc) of the traced processes, aggregated in the kernel per process
 * per time bucket; the collector drains finished buckets. Nothing is sent per allocation. */
#include "bpf/common.bpf.h"

#define CW_PAGE_BYTES 4096
#define CW_MAX_PAGE_BUCKETS 65536

/* Set before load: the session's zero (CLOCK_MONOTONIC ns) and the bucket width (ns). */
const volatile __u64 session_start_ns = 0;
const volatile __u64 page_bucket_ns = 100000000;

/* key: (bucket, tgid); value: allocation calls and bytes in that bucket. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, CW_MAX_PAGE_BUCKETS);
    __type(key, struct cw_page_key);
    __type(value, struct cw_page_value);
} page_buckets SEC(".maps");

SEC("tp_btf/mm_page_alloc")
int BPF_PROG(cw_page_alloc, struct page *page, unsigned int order, gfp_t gfp_flags,
             int migratetype)
{
    __u32 tgid = cw_current_tgid();
    if (!cw_is_traced(tgid))
        return 0;
    __u64 now = bpf_ktime_get_ns();
    struct cw_page_key key = {
        .bucket = now > session_start_ns ? (now - session_start_ns) / page_bucket_ns : 0,
        .tgid = tgid,
    };
    struct cw_page_value *value = bpf_map_lookup_elem(&page_buckets, &key);
    if (!value) {
        struct cw_page_value zero = {};
        if (bpf_map_update_elem(&page_buckets, &key, &zero, BPF_NOEXIST) == -CW_E2BIG)
            __sync_fetch_and_add(&counters.map_full, 1);
        value = bpf_map_lookup_elem(&page_buckets, &key);
        if (!value)
            return 0;
    }
    __sync_fetch_and_add(&value->count, 1);
    __sync_fetch_and_add(&value->bytes, (__u64)CW_PAGE_BYTES << order);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
