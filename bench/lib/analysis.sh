# shellcheck shell=bash
# Section 4: analysis scaling. Synthetic trace DBs (bench/synth) of growing size, cached under
# the build folder; wall time and peak RSS of `causeway explain` on each, and the MCP server's
# first calls on each; p50/p99 of every MCP tool on the smallest. Sourced by run.sh.

# synthetic_db CALLS: path of a synthetic DB with CALLS CUDA calls, written once.
synthetic_db() {
  local db=$BENCH_DATA/synthetic-$1.db
  if [[ ! -s $db ]]; then
    log "analysis: writing $db"
    rm -f "$db"
    "$BENCH_BIN/causeway-bench-synth" --out "$db" --calls "$1" >>"$BENCH_OUT/raw.log" ||
      die "cannot write the synthetic DB $db"
  fi
  echo "$db"
}

# explain_once DB: prints "wall_s max_rss_kb cpu_s" of one `causeway explain`, which must succeed
# and print a verdict.
explain_once() {
  local out=$BENCH_OUT/explain.out
  /usr/bin/time -f '%e %M %U %S' -o "$BENCH_OUT/explain.time" "$CAUSEWAY" explain --db "$1" >"$out" \
    2>>"$BENCH_OUT/raw.log" || die "causeway explain failed on $1 (see $BENCH_OUT/raw.log)"
  grep -q '^Verdict: ' "$out" || die "causeway explain printed no verdict on $1: $(head -3 "$out")"
  head -1 "$out" >>"$BENCH_OUT/raw.log"
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$BENCH_OUT/explain.time"
}

# mcp_first_calls DB LABEL: what an assistant meets on `causeway mcp --db DB` just started (it
# loads and diagnoses the trace from its start): run_sql at once, the first get_causal_chains
# from the server's start, and one with other arguments after it.
mcp_first_calls() {
  local line
  line=$("$BENCH_BIN/causeway-bench-mcp" --causeway "$CAUSEWAY" --db "$1" --first-calls 2>>"$BENCH_OUT/raw.log") ||
    die "the MCP client's first calls failed on $1 (see $BENCH_OUT/raw.log)"
  record mcp "first calls on $2 calls: run_sql at start / get_causal_chains from start / the next one" \
    "$(kv first_run_sql_ms <<<"$line") / $(kv start_to_chains_ms <<<"$line") / $(kv next_chains_ms <<<"$line")" ms \
    "the server loads and diagnoses its traces from its start; run_sql reads the DB without them"
}

analysis_section() {
  local -a sizes=(1000000 10000000)
  ((BENCH_LARGE)) && sizes+=(100000000)
  local size db first_s="" first_size="" first_rss=""
  for size in "${sizes[@]}"; do
    db=$(synthetic_db "$size")
    local -a walls=() rss=() cpus=()
    local wall rss_kb cpu
    for ((round = 1; round <= ANALYSIS_RUNS; round++)); do
      read -r wall rss_kb cpu <<<"$(explain_once "$db")"
      walls+=("$wall")
      rss+=("$rss_kb")
      cpus+=("$cpu")
    done
    local wall_s cpu_s rss_mib label=$((size / 1000000))M
    wall_s=$(printf '%s\n' "${walls[@]}" | median)
    cpu_s=$(printf '%s\n' "${cpus[@]}" | median)
    rss_mib=$(calc "$(printf '%s\n' "${rss[@]}" | sort -g | tail -1) / 1024" 0)
    log "analysis: explain on $label calls: ${walls[*]} s, peak $rss_mib MiB"
    local note
    note="median of $ANALYSIS_RUNS, CPU $cpu_s s, peak RSS $rss_mib MiB ($(calc "$rss_mib * 1048576 / $size" 1) bytes a call), DB $(($(stat -L -c %s "$db") / 1048576)) MiB"
    if [[ -n $first_s ]]; then
      note+=", growth exponents vs $((first_size / 1000000))M: CPU time $(calc "log($cpu_s / $first_s) / log($size / $first_size)"), peak RSS $(calc "log($rss_mib / $first_rss) / log($size / $first_size)")"
    fi
    record analysis "causeway explain, $label CUDA calls" "$wall_s" s "$note"
    if [[ -z $first_s ]]; then
      first_s=$cpu_s # CPU time: other load on the machine does not inflate it
      first_size=$size
      first_rss=$rss_mib
    fi
    mcp_first_calls "$db" "$label"
    if ((size == 100000000)); then
      target "explain on 100M calls under 10 s and 3 GiB (issue 29)" \
        "$(holds "$wall_s < 10 && $rss_mib < 3072" && echo yes || echo no)" "$wall_s s, $rss_mib MiB"
    fi
    if ((size == 10000000)); then
      target "explain on 10M calls under 2 s" "$(holds "$wall_s < 2" && echo yes || echo no)" "$wall_s s"
      target "explain cost grows linearly or better (CPU-time exponent <= 1.1)" \
        "$(holds "log($cpu_s / $first_s) / log($size / $first_size) <= 1.1" && echo yes || echo no)" \
        "exponent $(calc "log($cpu_s / $first_s) / log($size / $first_size)")"
    fi
  done

  db=$(synthetic_db 1000000)
  log "analysis: every MCP tool $MCP_REPEAT times on the 1M-call DB"
  local tools_out=$BENCH_OUT/mcp.out worst=0 errors=0 line
  "$BENCH_BIN/causeway-bench-mcp" --causeway "$CAUSEWAY" --db "$db" --repeat "$MCP_REPEAT" \
    >"$tools_out" 2>>"$BENCH_OUT/raw.log" || log "WARNING: some MCP tools answered with errors (see $BENCH_OUT/raw.log)"
  [[ -s $tools_out ]] || die "the MCP client timed no tool (see $BENCH_OUT/raw.log)"
  while read -r line; do
    local p99
    p99=$(kv p99_ms <<<"$line")
    record mcp "$(kv tool <<<"$line") on 1M calls: p50 / p99" "$(kv p50_ms <<<"$line") / $p99" ms \
      "$(kv calls <<<"$line") calls after one untimed first call of $(kv first_ms <<<"$line") ms, $(kv errors <<<"$line") errors"
    worst=$(holds "$p99 > $worst" && echo "$p99" || echo "$worst")
    errors=$((errors + $(kv errors <<<"$line")))
  done <"$tools_out"
  record mcp "tools the server lists" "$(wc -l <"$tools_out")" tools "the README lists 8"
  target "every MCP tool under 100 ms p99 on 1M calls" "$(holds "$worst < 100 && $errors == 0" && echo yes || echo no)" "worst p99 $worst ms, $errors errors"
}
