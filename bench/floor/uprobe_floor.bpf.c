// Uprobe and uretprobe programs that measure what a tracer pays per traced call on this kernel
// before doing any work of its own, and what the least work a per-call recorder must do adds:
//   floor_*:        empty: the trap, the uprobe dispatch, the BPF entry (the floor).
//   clock_*:        one clock read at entry and one at return (a call's start and duration).
//   record_return:  the return clock read plus one ring-buffer record of the collector's size,
//                   submitted without a wake-up, as the collector does.
// No per-thread state is kept (the entry time goes to a global), so these are lower bounds,
// not tracers. Nothing is analysed on purpose.
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#include "bpf/causeway_abi.h"

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 32 << 20);
} records SEC(".maps");

__u64 entry_ns;     // written by clock_entry
__u64 last_dur_ns;  // written by clock_return, so the clock reads are not optimised away

SEC("uprobe")
int floor_entry(struct pt_regs* ctx) {
    return 0;
}

SEC("uretprobe")
int floor_return(struct pt_regs* ctx) {
    return 0;
}

SEC("uprobe")
int clock_entry(struct pt_regs* ctx) {
    entry_ns = bpf_ktime_get_ns();
    return 0;
}

SEC("uretprobe")
int clock_return(struct pt_regs* ctx) {
    last_dur_ns = bpf_ktime_get_ns() - entry_ns;
    return 0;
}

SEC("uretprobe")
int record_return(struct pt_regs* ctx) {
    __u64 now = bpf_ktime_get_ns();
    struct cw_cuda_call* record = bpf_ringbuf_reserve(&records, sizeof(*record), 0);
    if (!record) {
        return 0;
    }
    __builtin_memset(record, 0, sizeof(*record));
    record->ts_ns = entry_ns;
    record->dur_ns = now - entry_ns;
    bpf_ringbuf_submit(record, BPF_RB_NO_WAKEUP);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
