#!/usr/bin/env bash
# Fleet benchmark on a real clickhouse-server (started on loopback by tests/clickhouse/):
#   1. push rate: `causeway push` of a synthetic trace (causeway-bench-synth), in CUDA calls/s
#      (wall time of the whole push: reading SQLite, RowBinary over HTTP, and the node's diagnosis);
#   2. bytes per call: cuda_call on disk in ClickHouse (system.parts) against SQLite (dbstat);
#   3. fleet query time: `causeway fleet` over CALLS synthetic calls on 8 nodes, generated inside
#      ClickHouse (INSERT ... SELECT FROM numbers()), one node slower than the rest; median of 5.
# Usage: bench/fleet/fleet_bench.sh [BUILD_DIR]   PUSH_CALLS (default 2000000) and
# FLEET_CALLS (default 100000000) set the sizes.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$repo/build}"
push_calls="${PUSH_CALLS:-2000000}"
fleet_calls="${FLEET_CALLS:-100000000}"
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
ch() { curl -sSf "$url" --data-binary "$1"; }
now() { date +%s.%N; }

echo "clickhouse-server $(ch 'SELECT version()'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"

"$build/bench/causeway-bench-synth" --out "$work/push.db" --calls "$push_calls" >/dev/null
"$causeway" push --clickhouse "$url" --create-tables-only >/dev/null
start=$(now)
"$causeway" push --clickhouse "$url" --job push-bench --node n1 "$work/push.db" >/dev/null
push_s=$(echo "$(now) - $start" | bc -l)
start=$(now)
"$causeway" explain --db "$work/push.db" >/dev/null
diagnosis_s=$(echo "$(now) - $start" | bc -l)
ch "OPTIMIZE TABLE causeway_v3_cuda_call FINAL"
sqlite_bytes=$(sqlite3 "$work/push.db" "SELECT sum(pgsize) FROM dbstat WHERE name = 'cuda_call'")
ch_bytes=$(ch "SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND table = 'causeway_v3_cuda_call'")
printf 'push: %d calls in %.2f s = %.0f calls/s (of which the node diagnosis, as explain: %.2f s)\n' \
    "$push_calls" "$push_s" "$(echo "$push_calls / $push_s" | bc -l)" "$diagnosis_s"
printf 'bytes per call: SQLite %.1f, ClickHouse %.1f (cuda_call table only, %d calls)\n' \
    "$(echo "$sqlite_bytes / $push_calls" | bc -l)" "$(echo "$ch_bytes / $push_calls" | bc -l)" \
    "$push_calls"

# The fleet query's input: FLEET_CALLS calls over 8 nodes, one thread each; node-5 runs its loop
# at two thirds of the others' rate. Pushes and causes as `causeway push` writes them.
start=$(now)
ch "INSERT INTO causeway_v3_cuda_call (job, node, push_id, attempt, row_index, thread_id, op_id,
    ts_ns, dur_ns, ret) SELECT 'fleet-bench', concat('node-', toString(number % 8)), 'synthetic',
    1, intDiv(number, 8), 1, 7 + number % 3,
    toInt64(intDiv(number, 8) * if(number % 8 = 5, 150000, 100000)), 20000 + number % 5000, 0
    FROM numbers($fleet_calls)"
for n in 0 1 2 3 4 5 6 7; do
    cause=GPU-BOUND
    [[ $n == 5 ]] && cause=INPUT-BOUND
    ch "INSERT INTO causeway_v3_node_cause (job, node, push_id, attempt, chain_index, cause,
        root_cause, lost_ns, verdict) VALUES ('fleet-bench', 'node-$n', 'synthetic', 1, 0,
        '$cause', 'synthetic', 1000000000, '$cause')"
    ch "INSERT INTO causeway_v3_push (job, node, rank, push_id, attempt, complete, version_ns,
        rows_stored, host, source) VALUES ('fleet-bench', 'node-$n', $n, 'synthetic', 1, 1, 2,
        0, 'synthetic', 'synthetic')"
done
printf 'generated %d calls over 8 nodes in ClickHouse in %.1f s\n' "$fleet_calls" \
    "$(echo "$(now) - $start" | bc -l)"
times=()
for _ in 1 2 3 4 5; do
    start=$(now)
    "$causeway" fleet --clickhouse "$url" --job fleet-bench --json >"$work/fleet.json"
    times+=("$(echo "$(now) - $start" | bc -l)")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
printf 'fleet query: %d calls over 8 nodes, median of 5: %.2f s (straggler %s)\n' \
    "$fleet_calls" "$median" "$(jq -r .straggler.node "$work/fleet.json")"
