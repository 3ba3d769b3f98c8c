#!/usr/bin/env bash
# The seed story on a real GPU, for a machine with an NVIDIA GPU and PyTorch built for CUDA: a
# training loop fed by DataLoader workers that outnumber the CPUs (torch_training.py --device cuda),
# against its fix, the same in-memory tensors indexed directly in the training process.
#  1. Measures both untraced, interleaved, --rounds rounds each, and prints the medians and the
#     speed-up the fix gives on this machine.
#  2. As root: records one run of each with the collector, prints `causeway explain` of the
#     DataLoader run and `causeway compare` of the two, and the speed-up explain predicted for the
#     cause the fix removed beside the one compare measured.
# Usage: sudo scripts/gpu-story.sh [--duration S] [--rounds N] [--device-ms MS] [--workers N]
#                                  [--cpus LIST] [--out DIR]
# --cpus LIST runs the workload on those CPUs alone (taskset), as on a machine with fewer; the
# collector stays unbound.
# Binaries come from $CAUSEWAY_BUILD_DIR (default build/), or $CAUSEWAY_COLLECTOR and $CAUSEWAY_CLI;
# Python is $PYTHON (default python3). The trace DBs stay in --out (default a new folder in /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
duration_s=4
rounds=3
device_ms=2
workers=
cpus=
out_dir=
while (($#)); do
    case $1 in
    --duration) duration_s=${2:?--duration needs seconds}; shift 2 ;;
    --rounds) rounds=${2:?--rounds needs a count}; shift 2 ;;
    --device-ms) device_ms=${2:?--device-ms needs milliseconds}; shift 2 ;;
    --workers) workers=${2:?--workers needs a count}; shift 2 ;;
    --cpus) cpus=${2:?--cpus needs a CPU list}; shift 2 ;;
    --out) out_dir=${2:?--out needs a folder}; shift 2 ;;
    *)
        echo "usage: sudo scripts/gpu-story.sh [--duration S] [--rounds N] [--device-ms MS]" \
            "[--workers N] [--cpus LIST] [--out DIR]" >&2
        exit 2
        ;;
    esac
done
python=${PYTHON:-python3}
build=${CAUSEWAY_BUILD_DIR:-build}
collector=${CAUSEWAY_COLLECTOR:-$build/collector/causeway-collector}
cli=${CAUSEWAY_CLI:-$build/cli/causeway}
workload=tests/workloads/torch/torch_training.py
out_dir=${out_dir:-$(mktemp -d /tmp/causeway-gpu-story.XXXXXX)}
mkdir -p "$out_dir"

step() { printf '\n== %s\n' "$*"; }
if ! "$python" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)'; then
    echo "gpu-story.sh: $python has no PyTorch that sees a CUDA GPU; set PYTHON to one that does" >&2
    exit 2
fi
"$python" -c 'import torch; print(f"PyTorch {torch.__version__} on {torch.cuda.get_device_name()}")'
# The command prefix that runs the workload: bound to --cpus where given.
pin=()
[[ -n $cpus ]] && pin=(taskset -c "$cpus")
workload_cpus=$("${pin[@]}" nproc)
workers=${workers:-$((2 * workload_cpus))}
echo "$workload_cpus CPUs${cpus:+ ($cpus)} for the workload, $workers DataLoader workers," \
    "$device_ms ms of device time a step"

# The variant's arguments: the DataLoader (before) or its fix (direct indexing).
variant_args() {
    if [[ $1 == before ]]; then
        echo "--variant workers --workers $workers"
    else
        echo "--variant direct"
    fi
}
run_workload() {  # variant, then any command prefix; prints batches/s
    local variant=$1
    shift
    # shellcheck disable=SC2046 # the variant's arguments are words
    "$@" "${pin[@]}" "$python" "$workload" --device cuda $(variant_args "$variant") \
        --duration "$duration_s" --device-ms "$device_ms" | sed -n 's/^throughput_batches_per_s=//p'
}

step "Untraced: DataLoader workers (before) and direct indexing (after), $rounds rounds interleaved"
declare -A rates=([before]="" [after]="")
for ((round = 1; round <= rounds; round++)); do
    for variant in before after; do
        rate=$(run_workload "$variant")
        rates[$variant]+="$rate "
        echo "round $round $variant: $rate batches/s"
    done
done
read -r untraced_before untraced_after untraced_gain < <("$python" - "${rates[before]}" "${rates[after]}" <<'EOF'
import statistics, sys
before, after = (statistics.median(map(float, rates.split())) for rates in sys.argv[1:3])
print(before, after, after / before)
EOF
)
echo "median: $untraced_before -> $untraced_after batches/s, direct indexing gains ${untraced_gain}x"

if ((EUID != 0)); then
    echo "gpu-story.sh: not root, so nothing is recorded (the collector attaches eBPF probes)" >&2
    exit 0
fi
cuda_libs=()
site=$("$python" -c 'import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))')
while IFS= read -r library; do
    cuda_libs+=("--cuda-lib=$library")
done < <(find "$site/nvidia" -name 'libcudart.so.*' 2>/dev/null)
for variant in before after; do
    step "Recording $variant: $collector record --db $out_dir/$variant.db -- $python $workload ..."
    # shellcheck disable=SC2046 # the variant's arguments are words
    "$collector" record --db "$out_dir/$variant.db" --quiet "${cuda_libs[@]}" -- \
        "${pin[@]}" "$python" "$workload" --device cuda $(variant_args "$variant") \
        --duration "$duration_s" --device-ms "$device_ms"
done
step "Diagnosis: $cli explain --db $out_dir/before.db"
"$cli" explain --db "$out_dir/before.db"
step "Before and after: $cli compare $out_dir/before.db $out_dir/after.db"
"$cli" compare "$out_dir/before.db" "$out_dir/after.db"
"$cli" compare "$out_dir/before.db" "$out_dir/after.db" --json >"$out_dir/compare.json"
"$python" - "$out_dir/compare.json" "$untraced_gain" <<'EOF'
import json, sys
report, untraced = json.load(open(sys.argv[1])), float(sys.argv[2])
gone = [c for c in report["causes"] if c["status"] == "gone" and c.get("predicted_before")]
if not gone:
    print(f"No cause the fix removed carried a prediction. Untraced, the fix gained {untraced:.2f}x.")
else:
    cause, predicted = gone[0], gone[0]["predicted_before"]["predicted_speedup"]
    print(f"Predicted by explain for removing {cause['root_cause_class']} by {cause['actor_name']}: "
          f"{predicted:.2f}x; measured by compare: {report['throughput_ratio']:.2f}x, untraced: "
          f"{untraced:.2f}x (prediction / untraced: {predicted / untraced:.2f}).")
EOF
echo "The trace DBs are in $out_dir"
