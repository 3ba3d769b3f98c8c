#!/usr/bin/env bash
# Regenerates the committed vmlinux.h of this machine's architecture, bpf/vmlinux/<arch>/vmlinux.h:
# the kernel's types that the BPF programs read through CO-RE (libbpf relocates each field access
# to the running kernel's layout at load time, so one header serves every kernel of that
# architecture that has the types the programs use).
# Usage: scripts/regenerate-vmlinux.sh [BTF file, default /sys/kernel/btf/vmlinux]
set -euo pipefail
cd "$(dirname "$0")/.."
btf=${1:-/sys/kernel/btf/vmlinux}
case $(uname -m) in
x86_64) arch=x86_64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "regenerate-vmlinux.sh: no BPF port for $(uname -m)" >&2; exit 2 ;;
esac
if [[ ! -r $btf ]]; then
    echo "regenerate-vmlinux.sh: cannot read $btf: it needs a kernel built with" \
        "CONFIG_DEBUG_INFO_BTF=y, or the BTF file of one as the argument" >&2
    exit 2
fi
mkdir -p "bpf/vmlinux/$arch"
bpftool btf dump file "$btf" format c >"bpf/vmlinux/$arch/vmlinux.h.tmp"
mv "bpf/vmlinux/$arch/vmlinux.h.tmp" "bpf/vmlinux/$arch/vmlinux.h"
echo "wrote bpf/vmlinux/$arch/vmlinux.h from $btf ($(uname -r) when it is this kernel's)"
