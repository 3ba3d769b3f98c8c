# shellcheck shell=bash
# Section 7: the balance. The DataLoader scenarios, the C++ flagship and real PyTorch, each at
# three settings: from workers that starve the trainer to a device that the workers keep up with.
# A setting is the workers' per-sample CPU (--per-sample-cpu-ns) and the model step's device time
# (--device-scale, 1 = the scenario's own). At each setting two fixes are measured untraced,
# interleaved (the ratio of the medians of BALANCE_ROUNDS rounds): direct indexing in the trainer
# (no workers) and a device twice as fast (half the device scale). The top chain of every one of
# VERDICT_RUNS recordings must be the cause whose fix gains most: the workers (actor
# dataloader_workers, CPU-CONTENDED on the flagship) or the device (GPU-BOUND). Sourced by run.sh,
# after verdicts.sh and calibration.sh (scenario_field, verdict_once, untraced_rate).

# "scenario ns-per-sample:device-scale...", large gain from the workers' fix to small. The
# flagship's 1750:1 is the scenario as it is; 0:2 has workers with no per-sample cost feeding a
# model step twice as heavy. torch's 0:1 is torch-dataloader as it is.
BALANCE_SERIES=(
  "dataloader-oversubscribed 1750:1 1000:1 0:2"
  "torch-dataloader 12000:1 5000:1 0:1"
)
BALANCE_ROUNDS=3 # untraced rounds of (before, direct indexing, faster device) per setting

# balance_setting SCENARIO COST SCALE: the fixes' gains at one setting, then VERDICT_RUNS
# recordings; records one results row and one target row.
balance_setting() {
  local name=$1 cost=$2 scale=$3 program
  program=$(scenario_field "$name" 2)
  local -a at=(--per-sample-cpu-ns "$cost" --device-scale "$scale")
  local -a before=() direct=() faster=()
  local round
  for ((round = 1; round <= BALANCE_ROUNDS; round++)); do
    before+=("$(untraced_rate "$program" - "${at[@]}")")
    direct+=("$(untraced_rate "$program" - "${at[@]}" --fixed)")
    faster+=("$(untraced_rate "$program" - --per-sample-cpu-ns "$cost" \
      --device-scale "$(calc "$scale / 2" 2)")")
  done
  local base direct_gain device_gain expected
  base=$(printf '%s\n' "${before[@]}" | median)
  direct_gain=$(calc "$(printf '%s\n' "${direct[@]}" | median) / $base" 2)
  device_gain=$(calc "$(printf '%s\n' "${faster[@]}" | median) / $base" 2)
  expected=device
  holds "$direct_gain > $device_gain" && expected=dataloader_workers
  local label="$name, $cost ns/sample, device x$scale"
  log "balance $label: direct indexing ${direct_gain}x, a 2x device ${device_gain}x: $expected"
  local agree=0 run verdict actor _share
  local -a verdicts=()
  for ((run = 1; run <= VERDICT_RUNS; run++)); do
    read -r verdict actor _share <<<"$(verdict_once "$name" "${at[@]}")"
    log "balance $label $run/$VERDICT_RUNS: $verdict by $actor"
    [[ $actor == "$expected" ]] && agree=$((agree + 1))
    verdicts+=("$verdict")
  done
  record balance "$label: recordings whose top chain is $expected" \
    "$agree/$VERDICT_RUNS" recordings \
    "fixes measured untraced: direct indexing ${direct_gain}x, a device twice as fast ${device_gain}x; verdicts $(printf '%s\n' "${verdicts[@]}" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')"
  target "$label: the top chain is the cause whose fix gains most ($expected)" \
    "$([[ $agree -eq $VERDICT_RUNS ]] && echo yes || echo no)" "$agree of $VERDICT_RUNS"
}

balance_section() {
  command -v jq >/dev/null || die "jq is missing: run scripts/install-deps.sh"
  local series name setting
  for series in "${BALANCE_SERIES[@]}"; do
    read -r name _ <<<"$series"
    for setting in ${series#* }; do
      balance_setting "$name" "${setting%%:*}" "${setting##*:}"
    done
  done
}
