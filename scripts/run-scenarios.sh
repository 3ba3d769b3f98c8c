#!/usr/bin/env bash
# Runs the scenario suite listed in tests/scenarios/scenarios.tsv: records every scenario with the
# real collector, diagnoses the recording with `causeway explain --json`, records the fixed variant
# the same way, and prints the summary table (scenario, expected, verdict, top chain, batches/s
# before and after the fix). Exits 1 when a verdict, top chain or named competitor is not the
# expected one. Needs root (the collector attaches eBPF probes) and a built tree.
#
# Usage: sudo scripts/run-scenarios.sh [--build-dir DIR] [--duration SECONDS] [--keep DIR]
#                                       [--shared] [SCENARIO...]
#   --build-dir DIR   the CMake build folder (default: build)
#   --duration S      seconds each scenario trains for (default: 3)
#   --keep DIR        keep the trace DBs, program output and explain JSON in DIR
#   --shared          share the CPUs evenly with the rest of the machine (see below)
#   SCENARIO...       run only these scenarios (default: all)
#
# By default the suite runs in a session of its own whose autogroup has nice -20, so that unrelated
# load on a shared machine (a parallel build) does not become every scenario's diagnosis; the
# scenarios' own competitors (DataLoader workers, the noisy neighbour) run in that session too.
set -euo pipefail
arguments=("$@")
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$root/build
duration_s=3
keep_dir=
shared=
selected=()

usage() { sed -n '8,18p' "$0" | sed 's/^# \{0,1\}//'; }
fail() {
    echo "run-scenarios.sh: $*" >&2
    exit 2
}

while (($#)); do
    case $1 in
        --build-dir) build_dir=$(realpath "${2:?--build-dir needs a folder}"); shift 2 ;;
        --duration) duration_s=${2:?--duration needs seconds}; shift 2 ;;
        --keep) keep_dir=${2:?--keep needs a folder}; shift 2 ;;
        --shared) shared=1; shift ;;
        -h | --help) usage; exit 0 ;;
        -*) usage >&2; fail "unknown option $1" ;;
        *) selected+=("$1"); shift ;;
    esac
done

collector=$build_dir/collector/causeway-collector
causeway=$build_dir/cli/causeway
programs=$build_dir/tests/workloads/scenarios
table=$root/tests/scenarios/scenarios.tsv

((EUID == 0)) || fail "run me as root (sudo $0): the collector attaches eBPF probes"
command -v jq >/dev/null || fail "jq is missing: run scripts/install-deps.sh"
for binary in "$collector" "$causeway" "$programs/healthy"; do
    [[ -x $binary ]] || fail "$binary is missing: build first (cmake --build $build_dir)"
done

# Re-run in a new session (hence a new autogroup) and give that autogroup the top weight.
if [[ -z $shared && -z ${CAUSEWAY_SCENARIOS_SESSION:-} ]]; then
    export CAUSEWAY_SCENARIOS_SESSION=1
    exec setsid --wait "$0" "${arguments[@]}"
fi
if [[ -z $shared ]] && ! echo -20 >"/proc/$$/autogroup" 2>/dev/null; then
    echo "run-scenarios.sh: note: no scheduler autogroups here; other load on this machine will" \
        "show up in the diagnoses" >&2
fi

if [[ -n $keep_dir ]]; then
    mkdir -p "$keep_dir"
    work_dir=$(realpath "$keep_dir")
else
    work_dir=$(mktemp -d /tmp/causeway-scenarios.XXXXXX)
fi
neighbour_pid=
cleanup() {
    [[ -z $neighbour_pid ]] || kill "$neighbour_pid" 2>/dev/null || true
    [[ -n $keep_dir ]] || rm -rf "$work_dir"
}
trap cleanup EXIT

# start_neighbour PROGRAM: starts a scenario's neighbour outside the traced tree.
start_neighbour() {
    "$programs/$1" --duration 600 >/dev/null &
    neighbour_pid=$!
    sleep 0.5 # let it reach full speed before the recording starts
}

stop_neighbour() {
    kill "$neighbour_pid"
    wait "$neighbour_pid" || true
    neighbour_pid=
}

# record NAME PROGRAM ARGS...: records one run into $work_dir/NAME.db, explains it into
# NAME.json; prints the program's batches/s.
record() {
    local name=$1 program=$2
    shift 2
    local db=$work_dir/$name.db
    rm -f "$db" "$db-wal" "$db-shm"
    # The fake runtime's device moves pinned copies at 24 GB/s, as a PCIe 4.0 x16 card does.
    if ! "$collector" record --db "$db" --quiet --gpu-link gen4x16 -- "$programs/$program" --duration "$duration_s" "$@" \
        >"$work_dir/$name.out" 2>"$work_dir/$name.err"; then
        echo "run-scenarios.sh: recording $name failed; its output:" >&2
        cat "$work_dir/$name.out" "$work_dir/$name.err" >&2
        return 1
    fi
    "$causeway" explain --db "$db" --json >"$work_dir/$name.json" 2>>"$work_dir/$name.err"
    sed -n 's/^throughput_batches_per_s=//p' "$work_dir/$name.out" | tail -n 1
}

# check JSON VERDICTS TOP_CHAIN ACTOR COMPETITOR: empty when the diagnosis is the expected one,
# else what differs. VERDICTS is one name or the choices A|B (scenarios.tsv); the fix's chain is
# the first of class TOP_CHAIN, and it leads when the verdict is the first choice.
check() {
    jq -r --arg verdicts "$2" --arg chain "$3" --arg actor "$4" --arg competitor "$5" '
        ($verdicts | split("|")) as $choices
        | (first(.chains[]? | select(.root_cause_class == $chain)) // null) as $fix
        | .verdict.name as $verdict
        | [ (if ($choices | index($verdict)) == null then "verdict \($verdict)" else empty end),
          (if $chain == "-" then
               ([.chains[]? | select(.confidence == "HIGH")] | length) as $high
               | if $high > 0 then "\($high) HIGH chain(s)" else empty end
           elif $fix == null then "no \($chain) chain"
           elif .verdict.name == $choices[0] and (.chains[0].root_cause_class // "none") != $chain then
               "top chain \(.chains[0].root_cause_class // "none")"
           else empty end),
          (if $actor == "-" or $fix == null then empty else
               ($fix.actor // {}) as $a
               | ($actor | split(":")) as $want
               | if $a.kind != $want[0] or ($want | length > 1 and $a.name != $want[1]) then
                     "actor \($a.kind // "none"):\($a.name // "")"
                 else empty end
           end),
          (if $competitor != "-" and
              ([$fix.competitors[]?.comm] | index($competitor)) == null then
               "\($competitor) not named"
           else empty end)
        ] | join(", ")' "$1"
}

# The predicted speed-up of the chain of class $2 (the fix's cause) that the table's calibration $3
# holds to the fix: its advised fix's ('advised', 'advised-at-most'), else removing the cause's;
# or n/a.
predicted() {
    local field=predicted_speedup
    [[ $3 != advised* ]] || field=advised_fix.predicted_speedup
    jq -r --arg chain "$2" '(first(.chains[]? | select(.root_cause_class == $chain)
        | .critical_path.'"$field"') // null) as $p
        | if $p == null then "n/a" else "\($p * 10 | round / 10)x" end' "$1"
}

top_chain() {
    jq -r 'if (.chains | length) > 0 then "\(.chains[0].root_cause_class) (\(.chains[0].confidence))"
           else "none" end' "$1"
}

printf '%-26s %-24s %-17s %-26s %9s %9s %8s %9s  %s\n' scenario expected verdict "top chain" \
    before after speed-up predicted result
mismatches=0
while read -r scenario program verdict chain actor competitor neighbour calibration fix; do
    [[ -z $scenario || $scenario == \#* ]] && continue
    if ((${#selected[@]})) && [[ " ${selected[*]} " != *" $scenario "* ]]; then
        continue
    fi
    [[ $neighbour == - ]] || start_neighbour "$neighbour"
    before=$(record "$scenario" "$program")
    [[ $neighbour == - ]] || stop_neighbour
    case $fix in
        -) after= ;;
        no-neighbour) after=$(record "$scenario-fixed" "$program") ;;
        *) read -r -a fix_args <<<"$fix"; after=$(record "$scenario-fixed" "$program" "${fix_args[@]}") ;;
    esac
    json=$work_dir/$scenario.json
    problems=$(check "$json" "$verdict" "$chain" "$actor" "$competitor")
    if [[ -z $problems ]]; then
        result=ok
    else
        result="MISMATCH: $problems"
        mismatches=$((mismatches + 1))
    fi
    speedup=n/a
    [[ -z $after ]] || speedup=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
    printf '%-26s %-24s %-17s %-26s %9s %9s %8s %9s  %s\n' "$scenario" "$verdict" \
        "$(jq -r .verdict.name "$json")" "$(top_chain "$json")" "$before" "${after:-n/a}" \
        "$speedup" "$(predicted "$json" "$chain" "$calibration")" "$result"
done <"$table"

[[ -z $keep_dir ]] || echo "trace DBs, program output and explain JSON kept in $work_dir"
((mismatches == 0)) || exit 1
