# shellcheck shell=bash
# Section 2: ingest. The call loop calls at a fixed total rate on 1 and 2 threads under the
# collector; a trial is clean when the DB holds every call and data_quality reports no data loss.
# A bisection on the rate finds the highest clean rate and where losses begin. Each trial makes
# INGEST_CALLS calls, several times what the ring buffer holds, so a clean trial means the
# collector kept up rather than that the buffer absorbed a burst. Bytes per stored
# call come from the largest clean DB. Sourced by run.sh.

# ingest_trial THREADS RATE (0: unpaced) DB: prints "achieved_rate stored expected lost
# collector_cpu_ns_per_call caller_cpu_ns_per_call" (the collector's own CPU: its and the loop's
# together, minus the loop's; the caller's: the calling threads' CPU, uprobes included).
ingest_trial() {
  local threads=$1 rate=$2 db=$3
  # Long enough to overflow the ring buffer several times over if the collector fell behind.
  local calls_per_thread=$((INGEST_CALLS / threads))
  local line
  line=$(record_with_collector "$db" "${CALL_LOOP[@]}" --threads "$threads" --rate "$rate" \
    --calls "$calls_per_thread" | grep 'calls_per_s=')
  local stored lost
  stored=$(sql_value "$db" "SELECT count(*) FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id
                            WHERE o.name = 'cudaEventSynchronize'")
  # Anything the DB says was lost (severity data_loss), and the CUDA loss counters whatever
  # severity they were given.
  lost=$(sql_value "$db" "SELECT coalesce(sum(value), 0) FROM data_quality
                          WHERE severity = 'data_loss' OR (source = 'cuda' AND counter IN
                            ('ringbuf_drops', 'entries_lost', 'map_full', 'unmatched_returns'))")
  local expected=$((threads * (calls_per_thread + LOOP_WARMUP))) collector_ns
  collector_ns=$(awk -v loop_ns="$(kv process_cpu_ns <<<"$line")" -v calls="$stored" \
    '{ cpu_ns = ($2 + $3) * 1e9; printf "%.0f", (cpu_ns > loop_ns ? (cpu_ns - loop_ns) / calls : 0) }' \
    "$BENCH_OUT/collector.time")
  echo "ingest threads=$threads rate=$rate: $line stored=$stored expected=$expected lost=$lost collector_cpu_ns_per_call=$collector_ns" >>"$BENCH_OUT/raw.log"
  echo "$(kv calls_per_s <<<"$line") $stored $expected $lost $collector_ns $(kv cpu_ns_per_call <<<"$line")"
}

clean_trial() { [[ $2 -eq $3 && $4 -eq 0 ]]; }

# ingest_for THREADS: bisects the rate; records the results.
ingest_for() {
  local threads=$1 db=$BENCH_OUT/ingest-$1.db
  local achieved stored expected lost collector_ns caller_ns result
  result=$(ingest_trial "$threads" 0 "$db")
  read -r achieved stored expected lost collector_ns caller_ns <<<"$result"
  log "ingest $threads thread(s) unpaced: $achieved calls/s, stored $stored of $expected, lost $lost"
  record ingest "collector CPU per stored call, unpaced, $threads thread(s)" "$collector_ns" ns \
    "ring buffer to SQLite, user + system; $(calc "$achieved * $collector_ns / 1e7" 0)% of a CPU at $(calc "$achieved" 0) calls/s"
  # What the machine could sustain if the calling threads and the collector had every CPU: a
  # ceiling computed from measured CPU costs, not a measured rate.
  record ingest "CPU-bound ceiling with all $(nproc) CPUs, $threads thread(s) (estimate)" \
    "$(calc "$(nproc) * 1e9 / ($caller_ns + $collector_ns)" 0)" calls/s \
    "$(nproc) CPUs / (caller $(calc "$caller_ns" 0) + collector $collector_ns ns CPU per call)"
  local best=0 first_loss="" best_db=""
  if clean_trial "$achieved" "$stored" "$expected" "$lost"; then
    best=$achieved
    best_db=$db.best
    cp "$db" "$best_db"
  else
    first_loss=$achieved
    local low=0 high=$achieved rate
    for ((step = 0; step < INGEST_BISECT_STEPS; step++)); do
      rate=$(calc "($low + $high) / 2" 0)
      result=$(ingest_trial "$threads" "$rate" "$db")
      read -r achieved stored expected lost collector_ns caller_ns <<<"$result"
      log "ingest $threads thread(s) at $rate/s: achieved $achieved, stored $stored of $expected, lost $lost"
      if clean_trial "$achieved" "$stored" "$expected" "$lost"; then
        low=$rate
        if holds "$achieved > $best"; then
          best=$achieved
          best_db=$db.best
          cp "$db" "$best_db"
        fi
      else
        high=$rate
        first_loss=$(holds "$achieved < $first_loss" && echo "$achieved" || echo "$first_loss")
      fi
    done
  fi
  local loss_note="no loss even unpaced: the calling thread, not the collector, is the limit"
  [[ -n $first_loss ]] && loss_note="losses from $(calc "$first_loss" 0) calls/s"
  record ingest "highest zero-loss rate, $threads calling thread(s)" "$(calc "$best" 0)" calls/s "$loss_note"
  INGEST_BEST=$(holds "$best > ${INGEST_BEST:-0}" && echo "$best" || echo "${INGEST_BEST:-0}")
  [[ -n $best_db ]] && INGEST_BEST_DB=$best_db
}

ingest_section() {
  log "ingest: $INGEST_CALLS calls unpaced, then bisecting the rate in $INGEST_BISECT_STEPS steps"
  INGEST_BEST=0
  INGEST_BEST_DB=""
  ingest_for 1
  ingest_for 2
  target "at least 500k calls/s stored with zero loss" "$(holds "$INGEST_BEST >= 500000" && echo yes || echo no)" "$(calc "$INGEST_BEST" 0) calls/s"
  [[ -n $INGEST_BEST_DB ]] || die "no ingest trial was clean, so bytes per stored call cannot be measured"
  local rows file_bytes table_bytes
  rows=$(sql_value "$INGEST_BEST_DB" "SELECT count(*) FROM cuda_call")
  file_bytes=$(stat -c %s "$INGEST_BEST_DB")
  table_bytes=$(sql_value "$INGEST_BEST_DB" "SELECT sum(pgsize) FROM dbstat WHERE name = 'cuda_call'")
  record ingest "bytes per stored call (cuda_call table, dbstat)" "$(calc "$table_bytes / $rows" 1)" bytes "$rows calls"
  record ingest "bytes per stored call (whole DB file)" "$(calc "$file_bytes / $rows" 1)" bytes "includes sched, lifecycle, snapshots"
  target "at most 40 bytes per stored call" "$(holds "$table_bytes / $rows <= 40" && echo yes || echo no)" "$(calc "$table_bytes / $rows" 1) bytes"
}
