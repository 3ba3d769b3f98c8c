# shellcheck shell=bash
# Section: the cost of Python frames. Debian's python3 calls cudaEventSynchronize(NULL) of the fake
# runtime through ctypes in a loop (bench/workloads/python_call_loop.py) from a stack of
# PYTHON_SHALLOW and PYTHON_DEEP Python frames: untraced, recorded with --stacks
# --no-python-frames (native stack only), and recorded with --stacks (the kernel also walks the
# Python frames at every call). Times are the calling thread's CPU time per call, which holds the
# whole probe cost. One call is one walk, so walked minus native-only is the cost of one walked
# stack; the two depths give the cost of a frame. Sourced by run.sh.

PYTHON_BENCH=$REPO_DIR/bench/workloads/python_call_loop.py
PYTHON_SHALLOW=4 # frames at the call: <module>, main, at_depth, timed_loop
PYTHON_DEEP=30

python_loop() { # DEPTH [collector flags...]: CPU ns per call
  local depth=$1
  shift
  local command=(/usr/bin/python3 "$PYTHON_BENCH" "$(dirname "$FAKECUDART")" --calls "$OVERHEAD_CALLS"
    --depth "$depth" --warmup "$LOOP_WARMUP")
  if (($# == 0)); then
    "${command[@]}" | tee -a "$BENCH_OUT/raw.log" | kv cpu_ns_per_call
    return
  fi
  local db=$BENCH_OUT/python.db
  rm -f "$db"
  "$COLLECTOR" record --db "$db" --quiet "$@" -- "${command[@]}" 2>>"$BENCH_OUT/raw.log" |
    tee -a "$BENCH_OUT/raw.log" | kv cpu_ns_per_call
  local stored expected=$((OVERHEAD_CALLS + LOOP_WARMUP))
  stored=$(sql_value "$db" "SELECT count(*) FROM cuda_call WHERE op_id = 11 AND stack_id IS NOT NULL")
  ((stored == expected)) || die "python: $stored of $expected calls stored with a stack ($*)"
}

python_section() {
  [[ -x /usr/bin/python3 ]] || die "python: Debian's /usr/bin/python3 is missing (scripts/install-deps.sh)"
  log "python: $RUNS rounds of $OVERHEAD_CALLS ctypes calls at $PYTHON_SHALLOW and $PYTHON_DEEP Python frames: untraced / native stack / Python frames"
  local -a off=() native=() shallow=() deep=() native_deep=()
  for ((round = 1; round <= RUNS; round++)); do
    off+=("$(python_loop "$PYTHON_SHALLOW")")
    native+=("$(python_loop "$PYTHON_SHALLOW" --stacks --no-python-frames)")
    shallow+=("$(python_loop "$PYTHON_SHALLOW" --stacks)")
    native_deep+=("$(python_loop "$PYTHON_DEEP" --stacks --no-python-frames)")
    deep+=("$(python_loop "$PYTHON_DEEP" --stacks)")
    log "python round $round: untraced ${off[-1]} native ${native[-1]} walked ${shallow[-1]}" \
      "native deep ${native_deep[-1]} walked deep ${deep[-1]} CPU ns/call"
  done
  local off_ns native_ns shallow_ns native_deep_ns deep_ns
  off_ns=$(printf '%s\n' "${off[@]}" | median)
  native_ns=$(printf '%s\n' "${native[@]}" | median)
  shallow_ns=$(printf '%s\n' "${shallow[@]}" | median)
  native_deep_ns=$(printf '%s\n' "${native_deep[@]}" | median)
  deep_ns=$(printf '%s\n' "${deep[@]}" | median)
  local walk_shallow walk_deep
  walk_shallow=$(calc "$shallow_ns - $native_ns" 0)
  walk_deep=$(calc "$deep_ns - $native_deep_ns" 0)
  record python "ctypes cudaEventSynchronize from Python ($PYTHON_SHALLOW frames), untraced: CPU" \
    "$(calc "$off_ns" 0)" ns/call "median of $RUNS x $OVERHEAD_CALLS"
  record python "... added by --stacks --no-python-frames (native stack only)" \
    "$(calc "$native_ns - $off_ns" 0)" ns/call "walking off"
  record python "... added by --stacks (native stack + Python frames)" \
    "$(calc "$shallow_ns - $off_ns" 0)" ns/call "walking on"
  record python "one walked Python stack of $PYTHON_SHALLOW / $PYTHON_DEEP frames" \
    "$walk_shallow / $walk_deep" ns "walking on minus off at each depth"
  record python "... per Python frame" "$(calc "($walk_deep - $walk_shallow) / ($PYTHON_DEEP - $PYTHON_SHALLOW)" 0)" \
    ns "slope between the two depths"
}
