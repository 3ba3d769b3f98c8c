#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# in a build folder of their own (build-fuzz/), then runs each target for SECONDS (default 60)
# from its seed corpus fuzz/corpus/<target>/. Fails when any target crashes, leaks, hangs or
# trips a sanitizer; the input that did it is kept in build-fuzz/artifacts/<target>/.
# New inputs the fuzzer finds go to build-fuzz/corpus/<target>/, not into the repository.
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds == 0)); then
    echo "usage: scripts/fuzz.sh [SECONDS]  (seconds per target, default 60)" >&2
    exit 2
fi
build_dir=${CAUSEWAY_FUZZ_BUILD_DIR:-build-fuzz}

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCAUSEWAY_FUZZ=ON \
    -DCAUSEWAY_BUILD_TESTS=OFF -DCAUSEWAY_BUILD_BENCH=OFF >/dev/null
cmake --build "$build_dir" -j"$(nproc)" --target causeway_fuzzers

failed=()
for source in fuzz/*_fuzz.cpp; do
    target=$(basename "$source" _fuzz.cpp)
    mkdir -p "$build_dir/corpus/$target" "$build_dir/artifacts/$target"
    echo "== fuzz $target for ${seconds}s"
    # -timeout: one input may take a while (a run_sql query is stopped after 2 s), never 30 s.
    if ! "$build_dir/fuzz/${target}_fuzz" -max_total_time="$seconds" -timeout=30 \
        -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$build_dir/artifacts/$target/" \
        "$build_dir/corpus/$target" "fuzz/corpus/$target"; then
        failed+=("$target")
    fi
done
if ((${#failed[@]} > 0)); then
    echo "fuzz: FAILED: ${failed[*]} (inputs in $build_dir/artifacts/)" >&2
    exit 1
fi
echo "fuzz: every target ran ${seconds}s without a crash"
