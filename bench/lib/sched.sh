# shellcheck shell=bash
# Section 3: scheduling cost. Two threads pinned to one CPU ping-pong a byte (two context switches
# and two wakeups per round trip): untraced; traced by the collector (its sched tracepoints record
# the pair's off-CPU intervals); and untraced while the collector records another process (the
# in-kernel filter's cost on everything else on the machine). Times are the pair's CPU time,
# which other load on the two cores does not inflate the way it does wall time. Sourced by run.sh.

# round_trip_cpu: CPU ns per round trip (both threads) from the ping-pong's result line on stdin.
round_trip_cpu() { kv cpu_ns_per_round_trip; }

ping_pong() { "$BENCH_BIN/causeway-bench-ping-pong" --rounds "$PING_PONG_ROUNDS" | tee -a "$BENCH_OUT/raw.log" | round_trip_cpu; }

ping_pong_traced() {
  record_with_collector "$BENCH_OUT/sched.db" "$BENCH_BIN/causeway-bench-ping-pong" \
    --rounds "$PING_PONG_ROUNDS" | tee -a "$BENCH_OUT/raw.log" | round_trip_cpu
}


# The collector records a sleeping process while the ping-pong runs outside its tree; ending the
# sleeper (the collector's child) then ends the recording the normal way.
ping_pong_bystander() {
  local db=$BENCH_OUT/bystander.db
  rm -f "$db"
  "$COLLECTOR" record --db "$db" --quiet -- sleep 3600 >/dev/null 2>>"$BENCH_OUT/raw.log" &
  local collector_pid=$!
  local sleeper_pid=""
  for _ in $(seq 100); do
    sleeper_pid=$(pgrep -P "$collector_pid" -x sleep || true)
    [[ -n $sleeper_pid && -s $db ]] && break
    sleep 0.1
  done
  [[ -n $sleeper_pid ]] || die "the bystander collector did not start its command"
  sleep 2 # probes attached and the command released
  ping_pong
  kill "$sleeper_pid"
  wait "$collector_pid" || true
}

sched_section() {
  log "sched: $RUNS rounds of $PING_PONG_ROUNDS ping-pong round trips off / traced / bystander"
  local -a off=() traced=() bystander=() baseline=() baseline_bystander=()
  local ns
  for ((round = 1; round <= RUNS; round++)); do
    ns=$(ping_pong); off+=("$ns")
    ns=$(ping_pong_traced); traced+=("$ns")
    ns=$(ping_pong_bystander); bystander+=("$ns")
    if [[ -n $BASELINE_COLLECTOR ]]; then
      ns=$(COLLECTOR=$BASELINE_COLLECTOR ping_pong_traced); baseline+=("$ns")
      ns=$(COLLECTOR=$BASELINE_COLLECTOR ping_pong_bystander); baseline_bystander+=("$ns")
    fi
    log "sched round $round: off ${off[-1]} traced ${traced[-1]} bystander ${bystander[-1]}" \
      "${baseline:+baseline ${baseline[-1]} baseline bystander ${baseline_bystander[-1]} }CPU ns/round trip"
  done
  local off_ns traced_ns bystander_ns
  off_ns=$(printf '%s\n' "${off[@]}" | median)
  traced_ns=$(printf '%s\n' "${traced[@]}" | median)
  bystander_ns=$(printf '%s\n' "${bystander[@]}" | median)
  record sched "ping-pong round trip (2 switches, 2 wakeups), untraced: CPU" "$(calc "$off_ns" 0)" ns "median of $RUNS x $PING_PONG_ROUNDS"
  record sched "... traced by causeway-collector" "$(calc "$traced_ns" 0)" ns "$(calc "$traced_ns / $off_ns")x untraced, +$(calc "($traced_ns - $off_ns) / 2" 0) ns per switch"
  record sched "... untraced while the collector records another process" "$(calc "$bystander_ns" 0)" ns "$(calc "$bystander_ns / $off_ns")x untraced"
  if [[ -n $BASELINE_COLLECTOR ]]; then
    local baseline_ns baseline_bystander_ns
    baseline_ns=$(printf '%s\n' "${baseline[@]}" | median)
    baseline_bystander_ns=$(printf '%s\n' "${baseline_bystander[@]}" | median)
    record sched "... traced by the baseline collector ($BASELINE_COLLECTOR)" "$(calc "$baseline_ns" 0)" ns \
      "$(calc "$baseline_ns / $off_ns")x untraced; this build $(calc "($traced_ns - $baseline_ns) / 2" 0) ns per switch more"
    record sched "... untraced while the baseline collector records another process" \
      "$(calc "$baseline_bystander_ns" 0)" ns \
      "$(calc "$baseline_bystander_ns / $off_ns")x untraced; this build $(calc "($bystander_ns - $baseline_bystander_ns) / 2" 0) ns per switch more"
  fi
}
