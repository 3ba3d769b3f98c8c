# Section 1: per-call overhead. The call loop calls cudaStreamSynchronize of the fake runtime
# OVERHEAD_CALLS times, untraced, under the empty uprobe+uretprobe floor, under causeway-collector
# (which must store every call) and under bpftrace's latency script; the rounds are interleaved so
# drift in the VM hits every tracer alike. Sourced by run.sh.

# Each runner prints the loop's ns per call.
loop_untraced() { "${CALL_LOOP[@]}" --calls "$OVERHEAD_CALLS" | tee -a "$BENCH_OUT/raw.log" | kv ns_per_call; }

loop_under_floor() {
  start_and_wait_for "$BENCH_OUT/floor.out" attached \
    "$BENCH_BIN/causeway-bench-floor" --lib "$FAKECUDART" --symbol cudaStreamSynchronize
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
                            WHERE o.name = 'cudaStreamSynchronize'")
  [[ $stored -eq $expected ]] ||
    die "causeway-collector stored $stored of $expected cudaStreamSynchronize calls; the overhead figure would not be for recording every call"
  kv ns_per_call <<<"$line"
}

loop_under_bpftrace() {
  local out
  out=$(bpftrace -c "${CALL_LOOP[*]} --calls $OVERHEAD_CALLS" "$BENCH_DIR/tracers/cuda_latency.bt" \
    "$FAKECUDART" 2>>"$BENCH_OUT/raw.log")
  echo "bpftrace: $out" >>"$BENCH_OUT/raw.log"
  grep -q '@latency_ns' <<<"$out" || die "bpftrace printed no latency histogram (see $BENCH_OUT/raw.log)"
  kv ns_per_call <<<"$out"
}

overhead_section() {
  log "overhead: $RUNS rounds of $OVERHEAD_CALLS calls untraced / floor / causeway / bpftrace"
  local -a untraced=() floor=() causeway=() bpftrace=()
  for ((round = 1; round <= RUNS; round++)); do
    local ns
    ns=$(loop_untraced); untraced+=("$ns")
    ns=$(loop_under_floor); floor+=("$ns")
    ns=$(loop_under_causeway); causeway+=("$ns")
    ns=$(loop_under_bpftrace); bpftrace+=("$ns")
    log "overhead round $round: untraced ${untraced[-1]} floor ${floor[-1]} causeway ${causeway[-1]} bpftrace ${bpftrace[-1]} ns/call"
  done
  local base floor_ns causeway_ns bpftrace_ns
  base=$(printf '%s\n' "${untraced[@]}" | median)
  floor_ns=$(printf '%s\n' "${floor[@]}" | median)
  causeway_ns=$(printf '%s\n' "${causeway[@]}" | median)
  bpftrace_ns=$(printf '%s\n' "${bpftrace[@]}" | median)
  local floor_added causeway_added bpftrace_added causeway_ratio bpftrace_ratio
  floor_added=$(calc "$floor_ns - $base" 0)
  causeway_added=$(calc "$causeway_ns - $base" 0)
  bpftrace_added=$(calc "$bpftrace_ns - $base" 0)
  causeway_ratio=$(calc "$causeway_added / $floor_added")
  bpftrace_ratio=$(calc "$bpftrace_added / $floor_added")
  record overhead "untraced call (cudaStreamSynchronize, fake runtime)" "$(calc "$base" 0)" ns/call "median of $RUNS"
  record overhead "empty uprobe+uretprobe (the floor): added" "$floor_added" ns/call "1.00x floor"
  record overhead "causeway-collector, every call stored: added" "$causeway_added" ns/call "${causeway_ratio}x floor"
  record overhead "bpftrace latency histogram: added" "$bpftrace_added" ns/call "${bpftrace_ratio}x floor"
  target "causeway added cost <= 1.10x the floor" "$(holds "$causeway_ratio <= 1.10" && echo yes || echo no)" "${causeway_ratio}x"
  target "causeway added cost below bpftrace's" "$(holds "$causeway_added < $bpftrace_added" && echo yes || echo no)" "$causeway_added vs $bpftrace_added ns"
}
