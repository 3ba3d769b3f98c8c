#!/usr/bin/env bash
# The main job, on a fresh Debian 12 machine, as root: installs what Causeway needs, builds it into
# build/, records scenario 1 (a training loop fed by a DataLoader whose forked workers outnumber
# the CPUs) with the real eBPF collector, prints `causeway explain` for the recording, and then
# records the recommended fix (direct indexing) and shows what it changed with `causeway compare`
# (its first line: the speed-up in steps/s and the cause that went away).
# Usage: sudo scripts/demo.sh [--duration SECONDS] [--no-setup]   (default 4 s)
# --no-setup skips installing and building and uses the build in $CAUSEWAY_BUILD_DIR (default
# build/), as tests/scenarios/demo_test.sh does. It exits 0 once it has printed the speed-up.
set -euo pipefail
cd "$(dirname "$0")/.."
duration_s=4
setup=1
while (($#)); do
    case $1 in
    --duration) duration_s=${2:?--duration needs seconds}; shift 2 ;;
    --no-setup) setup=0; shift ;;
    *)
        echo "usage: sudo scripts/demo.sh [--duration SECONDS] [--no-setup]" >&2
        exit 2
        ;;
    esac
done
build=${CAUSEWAY_BUILD_DIR:-build}
if ((EUID != 0)); then
    echo "demo.sh: run me as root (sudo scripts/demo.sh): it installs packages and the collector" \
        "attaches eBPF probes" >&2
    exit 2
fi

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# Runs a command in a session of its own whose scheduler autogroup has nice -20, so that other
# load on a shared machine (a parallel build) does not become the diagnosis.
in_own_session() {
    setsid --wait bash -c 'echo -20 >"/proc/$$/autogroup" 2>/dev/null; exec "$@"' own-session "$@"
}

if ((setup)); then
    step "Installing dependencies (Debian packages)"
    scripts/install-deps.sh

    step "Building into $build/"
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$build" -j"$(nproc)" --target causeway-collector causeway causeway_scenarios
fi

work_dir=$(mktemp -d /tmp/causeway-demo.XXXXXX)
db=$work_dir/dataloader.db
cpus=$(nproc)
workers=$((2 * cpus))

step "Recording: a training loop fed by $workers DataLoader workers on $cpus CPUs (${duration_s} s)"
echo "$build/collector/causeway-collector record --db $db -- \\"
echo "    $build/tests/workloads/scenarios/dataloader_oversubscribed --workers $workers"
in_own_session "$build"/collector/causeway-collector record --db "$db" --quiet -- \
    "$build"/tests/workloads/scenarios/dataloader_oversubscribed --workers "$workers" \
    --duration "$duration_s" | tee "$work_dir/before.out"

step "Diagnosis: $build/cli/causeway explain --db $db"
"$build"/cli/causeway explain --db "$db"

step "Applying the fix: direct slicing (x[i:i+batch_size]) in the training process, no workers (recorded the same way)"
in_own_session "$build"/collector/causeway-collector record --db "$work_dir/fixed.db" --quiet -- \
    "$build"/tests/workloads/scenarios/dataloader_oversubscribed --fixed --duration "$duration_s" |
    tee "$work_dir/after.out"
step "Before and after: $build/cli/causeway compare $db $work_dir/fixed.db"
"$build"/cli/causeway compare "$db" "$work_dir/fixed.db"
# The diagnosis's prediction for the cause the fix removed, held to what the fix measured.
"$build"/cli/causeway compare "$db" "$work_dir/fixed.db" --json | jq -r '
    (first(.causes[] | select(.status == "gone" and .predicted_before != null))) as $c
    | if $c == null then "No cause the fix removed carried a prediction."
      else ($c.predicted_before.predicted_speedup / .throughput_ratio) as $r
      | "Predicted by explain for removing \($c.root_cause_class) by \($c.actor_name): " +
        "\($c.predicted_before.predicted_speedup * 10 | round / 10)x; measured by compare: " +
        "\(.throughput_ratio * 10 | round / 10)x (prediction / measurement " +
        "\($r * 100 | round / 100): " +
        (if $r >= 0.8 and $r <= 1.25 then "within" else "outside" end) + " 0.8-1.25)."
      end'
echo "The trace DBs are kept in $work_dir: try $build/cli/causeway stats --db $db"
