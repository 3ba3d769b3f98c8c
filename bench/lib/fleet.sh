# shellcheck shell=bash
# Section 10: fleet on a real clickhouse-server started on loopback (bench/fleet/fleet_bench.sh):
# the push rate of one node's 1M-call trace, and `causeway fleet` over 8 nodes of synthetic calls
# generated inside ClickHouse (10M, or 8 x 100M with --large). Sourced by run.sh.

fleet_section() {
  local calls=10000000 out=$BENCH_OUT/fleet.out
  ((BENCH_LARGE)) && calls=800000000
  log "fleet: push of 1M calls, fleet over $((calls / 1000000))M calls on 8 nodes"
  PUSH_CALLS=1000000 FLEET_CALLS=$calls "$BENCH_DIR/fleet/fleet_bench.sh" "$BUILD_DIR" >"$out" \
    2>>"$BENCH_OUT/raw.log" || die "the fleet bench failed (see $BENCH_OUT/raw.log)"
  cat "$out" >>"$BENCH_OUT/raw.log"
  local push_s rate fleet_s
  push_s=$(sed -n 's/^push: [0-9]* calls in \([0-9.]*\) s.*/\1/p' "$out")
  rate=$(calc "1000000 / $push_s" 0)
  fleet_s=$(sed -n 's/^fleet query: .*median of 5: \([0-9.]*\) s.*/\1/p' "$out")
  [[ -n $push_s && -n $fleet_s ]] || die "the fleet bench printed no figures (see $BENCH_OUT/raw.log)"
  record fleet "causeway push of 1M calls" "$push_s" s \
    "median of 3, $rate calls/s, its diagnosis beside the sending; $(grep -o 'alone: [0-9.]* s' "$out" | sed 's/alone/the diagnosis alone/')"
  record fleet "causeway fleet over $((calls / 1000000))M calls on 8 nodes" "$fleet_s" s \
    "median of 5; it reads each node's per-thread summary, not its calls"
  target "push at least 1M calls/s (issue 29)" "$(holds "$rate >= 1000000" && echo yes || echo no)" \
    "$rate calls/s"
  target "fleet over 8 nodes of calls under 3 s (issue 29: 8 x 100M with --large)" \
    "$(holds "$fleet_s < 3" && echo yes || echo no)" "$fleet_s s over $((calls / 1000000))M calls"
}
