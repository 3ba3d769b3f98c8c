#!/usr/bin/env bash
# Builds Causeway and runs the whole test suite: unit tests, runtime tests that attach real eBPF
# probes (need root), end-to-end scenarios and MCP client tests. Usage: sudo scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
build_dir=${CAUSEWAY_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAUSEWAY_WERROR=ON
cmake --build "$build_dir" -j"$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure -j1 "$@"
