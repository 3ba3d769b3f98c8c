# shellcheck shell=bash
# Section: the cost of Python frames. Debian's python3 calls cudaEventSynchronize(NULL) of the fake
# runtime through ctypes in a loop (bench/workloads/python_call_loop.py) from a stack of
# PYTHON_SHALLOW and PYTHON_DEEP Python frames: untraced; recorded without stacks (walking off);
# recorded with --stacks --no-native-frames (the kernel walks the Python frames at every call:
# walking on); and, for reference, with --stacks --no-python-frames and --stacks (the native
# frame-pointer walk, which costs most in this interpreter). Times are the calling thread's CPU
# time per call, which holds the whole probe cost. One call is one walk, so walking on minus off
# is the cost of one walked stack; the two depths give the cost of a frame. Sourced by run.sh.

PYTHON_BENCH=$REPO_DIR/bench/workloads/python_call_loop.py
PYTHON_SHALLOW=4 # frames at the call: <module>, main, at_depth, timed_loop
PYTHON_DEEP=30

# python_loop DEPTH untraced | python_loop DEPTH recorded [collector flags...]: CPU ns per call.
python_loop() {
  local depth=$1 mode=$2
  shift 2
  local command=(/usr/bin/python3 "$PYTHON_BENCH" "$(dirname "$FAKECUDART")" --calls "$OVERHEAD_CALLS"
    --depth "$depth" --warmup "$LOOP_WARMUP")
  if [[ $mode == untraced ]]; then
    "${command[@]}" | tee -a "$BENCH_OUT/raw.log" | kv cpu_ns_per_call
    return
  fi
  local with_stack=""
  [[ $* == *--stacks* ]] && with_stack="AND stack_id IS NOT NULL"
  local db=$BENCH_OUT/python.db
  rm -f "$db"
  "$COLLECTOR" record --db "$db" --quiet "$@" -- "${command[@]}" 2>>"$BENCH_OUT/raw.log" |
    tee -a "$BENCH_OUT/raw.log" | kv cpu_ns_per_call
  local stored expected=$((OVERHEAD_CALLS + LOOP_WARMUP))
  stored=$(sql_value "$db" "SELECT count(*) FROM cuda_call WHERE op_id = 11 $with_stack")
  ((stored == expected)) || die "python: $stored of $expected calls stored${with_stack:+ with a stack} ($*)"
}

python_section() {
  [[ -x /usr/bin/python3 ]] || die "python: Debian's /usr/bin/python3 is missing (scripts/install-deps.sh)"
  log "python: $RUNS rounds of $OVERHEAD_CALLS ctypes calls at $PYTHON_SHALLOW and $PYTHON_DEEP Python frames"
  local -a untraced=() off=() on=() off_deep=() on_deep=() native=() both=()
  for ((round = 1; round <= RUNS; round++)); do
    untraced+=("$(python_loop "$PYTHON_SHALLOW" untraced)")
    off+=("$(python_loop "$PYTHON_SHALLOW" recorded)")
    on+=("$(python_loop "$PYTHON_SHALLOW" recorded --stacks --no-native-frames)")
    off_deep+=("$(python_loop "$PYTHON_DEEP" recorded)")
    on_deep+=("$(python_loop "$PYTHON_DEEP" recorded --stacks --no-native-frames)")
    native+=("$(python_loop "$PYTHON_SHALLOW" recorded --stacks --no-python-frames)")
    both+=("$(python_loop "$PYTHON_SHALLOW" recorded --stacks)")
    log "python round $round: untraced ${untraced[-1]} off ${off[-1]} on ${on[-1]} off deep ${off_deep[-1]}" \
      "on deep ${on_deep[-1]} native ${native[-1]} native+python ${both[-1]} CPU ns/call"
  done
  local untraced_ns off_ns on_ns off_deep_ns on_deep_ns native_ns both_ns
  untraced_ns=$(printf '%s\n' "${untraced[@]}" | median)
  off_ns=$(printf '%s\n' "${off[@]}" | median)
  on_ns=$(printf '%s\n' "${on[@]}" | median)
  off_deep_ns=$(printf '%s\n' "${off_deep[@]}" | median)
  on_deep_ns=$(printf '%s\n' "${on_deep[@]}" | median)
  native_ns=$(printf '%s\n' "${native[@]}" | median)
  both_ns=$(printf '%s\n' "${both[@]}" | median)
  local walk walk_deep
  walk=$(calc "$on_ns - $off_ns" 0)
  walk_deep=$(calc "$on_deep_ns - $off_deep_ns" 0)
  record python "ctypes cudaEventSynchronize from Python ($PYTHON_SHALLOW frames), untraced: CPU" \
    "$(calc "$untraced_ns" 0)" ns/call "median of $RUNS x $OVERHEAD_CALLS"
  record python "... added by the collector, walking off (no --stacks)" \
    "$(calc "$off_ns - $untraced_ns" 0)" ns/call "$PYTHON_DEEP frames: $(calc "$off_deep_ns - $untraced_ns" 0)"
  record python "... added by the collector, walking on (--stacks --no-native-frames)" \
    "$(calc "$on_ns - $untraced_ns" 0)" ns/call "$PYTHON_DEEP frames: $(calc "$on_deep_ns - $untraced_ns" 0)"
  record python "one walked Python stack of $PYTHON_SHALLOW / $PYTHON_DEEP frames" \
    "$walk / $walk_deep" ns "walking on minus off at each depth"
  record python "... per Python frame" "$(calc "($walk_deep - $walk) / ($PYTHON_DEEP - $PYTHON_SHALLOW)" 0)" \
    ns "slope between the two depths"
  record python "... added by --stacks --no-python-frames / --stacks (native frame-pointer walk)" \
    "$(calc "$native_ns - $untraced_ns" 0) / $(calc "$both_ns - $untraced_ns" 0)" ns/call \
    "$PYTHON_SHALLOW frames; Debian's python3 has no frame pointers"
}
