# shellcheck shell=bash
# Section 3: scheduling cost. Two threads pinned to one CPU ping-pong a byte (two context switches
# and two wakeups per round trip): untraced; traced by the collector (its sched tracepoints record
# the pair's off-CPU intervals); and untraced while the collector records another process (the
# in-kernel filter's cost on everything else on the machine). Sourced by run.sh.

ping_pong() { "$BENCH_BIN/causeway-bench-ping-pong" --rounds "$PING_PONG_ROUNDS" | tee -a "$BENCH_OUT/raw.log" | kv ns_per_round_trip; }

ping_pong_traced() {
  record_with_collector "$BENCH_OUT/sched.db" "$BENCH_BIN/causeway-bench-ping-pong" \
    --rounds "$PING_PONG_ROUNDS" | tee -a "$BENCH_OUT/raw.log" | kv ns_per_round_trip
}

# The collector records a sleeping process while the ping-pong runs outside its tree.
ping_pong_bystander() {
  local db=$BENCH_OUT/bystander.db
  rm -f "$db"
  "$COLLECTOR" record --cuda-lib "$FAKECUDART" --db "$db" --quiet -- sleep 3600 \
    2>>"$BENCH_OUT/raw.log" &
  local collector_pid=$!
  for _ in $(seq 100); do # the session row exists once recording has started
    [[ -s $db ]] && break
    sleep 0.1
  done
  sleep 1
  ping_pong
  stop_started "$collector_pid"
}

sched_section() {
  log "sched: $RUNS rounds of $PING_PONG_ROUNDS ping-pong round trips off / traced / bystander"
  local -a off=() traced=() bystander=()
  local ns
  for ((round = 1; round <= RUNS; round++)); do
    ns=$(ping_pong); off+=("$ns")
    ns=$(ping_pong_traced); traced+=("$ns")
    ns=$(ping_pong_bystander); bystander+=("$ns")
    log "sched round $round: off ${off[-1]} traced ${traced[-1]} bystander ${bystander[-1]} ns/round trip"
  done
  local off_ns traced_ns bystander_ns
  off_ns=$(printf '%s\n' "${off[@]}" | median)
  traced_ns=$(printf '%s\n' "${traced[@]}" | median)
  bystander_ns=$(printf '%s\n' "${bystander[@]}" | median)
  record sched "ping-pong round trip (2 switches), untraced" "$(calc "$off_ns" 0)" ns "median of $RUNS"
  record sched "... traced by causeway-collector" "$(calc "$traced_ns" 0)" ns "$(calc "$traced_ns / $off_ns")x untraced, +$(calc "($traced_ns - $off_ns) / 2" 0) ns per switch"
  record sched "... untraced while the collector records another process" "$(calc "$bystander_ns" 0)" ns "$(calc "$bystander_ns / $off_ns")x untraced"
}
