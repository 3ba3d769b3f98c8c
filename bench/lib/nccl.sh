# shellcheck shell=bash
# Section 9: the collector's cost per NCCL call. The NCCL loop calls ncclAllReduce of the CUDA
# toolkit's real libnccl on a null communicator (refused at once, after the collector has read
# its seven arguments) OVERHEAD_CALLS times, untraced and under causeway-collector, which must
# store every call; the CUDA call loop of the overhead section runs beside it, so the NCCL probe's
# cost is set against a CUDA call's in the same run. Sourced by run.sh.

NCCL_LIBRARY=/usr/local/cuda/lib64/libnccl.so.2

nccl_loop() { "$BENCH_BIN/causeway-bench-nccl-loop" --lib "$NCCL_LIBRARY" --warmup "$LOOP_WARMUP" --calls "$OVERHEAD_CALLS"; }

# ns per call of one NCCL loop under the collector, after checking it stored every call.
nccl_loop_under_causeway() {
  local db=$BENCH_OUT/nccl.db line stored
  line=$(record_with_collector "$db" "$BENCH_BIN/causeway-bench-nccl-loop" --lib "$NCCL_LIBRARY" \
    --warmup "$LOOP_WARMUP" --calls "$OVERHEAD_CALLS" | grep 'ns_per_call=')
  echo "causeway nccl: $line" >>"$BENCH_OUT/raw.log"
  stored=$(sql_value "$db" "SELECT count(*) FROM nccl_call n JOIN cuda_op o ON o.id = n.op_id
                            WHERE o.name = 'ncclAllReduce'")
  [[ $stored -eq $((OVERHEAD_CALLS + LOOP_WARMUP)) ]] ||
    die "causeway-collector stored $stored of $((OVERHEAD_CALLS + LOOP_WARMUP)) ncclAllReduce calls"
  kv ns_per_call <<<"$line"
}

cuda_loop_under_causeway() {
  local db=$BENCH_OUT/nccl-cuda.db
  record_with_collector "$db" "${CALL_LOOP[@]}" --calls "$OVERHEAD_CALLS" | grep 'ns_per_call=' | kv ns_per_call
}

nccl_section() {
  [[ -f $NCCL_LIBRARY ]] || die "the CUDA toolkit's libnccl is not at $NCCL_LIBRARY"
  log "nccl: $RUNS rounds of $OVERHEAD_CALLS ncclAllReduce and cudaEventSynchronize calls, untraced / causeway"
  local -a nccl_untraced=() nccl_traced=() cuda_untraced=() cuda_traced=()
  for ((round = 1; round <= RUNS; round++)); do
    nccl_untraced+=("$(nccl_loop | tee -a "$BENCH_OUT/raw.log" | kv ns_per_call)")
    nccl_traced+=("$(nccl_loop_under_causeway)")
    cuda_untraced+=("$("${CALL_LOOP[@]}" --calls "$OVERHEAD_CALLS" | tee -a "$BENCH_OUT/raw.log" | kv ns_per_call)")
    cuda_traced+=("$(cuda_loop_under_causeway)")
  done
  local nccl_cost cuda_cost
  nccl_cost=$(calc "$(printf '%s\n' "${nccl_traced[@]}" | median) - $(printf '%s\n' "${nccl_untraced[@]}" | median)" 1)
  cuda_cost=$(calc "$(printf '%s\n' "${cuda_traced[@]}" | median) - $(printf '%s\n' "${cuda_untraced[@]}" | median)" 1)
  record nccl "ncclAllReduce untraced" "$(printf '%s\n' "${nccl_untraced[@]}" | median)" ns/call "real libnccl, null communicator (refused)"
  record nccl "ncclAllReduce under causeway" "$(printf '%s\n' "${nccl_traced[@]}" | median)" ns/call "every call stored, with its 7 arguments"
  record nccl "collector cost per NCCL call" "$nccl_cost" ns/call "median traced - median untraced"
  record nccl "collector cost per CUDA call, same run" "$cuda_cost" ns/call "cudaEventSynchronize of the fake runtime (the overhead section's loop)"
  record nccl "NCCL / CUDA call cost" "$(calc "$nccl_cost / $cuda_cost" 2)" ratio "a 96-byte record and argument decoding against 64 bytes"
}
