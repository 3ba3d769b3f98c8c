#!/usr/bin/env bash
# The real NCCL on a real GPU, for a machine with an NVIDIA GPU and PyTorch built for CUDA: records
# torch_allreduce.py (torch.distributed's nccl backend, one rank) with the collector, which finds the
# libnccl.so.2 PyTorch loads from its pip wheel in the process's maps, then
#  1. prints the NCCL calls the trace holds, by op and result, beside the all-reduces the workload
#     says it issued (exact: every dist.all_reduce is one ncclAllReduce), and the communicator's
#     rank and size as recorded from its init call;
#  2. prints `causeway explain` of the trace.
# Exits 1 when the counts differ.
# Usage: sudo scripts/gpu-nccl.sh [--steps N] [--device-ms MS] [--out DIR]
# Binaries come from $CAUSEWAY_BUILD_DIR (default build/), or $CAUSEWAY_COLLECTOR and $CAUSEWAY_CLI;
# Python is $PYTHON (default python3). The trace DB stays in --out (default a new folder in /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
steps=200
device_ms=2
out_dir=
while (($#)); do
    case $1 in
    --steps) steps=${2:?--steps needs a count}; shift 2 ;;
    --device-ms) device_ms=${2:?--device-ms needs milliseconds}; shift 2 ;;
    --out) out_dir=${2:?--out needs a folder}; shift 2 ;;
    *)
        echo "usage: sudo scripts/gpu-nccl.sh [--steps N] [--device-ms MS] [--out DIR]" >&2
        exit 2
        ;;
    esac
done
if ((EUID != 0)); then
    echo "gpu-nccl.sh: run it as root: the collector attaches eBPF probes" >&2
    exit 2
fi
python=${PYTHON:-python3}
build=${CAUSEWAY_BUILD_DIR:-build}
collector=${CAUSEWAY_COLLECTOR:-$build/collector/causeway-collector}
cli=${CAUSEWAY_CLI:-$build/cli/causeway}
out_dir=${out_dir:-$(mktemp -d /tmp/causeway-gpu-nccl.XXXXXX)}
mkdir -p "$out_dir"
db=$out_dir/allreduce.db
rm -f "$db"

printf '\n== Recording: %s record --db %s -- %s torch_allreduce.py --steps %s\n' \
    "$collector" "$db" "$python" "$steps"
# A workload still running after 120 s is stopped with SIGABRT, on which Python prints every
# thread's stack (PYTHONFAULTHANDLER): where it hung.
PYTHONFAULTHANDLER=1 "$collector" record --db "$db" --quiet -- timeout -s ABRT 120 "$python" \
    tests/workloads/torch/torch_allreduce.py --steps "$steps" --device-ms "$device_ms" |
    tee "$out_dir/workload.txt"
issued=$(sed -n 's/^all_reduce_calls=//p' "$out_dir/workload.txt")

printf '\n== NCCL libraries attached\n'
"$cli" query --db "$db" "SELECT library, count(*) AS probes, sum(attached) AS attached
    FROM probe WHERE symbol LIKE 'nccl%' GROUP BY library"
printf '\n== NCCL calls recorded, by op and result\n'
"$cli" query --db "$db" "SELECT o.name, c.ret, count(*) AS calls,
    round(avg(c.dur_ns) / 1000.0, 1) AS avg_us FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id
    WHERE o.api = 'nccl' GROUP BY o.name, c.ret ORDER BY o.id"
printf '\n== Communicators\n'
"$cli" query --db "$db" "SELECT * FROM nccl_comm"

recorded=$("$cli" query --db "$db" --json "SELECT count(*) AS n FROM cuda_call c
    JOIN cuda_op o ON o.id = c.op_id WHERE o.name = 'ncclAllReduce'" |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["rows"][0][0])')
printf '\n== Diagnosis: %s explain --db %s\n' "$cli" "$db"
"$cli" explain --db "$db"
echo
if [[ $recorded == "$issued" ]]; then
    echo "ncclAllReduce: $recorded recorded, $issued issued by the workload: exact"
else
    echo "ncclAllReduce: $recorded recorded, $issued issued by the workload: they differ" >&2
    exit 1
fi
