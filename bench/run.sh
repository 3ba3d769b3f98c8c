#!/usr/bin/env bash
# Causeway benchmarks: collector overhead against the uprobe floor and bpftrace, ingest
# throughput, scheduling-tracing cost, analysis scaling, verdict stability, the cost of an NCCL
# call's probes, fleet push and query on a loopback ClickHouse. Builds what it needs,
# runs each
# measurement several times and prints ONE table of medians (ratios are taken between
# measurements of the same invocation) followed by the targets and whether they are met.
#
#   sudo bench/run.sh [--runs N] [--quick] [--large] [--out DIR] [--no-build]
#                     [--only overhead,ingest,sched,python,analysis,verdicts,calibration,balance,nccl,fleet] [--baseline-collector PATH]
#
# --baseline-collector: the sched section also runs the ping-pong traced by, and beside, another
# build of the collector (an earlier commit), interleaved round by round, so a change's cost is
# measured in the same run.
# Needs root (uprobes, tracepoints). The build folder is $CAUSEWAY_BUILD_DIR (default: build);
# synthetic DBs are cached under it in bench-data/. Raw output of every run goes to DIR/raw.log.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
shopt -s inherit_errexit # a failure inside $(...) stops the run too

BENCH_ARGS="$*"
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
REPO_DIR=$(dirname "$BENCH_DIR")
source "$BENCH_DIR/lib/common.sh"
source "$BENCH_DIR/lib/overhead.sh"
source "$BENCH_DIR/lib/ingest.sh"
source "$BENCH_DIR/lib/sched.sh"
source "$BENCH_DIR/lib/python.sh"
source "$BENCH_DIR/lib/analysis.sh"
source "$BENCH_DIR/lib/verdicts.sh"
source "$BENCH_DIR/lib/calibration.sh"
source "$BENCH_DIR/lib/balance.sh"
source "$BENCH_DIR/lib/nccl.sh"
source "$BENCH_DIR/lib/fleet.sh"

usage() {
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit "$1"
}

RUNS=5
BENCH_LARGE=0
SECTIONS=overhead,ingest,sched,python,analysis,verdicts,calibration,balance,nccl,fleet
BENCH_OUT=""
BENCH_BUILD=1
OVERHEAD_CALLS=200000      # calls per overhead run (count)
LOOP_WARMUP=2000           # untimed calls before each timed loop (count)
INGEST_CALLS=4000000      # calls per ingest trial, all threads: ~4x what the 64 MiB ring holds
INGEST_BISECT_STEPS=6      # bisection steps on the rate
PING_PONG_ROUNDS=100000    # round trips per ping-pong run (count)
ANALYSIS_RUNS=3            # explain runs per DB size
MCP_REPEAT=50              # timed calls per MCP tool
VERDICT_RUNS=20            # recordings per scenario and machine state (verdicts)
BASELINE_COLLECTOR=""      # sched: also trace with this collector binary, interleaved
while (($#)); do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --quick) RUNS=3; OVERHEAD_CALLS=100000; INGEST_BISECT_STEPS=4; INGEST_CALLS=2000000
      PING_PONG_ROUNDS=50000; ANALYSIS_RUNS=1; MCP_REPEAT=20; VERDICT_RUNS=5; shift ;;
    --large) BENCH_LARGE=1; shift ;;
    --only) SECTIONS=$2; shift 2 ;;
    --out) BENCH_OUT=$2; shift 2 ;;
    --no-build) BENCH_BUILD=0; shift ;;
    --baseline-collector) BASELINE_COLLECTOR=$(realpath "$2"); shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "bench/run.sh: unknown option '$1'" >&2; usage 2 ;;
  esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs needs a positive number, not '$RUNS'"
for section in ${SECTIONS//,/ }; do
  [[ $section =~ ^(overhead|ingest|sched|python|analysis|verdicts|calibration|balance|nccl|fleet)$ ]] ||
    die "unknown section '$section' in --only (use overhead, ingest, sched, python, analysis, verdicts, calibration, balance, nccl, fleet)"
done
[[ $(id -u) -eq 0 ]] || die "run as root: the tracers attach uprobes and tracepoints (sudo bench/run.sh)"
for tool in cmake ninja sqlite3 bpftrace /usr/bin/time; do
  command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh"
done

BUILD_DIR=$(realpath -m "${CAUSEWAY_BUILD_DIR:-$REPO_DIR/build}")
BENCH_OUT=$(realpath -m "${BENCH_OUT:-/tmp/causeway-bench-$(date -u +%Y%m%dT%H%M%S)}")
BENCH_DATA=$BUILD_DIR/bench-data
mkdir -p "$BENCH_OUT" "$BENCH_DATA"
: >"$BENCH_OUT/results.tsv"
: >"$BENCH_OUT/targets.tsv"

build() {
  log "building into $BUILD_DIR"
  [[ -f $BUILD_DIR/build.ninja ]] ||
    cmake -S "$REPO_DIR" -B "$BUILD_DIR" -G Ninja -DCAUSEWAY_WERROR=ON >>"$BENCH_OUT/raw.log"
  local targets=()
  [[ $SECTIONS =~ overhead|ingest|sched|python|nccl ]] &&
    targets+=(causeway-collector causeway-bench-floor causeway-bench-call-loop causeway-bench-ping-pong)
  [[ $SECTIONS =~ nccl ]] && targets+=(causeway-bench-nccl-loop)
  [[ $SECTIONS =~ analysis ]] && targets+=(causeway causeway-bench-synth causeway-bench-mcp)
  [[ $SECTIONS =~ fleet ]] && targets+=(causeway causeway-bench-synth)
  [[ $SECTIONS =~ verdicts|calibration|balance ]] && targets+=(causeway-collector causeway causeway_scenarios)
  cmake --build "$BUILD_DIR" -j2 --target "${targets[@]}" >>"$BENCH_OUT/raw.log" ||
    die "build failed (see $BENCH_OUT/raw.log)"
}
((BENCH_BUILD)) && build
BENCH_BIN=$BUILD_DIR/bench
COLLECTOR=$BUILD_DIR/collector/causeway-collector
CAUSEWAY=$BUILD_DIR/cli/causeway
FAKECUDART=$BUILD_DIR/tests/workloads/fakecuda/libcudart.so.13
CALL_LOOP=("$BENCH_BIN/causeway-bench-call-loop" --warmup "$LOOP_WARMUP")
[[ -f $FAKECUDART ]] || die "the fake CUDA runtime is not at $FAKECUDART"

{
  echo "machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))," \
    "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r)"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "BPF programs already loaded at start (other tracers skew every figure): \
$(bpftool prog show 2>/dev/null | grep -cE ' (kprobe|tracing|raw_tracepoint|tracepoint|perf_event) ' || true)"
  echo "commit: $(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)," \
    "runs: $RUNS, command: bench/run.sh $BENCH_ARGS"
} >"$BENCH_OUT/machine.txt"

for section in ${SECTIONS//,/ }; do
  "${section}_section"
done

"$BENCH_DIR/lib/report.sh" "$BENCH_OUT" | tee "$BENCH_OUT/report.md"
