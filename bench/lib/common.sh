# shellcheck shell=bash
# Helpers shared by the sections of bench/run.sh: logging, medians, key=value parsing, and the
# results and targets tables every section appends to. Sourced, not run.

log() { echo "[bench $(date -u +%T)] $*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

# Median of the numbers on stdin, one a line ("nan" when there are none).
median() {
  sort -g | awk 'NF { v[++n] = $1 } END {
    if (n == 0) { print "nan"; exit }
    if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# calc EXPRESSION [DECIMALS]: floating-point arithmetic through awk.
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }

# true (exit 0) when the awk condition holds, e.g. holds "1.05 <= 1.10".
holds() { awk "BEGIN { exit !($1) }"; }

# kv KEY: the value of KEY=value in the first line of stdin that has it.
kv() { grep -o "\b$1=[^ ]*" | head -1 | cut -d= -f2; }

# record SECTION MEASUREMENT VALUE UNIT NOTE: one row of the results table.
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$BENCH_OUT/results.tsv"; }

# in_own_session CMD...: runs CMD in a session of its own whose autogroup has nice -20, as the
# scenario suite and the demo run their recordings, so that a background build shares the machine
# as a background job would.
in_own_session() {
  setsid --wait bash -c 'echo -20 >"/proc/$$/autogroup"; exec "$@"' own-session "$@"
}

# target NAME MET(yes|no) MEASURED: one row of the targets table.
target() { printf '%s\t%s\t%s\n' "$@" >>"$BENCH_OUT/targets.tsv"; }

# Starts "$@" in the background with stdout to FILE and waits (up to 20 s) until FILE holds a
# line matching PATTERN; sets STARTED_PID. Used for tracers that announce when they are attached.
start_and_wait_for() {
  local file=$1 pattern=$2
  shift 2
  "$@" >"$file" 2>>"$BENCH_OUT/raw.log" &
  STARTED_PID=$!
  for _ in $(seq 200); do
    grep -q "$pattern" "$file" 2>/dev/null && return 0
    kill -0 "$STARTED_PID" 2>/dev/null || die "$1 exited before it was ready (see $BENCH_OUT/raw.log)"
    sleep 0.1
  done
  die "$1 did not become ready in 20 s"
}

# Stops a background process started by this script and waits for it.
stop_started() {
  kill -INT "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# The number a one-value SQL query returns from a trace DB.
sql_value() { sqlite3 -batch -noheader "file:$1?mode=ro" "$2"; }

# Runs the collector around a command, writing DB; the command's stdout goes to stdout, the
# collector's diagnostics to the raw log, "wall_s user_s sys_s" of the collector and the command
# together to collector.time. Fails loudly when the collector does.
record_with_collector() {
  local db=$1
  shift
  rm -f "$db" "$db-wal" "$db-shm"
  /usr/bin/time -f '%e %U %S' -o "$BENCH_OUT/collector.time" \
    "$COLLECTOR" record --db "$db" --quiet -- "$@" 2>>"$BENCH_OUT/raw.log" ||
    die "causeway-collector record failed on: $* (see $BENCH_OUT/raw.log)"
}

# neighbour_path NEIGHBOUR: the path of a scenario's neighbour program (scenarios.tsv), or '-'.
neighbour_path() { [[ $1 == - ]] && echo - || echo "$BUILD_DIR/tests/workloads/scenarios/$1"; }
