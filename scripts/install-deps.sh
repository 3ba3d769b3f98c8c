#!/usr/bin/env bash
# Installs what Causeway needs to build and test on Debian 12. Safe to run again.
set -euo pipefail

# libclang-rt-dev: libFuzzer and the sanitizer runtimes for scripts/fuzz.sh (clang only
# recommends it, and recommendations are not installed here).
packages=(
  build-essential cmake ninja-build pkg-config clang llvm libclang-rt-dev
  # scripts/check-format.sh, which CI runs first.
  clang-format
  libbpf-dev bpftool libelf-dev zlib1g-dev libzstd-dev
  libsqlite3-dev sqlite3 nlohmann-json3-dev libcpp-httplib-dev libfmt-dev catch2 libcli11-dev
  bpftrace jq
  # The ClickHouse server the fleet tests start as two shards on loopback (tests/clickhouse/).
  clickhouse-server clickhouse-client
  # Real PyTorch (CPU) for the torch-* scenarios: Debian's interpreter, /usr/bin/python3.
  python3-torch
  # The interpreter's internal headers: tests/collector/python/python_offsets_test.cpp checks the
  # collector's structure offsets against offsetof() compiled with them.
  python3.11-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node.js runs the official MCP SDK and conformance clients in the tests; the distribution's npm
# package conflicts with a nodejs that already ships npm, so ask for npm only when it is absent.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
