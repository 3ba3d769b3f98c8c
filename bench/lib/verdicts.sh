# shellcheck shell=bash
# Section 5: verdict stability. The DataLoader scenarios (the C++ flagship and real PyTorch) and the
# late NCCL ranks (fake-NCCL ranks, one late on a timer, on its DataLoader workers or beside a hog:
# the late rank must be the actor) are recorded
# VERDICT_RUNS times each on the machine as it is, then VERDICT_RUNS times while a
# parallel build of this repository loads every CPU; every recording must give the verdict and
# top-chain actor that tests/scenarios/scenarios.tsv expects. Recordings run the way the suite and
# the demo run them: in a session of their own whose autogroup has nice -20, so the build shares
# the machine as a background job would. Sourced by run.sh.

# BENCH_VERDICT_SCENARIOS (names separated by spaces) runs some of them.
read -r -a VERDICT_SCENARIOS <<<"${BENCH_VERDICT_SCENARIOS:-dataloader-oversubscribed \
  torch-dataloader nccl-late-rank nccl-dataloader-rank nccl-neighbour-rank}"
# The NCCL scenarios' late rank and the cause that took most of its lateness (as their e2e tests
# expect): every recording must name both.
declare -A VERDICT_LATE=([nccl-late-rank]=rank2/timer [nccl-dataloader-rank]=rank1/dataloader_workers
  [nccl-neighbour-rank]=rank0/processes_outside)
VERDICT_DURATION_S=2.5 # training time of each recording (s)

# scenario_field NAME COLUMN: one column (1-based) of the scenario's line in the table.
scenario_field() {
  awk -v name="$1" -v column="$2" '$1 == name { print $column }' "$REPO_DIR/tests/scenarios/scenarios.tsv"
}

# verdict_once NAME [ARGS...]: records the scenario once (its program given ARGS, beside its
# neighbour where the table names one) and prints "verdict actor_kind top_chain_cost_share late"
# (its critical path's share of the loop; late: a late rank's name and the cause of its lateness,
# rank2/timer, or '-').
verdict_once() {
  local program neighbour db=$BENCH_OUT/verdict.db
  program=$(scenario_field "$1" 2)
  neighbour=$(scenario_field "$1" 7)
  shift
  rm -f "$db" "$db-wal" "$db-shm"
  in_own_session "$BENCH_DIR/lib/with_neighbour.sh" "$(neighbour_path "$neighbour")" \
    "$COLLECTOR" record --db "$db" --quiet -- "$BUILD_DIR/tests/workloads/scenarios/$program" \
    --duration "$VERDICT_DURATION_S" "$@" >>"$BENCH_OUT/raw.log" 2>&1 ||
    die "recording $program failed (see $BENCH_OUT/raw.log)"
  "$CAUSEWAY" explain --db "$db" --json |
    jq -r '.chains[0] as $top | ($top.evidence // [] | map(.key | select(startswith("late_rank_cause_share:")))) as $why |
      "\(.verdict.name) \($top.actor.kind // "none") \($top.critical_path.share // 0) \(if $top.actor.kind == "late_rank" then "\($top.actor.name | gsub(" "; ""))/\($why[0] // "" | sub("late_rank_cause_share:"; ""))" else "-" end)"'
}

# verdict_series NAME LOAD: VERDICT_RUNS recordings; records one results row and one target row.
verdict_series() {
  local name=$1 load=$2 expected_verdict expected_actor agree=0 run line
  local -a shares=()
  expected_verdict=$(scenario_field "$name" 3)
  expected_actor=$(scenario_field "$name" 5)
  for ((run = 1; run <= VERDICT_RUNS; run++)); do
    line=$(verdict_once "$name")
    log "verdicts $name ($load) $run/$VERDICT_RUNS: $line"
    read -r verdict actor share late <<<"$line"
    # A verdict of choices (A|B, where the machine's speed decides) agrees with any of them; the
    # first is the fix's own cause, whose actor must then lead.
    if [[ "|$expected_verdict|" == *"|$verdict|"* &&
      ($verdict != "${expected_verdict%%|*}" || $actor == "${expected_actor%%:*}") &&
      $late == "${VERDICT_LATE[$name]:--}" ]]; then
      agree=$((agree + 1))
    fi
    shares+=("$share")
  done
  local sorted
  sorted=$(printf '%s\n' "${shares[@]}" | sort -g)
  record verdicts "$name, $load: recordings giving $expected_verdict by $expected_actor${VERDICT_LATE[$name]:+ (${VERDICT_LATE[$name]})}" \
    "$agree/$VERDICT_RUNS" recordings \
    "top chain's critical-path cost $(calc "$(head -1 <<<"$sorted") * 100" 0)-$(calc "$(tail -1 <<<"$sorted") * 100" 0)% of the loop, median $(calc "$(printf '%s\n' "${shares[@]}" | median) * 100" 0)%"
  target "$name: the same verdict in every recording ($load)" \
    "$([[ $agree -eq $VERDICT_RUNS ]] && echo yes || echo no)" "$agree of $VERDICT_RUNS"
}

# Builds this repository from scratch in a folder of its own, over and over, with a job per CPU
# and no compiler cache: the load of a developer's parallel build. Sets BUILD_LOAD_PID.
start_build_load() {
  local dir=$BENCH_OUT/load-build
  cmake -S "$REPO_DIR" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >>"$BENCH_OUT/raw.log" 2>&1 ||
    die "cannot configure the load build (see $BENCH_OUT/raw.log)"
  setsid bash -c 'while :; do ninja -C "$1" -t clean >/dev/null; CCACHE_DISABLE=1 ninja -C "$1" -j "$2" >/dev/null 2>&1; done' \
    build-load "$dir" "$(nproc)" &
  BUILD_LOAD_PID=$!
  sleep 10 # every CPU busy before the first recording
}

stop_build_load() {
  kill -- -"$BUILD_LOAD_PID" 2>/dev/null || true
  wait "$BUILD_LOAD_PID" 2>/dev/null || true
}

verdicts_section() {
  command -v jq >/dev/null || die "jq is missing: run scripts/install-deps.sh"
  log "verdicts: $VERDICT_RUNS recordings of ${VERDICT_SCENARIOS[*]}, then as many under a parallel build"
  local name
  for name in "${VERDICT_SCENARIOS[@]}"; do
    verdict_series "$name" "machine as found (load $(cut -d' ' -f1 /proc/loadavg))"
  done
  start_build_load
  trap stop_build_load EXIT
  for name in "${VERDICT_SCENARIOS[@]}"; do
    verdict_series "$name" "under a parallel build (-j$(nproc))"
  done
  stop_build_load
  trap - EXIT
}
