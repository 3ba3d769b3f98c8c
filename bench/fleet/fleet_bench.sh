#!/usr/bin/env bash
# Fleet benchmark on a real clickhouse-server (started on loopback by tests/clickhouse/):
#   1. push rate: `causeway push` of a synthetic trace (causeway-bench-synth), in CUDA calls/s
#      (wall time of the whole push, median of 3: reading SQLite, Native blocks over HTTP, and the
#      node's diagnosis beside them);
#   2. bytes per call: cuda_call on disk in ClickHouse (system.parts) against SQLite (dbstat);
#   3. fleet query time: `causeway fleet` over CALLS synthetic calls on 8 nodes, generated inside
#      ClickHouse (INSERT ... SELECT FROM numbers()) with the per-node summaries a push stores,
#      one node slower than the rest; median of 5.
# Usage: bench/fleet/fleet_bench.sh [BUILD_DIR]   PUSH_CALLS (default 2000000) and
# FLEET_CALLS (default 100000000) set the sizes; BASELINE_CAUSEWAY (a causeway binary of another
# build) is timed the same way, its runs taking turns with this build's, against the same server
# and rows.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$repo/build}"
push_calls="${PUSH_CALLS:-2000000}"
fleet_calls="${FLEET_CALLS:-100000000}"
baseline="${BASELINE_CAUSEWAY:-}"
causeway="$build/cli/causeway"
work="$(mktemp -d "${TMPDIR:-/tmp}/causeway-fleet-bench.XXXXXX")"
cleanup() {
    if [[ -f "$work/env" ]]; then
        # shellcheck disable=SC1091
        source "$work/env"
        kill "$SHARD1_PID" "$SHARD2_PID" 2>/dev/null || true
        while kill -0 "$SHARD1_PID" 2>/dev/null || kill -0 "$SHARD2_PID" 2>/dev/null; do
            sleep 0.1
        done
    fi
    rm -rf "$work"
}
trap cleanup EXIT
"$repo/tests/clickhouse/start_shards.sh" "$work" >/dev/null
# shellcheck disable=SC1091
source "$work/env"
url="$SHARD1_URL"  # one server: the figures are for one shard
# The tables of this build's trace schema version (fleet/trace_tables.cpp: table_prefix).
tables="causeway_v$(sed -n 's/.*kSchemaVersion = \([0-9]*\);/\1/p' "$repo/tracedb/schema.hpp")"
ch() { curl -sSf "$url" --data-binary "$1"; }
now() { date +%s.%N; }

echo "clickhouse-server $(ch 'SELECT version()'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"

"$build/bench/causeway-bench-synth" --out "$work/push.db" --calls "$push_calls" >/dev/null
"$causeway" push --clickhouse "$url" --create-tables-only >/dev/null
# Waits (up to a minute) until the server runs no merge: each timed run starts on an idle server,
# not among the merges of the parts the runs before it stored.
settle() {
    for _ in $(seq 600); do
        [[ "$(ch 'SELECT count() FROM system.merges')" == 0 ]] && return
        sleep 0.1
    done
}
# time_once CMD...: the wall time of one run of CMD on a settled server.
time_once() {
    local start
    settle
    start=$(now)
    "$@" >/dev/null
    echo "$(now) - $start" | bc -l
}
median_of() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
# median_time RUNS CMD...: the median wall time of RUNS runs of CMD; "{}" in CMD is the run's
# number.
median_time() {
    local runs=$1 times=()
    shift
    for ((run = 1; run <= runs; run++)); do
        times+=("$(time_once "${@//\{\}/$run}")")
    done
    median_of "${times[@]}"
}
# median_times RUNS ARGS...: the median wall time of RUNS runs of `$causeway ARGS` and, with a
# baseline, of `$baseline ARGS` taken in turns with them (this VM's speed drifts by 10-25%
# within minutes, and both should see the same). "{}" in ARGS is the run's number (and "base"
# for the baseline's). Prints "MEDIAN" or "MEDIAN BASELINE_MEDIAN".
median_times() {
    local runs=$1 mine=() theirs=()
    shift
    for ((run = 1; run <= runs; run++)); do
        mine+=("$(time_once "$causeway" "${@//\{\}/$run}")")
        if [[ -n "$baseline" ]]; then
            theirs+=("$(time_once "$baseline" "${@//\{\}/base-$run}")")
        fi
    done
    echo "$(median_of "${mine[@]}") ${theirs[*]:+$(median_of "${theirs[@]}")}"
}

# Each push into a job of its own, so that each sends every row.
read -r push_s base_push_s < <(median_times 3 push --clickhouse "$url" --job "push-bench-{}" \
    --node n1 "$work/push.db")
# The same rows gzipped on the wire (what Debian's 18.16 reads; --compression auto sends them as
# they are to a server on this machine): the CPU it costs here, the bytes it saves on a network.
gzip_s=$(median_time 3 "$causeway" push --clickhouse "$url" --job "push-gzip-{}" --node n1 \
    --compression gzip "$work/push.db")
gzip_bytes=$("$causeway" push --clickhouse "$url" --job push-gzip-bytes --node n1 \
    --compression gzip "$work/push.db" | sed -n 's/.* \([0-9,]*\) bytes (\([0-9,]*\) on the wire.*/\1 \2/p' |
    tr -d ,)
start=$(now)
"$causeway" explain --db "$work/push.db" >/dev/null
diagnosis_s=$(echo "$(now) - $start" | bc -l)
ch "OPTIMIZE TABLE ${tables}_cuda_call FINAL"
sqlite_bytes=$(sqlite3 "$work/push.db" "SELECT sum(pgsize) FROM dbstat WHERE name = 'cuda_call'")
ch_bytes=$(ch "SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND table = '${tables}_cuda_call'")
ch_rows=$(ch "SELECT count() FROM ${tables}_cuda_call")  # every push's rows
printf 'push: %d calls in %.2f s (median of 3) = %.0f calls/s (the node diagnosis, as explain, alone: %.2f s)\n' \
    "$push_calls" "$push_s" "$(echo "$push_calls / $push_s" | bc -l)" "$diagnosis_s"
if [[ -n "$baseline" ]]; then
    printf '  baseline %s: %.2f s = %.0f calls/s; this build is %.2fx as fast\n' "$baseline" \
        "$base_push_s" "$(echo "$push_calls / $base_push_s" | bc -l)" \
        "$(echo "$base_push_s / $push_s" | bc -l)"
fi
read -r raw_bytes wire_bytes <<<"$gzip_bytes"
printf 'push --compression gzip: %.2f s (median of 3) = %.0f calls/s; %.1f bytes a call on the wire instead of %.1f\n' \
    "$gzip_s" "$(echo "$push_calls / $gzip_s" | bc -l)" "$(echo "$wire_bytes / $push_calls" | bc -l)" \
    "$(echo "$raw_bytes / $push_calls" | bc -l)"
printf 'bytes per call: SQLite %.1f, ClickHouse %.1f (cuda_call table only, %d calls)\n' \
    "$(echo "$sqlite_bytes / $push_calls" | bc -l)" "$(echo "$ch_bytes / $ch_rows" | bc -l)" \
    "$push_calls"

# The fleet query's input: FLEET_CALLS calls over 8 nodes, one thread each; node-5 runs its loop
# at two thirds of the others' rate. Pushes and causes as `causeway push` writes them.
start=$(now)
ch "INSERT INTO ${tables}_cuda_call (job, node, push_id, attempt, row_index, thread_id, op_id,
    ts_ns, dur_ns, ret) SELECT 'fleet-bench', concat('node-', toString(number % 8)), 'synthetic',
    1, intDiv(number, 8), 1, 7 + number % 3,
    toInt64(intDiv(number, 8) * if(number % 8 = 5, 150000, 100000)), 20000 + number % 5000, 0
    FROM numbers($fleet_calls)"
# Each node's per-thread summary, as `causeway push` has the server sum it from the stored calls.
ch "INSERT INTO ${tables}_node_thread (job, node, push_id, attempt, thread_id, calls, first_ts_ns,
    last_end_ns) SELECT job, node, push_id, attempt, thread_id, count(), min(ts_ns),
    max(ts_ns + dur_ns) FROM ${tables}_cuda_call WHERE job = 'fleet-bench'
    GROUP BY job, node, push_id, attempt, thread_id"
for n in 0 1 2 3 4 5 6 7; do
    cause=GPU-BOUND
    [[ $n == 5 ]] && cause=INPUT-BOUND
    ch "INSERT INTO ${tables}_node_cause (job, node, push_id, attempt, chain_index, cause,
        root_cause, lost_ns, verdict) VALUES ('fleet-bench', 'node-$n', 'synthetic', 1, 0,
        '$cause', 'synthetic', 1000000000, '$cause')"
    ch "INSERT INTO ${tables}_push (job, node, rank, push_id, attempt, complete, version_ns,
        rows_stored, host, source) VALUES ('fleet-bench', 'node-$n', $n, 'synthetic', 1, 1, 2,
        0, 'synthetic', 'synthetic')"
done
printf 'generated %d calls over 8 nodes in ClickHouse in %.1f s\n' "$fleet_calls" \
    "$(echo "$(now) - $start" | bc -l)"
read -r median base_median < <(median_times 5 fleet --clickhouse "$url" --job fleet-bench --json)
"$causeway" fleet --clickhouse "$url" --job fleet-bench --json >"$work/fleet.json"
printf 'fleet query: %d calls over 8 nodes, median of 5: %.2f s (straggler %s)\n' \
    "$fleet_calls" "$median" "$(jq -r .straggler.node "$work/fleet.json")"
if [[ -n "$baseline" ]]; then
    printf '  baseline %s: %.2f s; this build is %.1fx as fast\n' "$baseline" "$base_median" \
        "$(echo "$base_median / $median" | bc -l)"
fi
