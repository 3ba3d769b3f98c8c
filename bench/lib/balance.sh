# shellcheck shell=bash
# Section 7: the balance. The flagship DataLoader scenario at BALANCE_COSTS of per-sample CPU
# (--per-sample-cpu-ns): from workers that starve the trainer to workers that keep up with a busy
# device. At each setting two fixes are measured untraced, interleaved (the ratio of the medians
# of BALANCE_ROUNDS rounds): direct slicing (no workers) and a device twice as fast
# (--device-scale 0.5). The verdict must name the cause whose fix gains most, CPU-CONTENDED or
# GPU-BOUND, in every one of VERDICT_RUNS recordings. Sourced by run.sh, after verdicts.sh and
# calibration.sh (scenario_field, verdict_once, untraced_rate).

BALANCE_SCENARIO=dataloader-oversubscribed
BALANCE_COSTS=(250 1000 1750) # per-sample CPU of the workers (ns); 1750 is the scenario's own
BALANCE_ROUNDS=3              # untraced rounds of (before, slicing, faster device) per setting

balance_section() {
  command -v jq >/dev/null || die "jq is missing: run scripts/install-deps.sh"
  local program cost
  program=$(scenario_field "$BALANCE_SCENARIO" 2)
  for cost in "${BALANCE_COSTS[@]}"; do
    local -a before=() sliced=() faster=()
    local round
    for ((round = 1; round <= BALANCE_ROUNDS; round++)); do
      before+=("$(untraced_rate "$program" - --per-sample-cpu-ns "$cost")")
      sliced+=("$(untraced_rate "$program" - --per-sample-cpu-ns "$cost" --fixed)")
      faster+=("$(untraced_rate "$program" - --per-sample-cpu-ns "$cost" --device-scale 0.5)")
    done
    local base slicing_gain device_gain expected
    base=$(printf '%s\n' "${before[@]}" | median)
    slicing_gain=$(calc "$(printf '%s\n' "${sliced[@]}" | median) / $base" 2)
    device_gain=$(calc "$(printf '%s\n' "${faster[@]}" | median) / $base" 2)
    expected=GPU-BOUND
    holds "$slicing_gain > $device_gain" && expected=CPU-CONTENDED
    log "balance $cost ns/sample: direct slicing ${slicing_gain}x, a 2x device ${device_gain}x: $expected"
    local agree=0 run verdict _actor _share
    for ((run = 1; run <= VERDICT_RUNS; run++)); do
      read -r verdict _actor _share <<<"$(verdict_once "$BALANCE_SCENARIO" --per-sample-cpu-ns "$cost")"
      log "balance $cost ns/sample $run/$VERDICT_RUNS: $verdict"
      [[ $verdict == "$expected" ]] && agree=$((agree + 1))
    done
    record balance "$cost ns of CPU per sample: recordings whose verdict is $expected" \
      "$agree/$VERDICT_RUNS" recordings \
      "fixes measured untraced: direct slicing ${slicing_gain}x, a device twice as fast ${device_gain}x"
    target "$cost ns/sample: the verdict names the cause whose fix gains most ($expected)" \
      "$([[ $agree -eq $VERDICT_RUNS ]] && echo yes || echo no)" "$agree of $VERDICT_RUNS"
  done
}
