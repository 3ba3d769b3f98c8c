# shellcheck shell=bash
# Section 7: the balance. The flagship DataLoader scenario at BALANCE_SETTINGS: from workers that
# starve the trainer to a device that the workers keep up with. Each setting is the workers'
# per-sample CPU (--per-sample-cpu-ns) and the model step's device time (--device-scale, 1 = the
# scenario's 3.5 ms). At each setting two fixes are measured untraced, interleaved (the ratio of
# the medians of BALANCE_ROUNDS rounds): direct slicing (no workers) and a device twice as fast
# (half the device scale). The verdict must name the cause whose fix gains most, CPU-CONTENDED or
# GPU-BOUND, in every one of VERDICT_RUNS recordings. Sourced by run.sh, after verdicts.sh and
# calibration.sh (scenario_field, verdict_once, untraced_rate).

BALANCE_SCENARIO=dataloader-oversubscribed
# ns per sample : device scale. 1750:1 is the scenario as it is; 0:2 has workers with no
# per-sample cost feeding a model step twice as heavy.
BALANCE_SETTINGS=(1750:1 1000:1 0:2)
BALANCE_ROUNDS=3 # untraced rounds of (before, slicing, faster device) per setting

balance_section() {
  command -v jq >/dev/null || die "jq is missing: run scripts/install-deps.sh"
  local program setting
  program=$(scenario_field "$BALANCE_SCENARIO" 2)
  for setting in "${BALANCE_SETTINGS[@]}"; do
    local cost=${setting%%:*} scale=${setting##*:}
    local -a at=(--per-sample-cpu-ns "$cost" --device-scale "$scale")
    local -a before=() sliced=() faster=()
    local round
    for ((round = 1; round <= BALANCE_ROUNDS; round++)); do
      before+=("$(untraced_rate "$program" - "${at[@]}")")
      sliced+=("$(untraced_rate "$program" - "${at[@]}" --fixed)")
      faster+=("$(untraced_rate "$program" - --per-sample-cpu-ns "$cost" \
        --device-scale "$(calc "$scale / 2" 2)")")
    done
    local base slicing_gain device_gain expected
    base=$(printf '%s\n' "${before[@]}" | median)
    slicing_gain=$(calc "$(printf '%s\n' "${sliced[@]}" | median) / $base" 2)
    device_gain=$(calc "$(printf '%s\n' "${faster[@]}" | median) / $base" 2)
    expected=GPU-BOUND
    holds "$slicing_gain > $device_gain" && expected=CPU-CONTENDED
    local label="$cost ns/sample, device x$scale"
    log "balance $label: direct slicing ${slicing_gain}x, a 2x device ${device_gain}x: $expected"
    local agree=0 run verdict _actor _share
    for ((run = 1; run <= VERDICT_RUNS; run++)); do
      read -r verdict _actor _share <<<"$(verdict_once "$BALANCE_SCENARIO" "${at[@]}")"
      log "balance $label $run/$VERDICT_RUNS: $verdict"
      [[ $verdict == "$expected" ]] && agree=$((agree + 1))
    done
    record balance "$label: recordings whose verdict is $expected" \
      "$agree/$VERDICT_RUNS" recordings \
      "fixes measured untraced: direct slicing ${slicing_gain}x, a device twice as fast ${device_gain}x"
    target "$label: the verdict names the cause whose fix gains most ($expected)" \
      "$([[ $agree -eq $VERDICT_RUNS ]] && echo yes || echo no)" "$agree of $VERDICT_RUNS"
  done
}
