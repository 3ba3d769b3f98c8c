#!/usr/bin/env bash
# e2e:clickhouse_fleet_ranks — the ranks of an NCCL job (Python ranks on the fake CUDA runtime
# and fake NCCL) recorded as a cluster records them, one collector per rank, and pushed as
# separate nodes through a Distributed table over two real clickhouse-server shards:
#   * `fleet` names the rank the others wait for (rank 2, asleep waiting for its input) and its
#     node's cause, as `explain` of the same job recorded in one trace names COLLECTIVE-WAIT by
#     rank 2, late on a timer;
#   * its predicted gain is within 0.8-1.25 of the measured fix (rank 2 on time, untraced, in
#     this run, taking turns with rank 2 late) and of explain's prediction;
#   * with the nodes' clocks set 37 ms ahead and 20 ms behind, the offsets are recovered from the
#     collectives and the answer is the same;
#   * a rank that hangs is named with the collective it never issued, its last call and its
#     Python line.
# Usage: fleet_ranks_test.sh CAUSEWAY COLLECTOR NCCL_LAUNCH RANK_SCRIPT FAKECUDA_DIR. Needs root
# (it records). Exit 77 (skip) without root or clickhouse-server, unless
# CAUSEWAY_REQUIRE_RUNTIME=1 (then it fails).
set -euo pipefail
causeway="$1"
collector="$2"
launch="$3"
script="$4"
export CAUSEWAY_FAKECUDA_DIR="$5"
python=/usr/bin/python3
if [[ "$(id -u)" != 0 ]]; then
    if [[ "${CAUSEWAY_REQUIRE_RUNTIME:-0}" == 1 ]]; then
        echo "FAIL: recording the ranks needs root (CAUSEWAY_REQUIRE_RUNTIME is set)" >&2
        exit 1
    fi
    echo "SKIP: recording the ranks needs root"
    exit 77
fi
# shellcheck source=tests/clickhouse/shards.sh
source "$(dirname "$0")/shards.sh"
"$causeway" push --clickhouse "$SHARD2_URL" --cluster causeway_test --create-tables-only >/dev/null
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --create-tables-only >/dev/null

# Steps of 10 ms on the device, rank 2's input 15 ms late: a step as long as a real one, so that
# the scheduler's delays on a loaded machine (a millisecond or two a step) do not decide the gain.
steps=100
job_args=(--steps "$steps" --compute-ms 10)
late_args=("${job_args[@]}" --late-rank 2 --late-ms 15)

# NAME "COLLECTOR ARGS" RANK ARGS...: the three ranks, each recorded by its own collector into
# NAME0.db .. NAME2.db, as each node of a cluster records its own.
record_per_rank() {
    local name="$1" collector_args="$2"
    shift 2
    "$launch" 3 /bin/sh -c "exec \"\$0\" record --db \"$work/$name\$RANK.db\" --quiet --stacks \
        $collector_args -- $python \"\$@\"" "$collector" "$script" "$@" >"$work/$name.out" 2>&1
}
# JOB NAME: pushes NAME0.db .. NAME2.db as nodes node-0 .. node-2 of JOB.
push_ranks() {
    for r in 0 1 2; do
        "$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job "$1" \
            --node "node-$r" --rank "$r" "$work/$2$r.db" >/dev/null
    done
}
# ARGS...: rank 0's steps per second, untraced (the ranks' lines may come interleaved).
steps_per_s() {
    "$launch" 3 "$python" "$script" "$@" | grep -o 'rank=0 steps=[0-9]* elapsed_s=[0-9.]* steps_per_s=[0-9.]*' |
        sed 's/.*steps_per_s=//'
}
# A B LOW HIGH: whether LOW <= A / B <= HIGH.
ratio_within() {
    awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { r = a / b; exit !(r >= lo && r <= hi) }'
}

echo "== one collector per rank; fleet names the rank the others wait for"
record_per_rank late "" "${late_args[@]}" || fail "recording the ranks failed: $(cat "$work/late.out")"
push_ranks ranks-1 late
"$causeway" fleet --clickhouse "$SHARD1_URL" --job ranks-1 | tee "$work/fleet.txt"
"$causeway" fleet --clickhouse "$SHARD1_URL" --job ranks-1 --json >"$work/fleet.json"
jq -e '.straggler | .basis == "others_wait_for_it" and .node == "node-2" and .rank == 2' \
    "$work/fleet.json" >/dev/null || fail "the straggler is not rank 2 on node-2, waited for"
jq -e '.straggler.late.arrived_last_share > 0.9' "$work/fleet.json" >/dev/null ||
    fail "rank 2 did not arrive last at most collectives"
jq -e --argjson steps "$steps" '.communicators[0] | .nranks == 3 and .aligned == $steps' \
    "$work/fleet.json" >/dev/null || fail "the $steps all-reduces of the 3 ranks are not aligned"
jq -e '[.nodes[] | select(.node != "node-2") | .collective_wait_ns > 0] | all' \
    "$work/fleet.json" >/dev/null || fail "ranks 0 and 1 did not wait in collectives"
grep -q "Straggler: node-2 (rank 2): the other ranks wait for it" "$work/fleet.txt" ||
    fail "the fleet text does not say the others wait for rank 2"

echo "== explain of the job recorded in one trace gives the same answer"
"$collector" record --db "$work/all.db" --quiet --stacks -- "$launch" 3 "$python" "$script" \
    "${late_args[@]}" >"$work/all.out" 2>&1 || fail "recording the job failed: $(cat "$work/all.out")"
"$causeway" explain --db "$work/all.db" --json >"$work/explain.json"
jq -e '.chains[0] | .root_cause_class == "COLLECTIVE-WAIT" and .actor.name == "rank 2"' \
    "$work/explain.json" >/dev/null || fail "explain of the one trace is not COLLECTIVE-WAIT by rank 2"
late_cause="$(jq -r '.chains[0].evidence[].key | select(startswith("late_rank_cause_share:"))' \
    "$work/explain.json" | cut -d: -f2)"
[[ "$late_cause" == timer ]] || fail "explain's late cause is '$late_cause', not timer"
[[ "$(jq -r '.nodes[] | select(.node == "node-2") | .causes[0].actor_kind' "$work/fleet.json")" == \
    "$late_cause" ]] || fail "node-2's cause in the fleet is not explain's late cause ($late_cause)"
jq -e '.straggler.cause_speedup > 1.5' "$work/fleet.json" >/dev/null ||
    fail "the straggler's cause carries no predicted gain"
fleet_gain="$(jq '.straggler.late.job_speedup' "$work/fleet.json")"
explain_gain="$(jq '.chains[0].critical_path.predicted_speedup' "$work/explain.json")"
ratio_within "$fleet_gain" "$explain_gain" 0.8 1.25 ||
    fail "fleet predicts ${fleet_gain}x, explain ${explain_gain}x"

echo "== the gain predicted is the measured fix's"
# Late and on time twice each, taking turns, so that a change in the machine's load falls on
# both; the mean rate of each.
add_half() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b / 2 }'; }
late_rate=0
fixed_rate=0
for _ in 1 2; do
    late_rate="$(add_half "$late_rate" "$(steps_per_s "${late_args[@]}")")"
    fixed_rate="$(add_half "$fixed_rate" "$(steps_per_s "${job_args[@]}")")"
done
measured="$(awk -v a="$fixed_rate" -v b="$late_rate" 'BEGIN { print a / b }')"
echo "predicted ${fleet_gain}x (explain ${explain_gain}x), measured ${measured}x" \
    "($late_rate -> $fixed_rate steps/s)"
ratio_within "$fleet_gain" "$measured" 0.8 1.25 ||
    fail "fleet predicts ${fleet_gain}x where rank 2 on time measures ${measured}x"

echo "== nodes whose clocks disagree: the offsets come from the collectives"
for r in 0 1 2; do cp "$work/late$r.db" "$work/shifted$r.db"; done
"$python" - "$work" <<'PY'
import sqlite3, sys
for rank, shift_ns in ((1, 37_000_000), (2, -20_000_000)):
    db = sqlite3.connect(f"{sys.argv[1]}/shifted{rank}.db")
    db.execute("UPDATE session SET start_wall_ns = start_wall_ns + ?", (shift_ns,))
    db.commit()
PY
push_ranks ranks-shifted shifted
"$causeway" fleet --clickhouse "$SHARD1_URL" --job ranks-shifted --json >"$work/shifted.json"
offset_of() { jq ".nodes[] | select(.node == \"$1\") | .clock_offset_ns" "$work/shifted.json"; }
unshifted_of() { jq ".nodes[] | select(.node == \"$1\") | .clock_offset_ns" "$work/fleet.json"; }
for pair in node-1:37000000 node-2:-20000000; do
    node="${pair%%:*}"
    shift_ns="${pair##*:}"
    # Against the unshifted push of the same recordings: the estimate moves by the shift.
    error=$(($(offset_of "$node") - $(unshifted_of "$node") - shift_ns))
    ((error > -1000 && error < 1000)) || fail "$node's clock estimate is off its shift by $error ns"
done
jq -e '.straggler | .node == "node-2" and .rank == 2' "$work/shifted.json" >/dev/null ||
    fail "with shifted clocks the straggler is not rank 2"
ratio_within "$(jq '.straggler.late.job_speedup' "$work/shifted.json")" "$fleet_gain" 0.98 1.02 ||
    fail "shifted clocks change the predicted gain"

echo "== a rank that hangs is named, with its last call and Python line"
record_per_rank hang "--duration 3 --kill-after 1" --steps 100000 --hang-rank 1 --hang-after 20 ||
    true  # the collectors end the ranks at --duration: the launcher reports them killed
push_ranks ranks-hang hang
"$causeway" fleet --clickhouse "$SHARD1_URL" --job ranks-hang | tee "$work/hang.txt"
"$causeway" fleet --clickhouse "$SHARD1_URL" --job ranks-hang --json >"$work/hang.json"
jq -e '.straggler | .basis == "never_arrived" and .node == "node-1" and .rank == 1' \
    "$work/hang.json" >/dev/null || fail "the hung rank 1 is not the straggler"
jq -e '.straggler.absent | .collective == 21 and (.last_call | length > 0)
    and (.stuck_at | endswith(" in hang_reading_input"))' "$work/hang.json" >/dev/null ||
    fail "the hung rank's collective, last call or line is wrong: $(jq -c .straggler "$work/hang.json")"
grep -q "never issued collective 21, which the other ranks entered" "$work/hang.txt" ||
    fail "the fleet text does not name the collective rank 1 never issued"
echo "PASS"
