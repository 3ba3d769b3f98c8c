# shellcheck shell=bash
# Section 1: per-call overhead. The call loop calls cudaEventSynchronize of the fake runtime
# OVERHEAD_CALLS times, untraced, under the empty uprobe+uretprobe floor, under causeway-collector
# (which must store every call) and under bpftrace's latency script; the rounds are interleaved so
# drift in the VM hits every tracer alike. Sourced by run.sh.

# wall_and_cpu: the loop's "wall-ns-per-call cpu-ns-per-call" from its result line on stdin.
wall_and_cpu() {
  local line
  line=$(grep 'ns_per_call=')
  echo "$(kv ns_per_call <<<"$line") $(kv cpu_ns_per_call <<<"$line")"
}

# Each runner prints wall_and_cpu of one loop.
loop_untraced() { "${CALL_LOOP[@]}" --calls "$OVERHEAD_CALLS" | tee -a "$BENCH_OUT/raw.log" | wall_and_cpu; }

loop_under_floor() {
  start_and_wait_for "$BENCH_OUT/floor.out" attached \
    "$BENCH_BIN/causeway-bench-floor" --lib "$FAKECUDART" --symbol cudaEventSynchronize
  local floor_pid=$STARTED_PID
  loop_untraced
  stop_started "$floor_pid"
}

loop_under_causeway() {
  local db=$BENCH_OUT/overhead.db
  local line
  line=$(record_with_collector "$db" "${CALL_LOOP[@]}" --calls "$OVERHEAD_CALLS" | grep 'ns_per_call=')
  echo "causeway: $line" >>"$BENCH_OUT/raw.log"
  # The comparison is only fair if the collector really stored every call of the loop.
  local expected=$((OVERHEAD_CALLS + LOOP_WARMUP)) stored
  stored=$(sql_value "$db" "SELECT count(*) FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id
                            WHERE o.name = 'cudaEventSynchronize'")
  [[ $stored -eq $expected ]] ||
    die "causeway-collector stored $stored of $expected cudaEventSynchronize calls; the overhead figure would not be for recording every call"
  local other
  other=$(sql_value "$db" "SELECT count(*) FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id
                           WHERE o.name <> 'cudaEventSynchronize'")
  ((other <= 16)) ||
    die "causeway-collector recorded $other other CUDA calls: it probes more than one function per loop iteration, so one empty probe pair is not its floor"
  wall_and_cpu <<<"$line"
}

loop_under_bpftrace() {
  local out
  out=$(bpftrace -c "${CALL_LOOP[*]} --calls $OVERHEAD_CALLS" "$BENCH_DIR/tracers/cuda_latency.bt" \
    "$FAKECUDART" 2>>"$BENCH_OUT/raw.log")
  echo "bpftrace: $out" >>"$BENCH_OUT/raw.log"
  grep -q '@latency_ns' <<<"$out" || die "bpftrace printed no latency histogram (see $BENCH_OUT/raw.log)"
  wall_and_cpu <<<"$out"
}

overhead_section() {
  log "overhead: $RUNS rounds of $OVERHEAD_CALLS calls untraced / floor / causeway / bpftrace"
  local -A wall=() cpu=()
  local tracer result summary
  local -a tracers=(untraced floor causeway bpftrace)
  for ((round = 1; round <= RUNS; round++)); do
    summary=""
    for tracer in "${tracers[@]}"; do
      case $tracer in
        untraced) result=$(loop_untraced) ;;
        floor) result=$(loop_under_floor) ;;
        causeway) result=$(loop_under_causeway) ;;
        bpftrace) result=$(loop_under_bpftrace) ;;
      esac
      wall[$tracer]+="${result% *}"$'\n'
      cpu[$tracer]+="${result#* }"$'\n'
      summary+="$tracer $result; "
    done
    log "overhead round $round (wall, CPU ns/call): $summary"
  done
  # Added cost = median with the tracer - median untraced, in CPU time of the calling thread
  # (robust to other load on the machine) and in wall time (what a user waits).
  local -A cpu_added=() wall_added=()
  for tracer in floor causeway bpftrace; do
    cpu_added[$tracer]=$(calc "$(median <<<"${cpu[$tracer]}") - $(median <<<"${cpu[untraced]}")" 0)
    wall_added[$tracer]=$(calc "$(median <<<"${wall[$tracer]}") - $(median <<<"${wall[untraced]}")" 0)
  done
  local -A ratio=()
  for tracer in causeway bpftrace; do
    ratio[$tracer]=$(calc "${cpu_added[$tracer]} / ${cpu_added[floor]}")
  done
  record overhead "untraced cudaEventSynchronize (fake runtime), CPU / wall" \
    "$(calc "$(median <<<"${cpu[untraced]}")" 0) / $(calc "$(median <<<"${wall[untraced]}")" 0)" ns/call "median of $RUNS x $OVERHEAD_CALLS calls"
  record overhead "empty uprobe+uretprobe (the floor): added CPU / wall" \
    "${cpu_added[floor]} / ${wall_added[floor]}" ns/call "1.00x floor"
  record overhead "causeway-collector, every call stored: added CPU / wall" \
    "${cpu_added[causeway]} / ${wall_added[causeway]}" ns/call \
    "${ratio[causeway]}x floor (wall: $(calc "${wall_added[causeway]} / ${wall_added[floor]}")x)"
  record overhead "bpftrace latency histogram: added CPU / wall" \
    "${cpu_added[bpftrace]} / ${wall_added[bpftrace]}" ns/call \
    "${ratio[bpftrace]}x floor (wall: $(calc "${wall_added[bpftrace]} / ${wall_added[floor]}")x)"
  overhead_bpf_breakdown "${cpu_added[floor]}"
  target "causeway added cost <= 1.10x the floor" \
    "$(holds "${ratio[causeway]} <= 1.10" && echo yes || echo no)" \
    "${ratio[causeway]}x (CPU time; two clock reads + one ring-buffer record alone: ${LEAST_RECORDER_RATIO}x)"
  # Issue 29's bound: what any tracer that stores every call pays here, plus 2%. The uprobe's
  # trap is the same for both, so the collector's cost above the bound is its BPF programs' run
  # time above the bound's (bpf_stats, exact per program); the rounds' CPU medians, which vary by
  # 20% from round to round on a shared VM, are shown beside it.
  local over_bound rounds_over
  over_bound=$(calc "($BPF_COLLECTOR_NS - $BPF_RECORDER_NS) / $LEAST_RECORDER_NS * 100" 1)
  rounds_over=$(calc "(${cpu_added[causeway]} / $LEAST_RECORDER_NS - 1) * 100" 1)
  target "causeway added cost within 2% of two clock reads + one ring-buffer record (issue 29)" \
    "$(holds "$over_bound <= 2" && echo yes || echo no)" \
    "$over_bound% above: BPF $BPF_COLLECTOR_NS against $BPF_RECORDER_NS ns a call, bound $LEAST_RECORDER_NS ns (the rounds' CPU medians: ${cpu_added[causeway]} ns, $rounds_over% against the bound)"
  target "causeway added cost below bpftrace's" \
    "$(holds "${cpu_added[causeway]} < ${cpu_added[bpftrace]}" && echo yes || echo no)" \
    "${cpu_added[causeway]} vs ${cpu_added[bpftrace]} ns (CPU time)"
}

# last_bpf_prog_id: the highest id of a loaded BPF program (0 when none).
last_bpf_prog_id() { bpftool prog show 2>/dev/null | awk -F: '/^[0-9]+:/ { last = $1 } END { print last + 0 }'; }

# bpf_ns_per_call AFTER_ID PATTERN: mean ns per run, summed over the BPF programs loaded after
# AFTER_ID whose names match PATTERN, taking for each name the one that ran most (another
# tracer loaded meanwhile runs less than ours). kernel.bpf_stats_enabled must be on.
bpf_ns_per_call() {
  bpftool prog show 2>/dev/null | awk -v after="$1" -v pattern="$2" '
    /^[0-9]+:/ {
      id = $1 + 0; name = ""; runs = 0; ns = 0
      for (i = 1; i < NF; i++) {
        if ($i == "name") name = $(i + 1)
        if ($i == "run_time_ns") ns = $(i + 1)
        if ($i == "run_cnt") runs = $(i + 1)
      }
      if (id > after && name ~ pattern && runs > best[name]) { best[name] = runs; avg[name] = ns / runs }
    }
    END { for (n in avg) total += avg[n]; printf "%.0f", total }'
}

# bpf_cost_under TRACER_PID AFTER_ID PATTERN: samples bpf_ns_per_call every 0.2 s while TRACER_PID
# runs and prints the last nonzero sample.
bpf_cost_under() {
  local cost=0 sample
  while kill -0 "$1" 2>/dev/null; do
    sample=$(bpf_ns_per_call "$2" "$3")
    [[ $sample != 0 ]] && cost=$sample
    sleep 0.2
  done
  echo "$cost"
}

# floor_body_bpf_ns BODY PATTERN: mean BPF run time per call of causeway-bench-floor --body BODY
# over one call loop (programs matching PATTERN). kernel.bpf_stats_enabled must be on.
floor_body_bpf_ns() {
  local before
  before=$(last_bpf_prog_id)
  start_and_wait_for "$BENCH_OUT/floor.out" attached \
    "$BENCH_BIN/causeway-bench-floor" --lib "$FAKECUDART" --symbol cudaEventSynchronize --body "$1"
  local floor_pid=$STARTED_PID
  "${CALL_LOOP[@]}" --calls "$OVERHEAD_CALLS" >>"$BENCH_OUT/raw.log"
  bpf_ns_per_call "$before" "$2"
  stop_started "$floor_pid"
}

# Where the added cost goes: the kernel's own accounting of each BPF program's run time
# (kernel.bpf_stats_enabled, on only for this diagnostic run because it adds its own cost), for
# the empty floor, for the least work of a tracer that stores every call (a clock read at entry
# and at return, one ring-buffer record) and for the collector's programs. FLOOR_ADDED_NS: the
# floor's added CPU per call from the rounds, to turn that least work into a ratio.
overhead_bpf_breakdown() {
  local floor_added=$1 previous
  previous=$(sysctl -n kernel.bpf_stats_enabled)
  sysctl -qw kernel.bpf_stats_enabled=1
  local floor_ns clock_ns record_ns
  floor_ns=$(floor_body_bpf_ns empty '^floor_(entry|return)$')
  clock_ns=$(floor_body_bpf_ns clock '^clock_(entry|return)$')
  record_ns=$(floor_body_bpf_ns record '^(clock_entry|record_return)$')
  rm -f "$BENCH_OUT/breakdown.db"
  local before
  before=$(last_bpf_prog_id)
  "$COLLECTOR" record --db "$BENCH_OUT/breakdown.db" --quiet -- "${CALL_LOOP[@]}" \
    --calls $((OVERHEAD_CALLS * 10)) >>"$BENCH_OUT/raw.log" 2>&1 &
  local causeway_ns
  causeway_ns=$(bpf_cost_under $! "$before" '^cw_cuda_(entry|return)$')
  wait
  sysctl -qw kernel.bpf_stats_enabled="$previous"
  record overhead "BPF run time per call (bpf_stats): floor / 2 clock reads / clock reads + 1 ring-buffer record / causeway" \
    "$floor_ns / $clock_ns / $record_ns / $causeway_ns" ns/call "entry + return programs, stats overhead included in each"
  LEAST_RECORDER_NS=$((floor_added + record_ns - floor_ns))
  BPF_RECORDER_NS=$record_ns
  BPF_COLLECTOR_NS=$causeway_ns
  LEAST_RECORDER_RATIO=$(calc "$LEAST_RECORDER_NS / $floor_added")
  record overhead "least added cost of a tracer that reads the clock at entry and return and sends one ring-buffer record per call" \
    "$LEAST_RECORDER_NS" ns/call "${LEAST_RECORDER_RATIO}x floor"
}
