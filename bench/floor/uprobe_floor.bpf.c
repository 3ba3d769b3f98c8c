// Empty uprobe and uretprobe programs: what every uprobe tracer pays per traced call on this
// kernel before doing any work of its own (the trap, the uprobe dispatch, the BPF entry).
// Nothing is recorded on purpose.
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

SEC("uprobe")
int floor_entry(struct pt_regs* ctx) {
    return 0;
}

SEC("uretprobe")
int floor_return(struct pt_regs* ctx) {
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
