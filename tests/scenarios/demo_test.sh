#!/usr/bin/env bash
# The demo a new user runs first (scripts/demo.sh), on the build under test: it must exit 0 and
# print its before/after speed-up, as `causeway compare` states it. Usage: demo_test.sh BUILD_DIR.
# Needs root (it records with the collector): skipped (exit 77) without it, unless
# CAUSEWAY_REQUIRE_RUNTIME=1 makes that a failure.
set -uo pipefail
build_dir=${1:?usage: demo_test.sh BUILD_DIR}
if ((EUID != 0)); then
    if [[ ${CAUSEWAY_REQUIRE_RUNTIME:-0} == 1 ]]; then
        echo "demo_test: needs root" >&2
        exit 1
    fi
    exit 77
fi
output=$(CAUSEWAY_BUILD_DIR=$build_dir "$(dirname "$0")/../../scripts/demo.sh" --no-setup \
    --duration 1 2>&1)
status=$?
printf '%s\n' "$output"
if ((status != 0)); then
    echo "demo_test: scripts/demo.sh exited with status $status" >&2
    exit 1
fi
# compare's headline: "2.4x more steps/s; ..." (or "+40% steps/s" below 1.5x), possibly "within
# noise" for a recording this short, and the DataLoader workers' contention gone.
if ! grep -Eq '([0-9]+\.[0-9]x more|\+[0-9]+%) (steps|calls)/s' <<<"$output"; then
    echo "demo_test: scripts/demo.sh printed no speed-up line" >&2
    exit 1
fi
if ! grep -Eq 'CPU-CONTENDED by pt_data_worker is gone \(predicted [0-9.]+x, measured [0-9.]+x\)' \
    <<<"$output"; then
    echo "demo_test: causeway compare did not report the DataLoader workers' contention gone," \
        "with its predicted and measured speed-up" >&2
    exit 1
fi
