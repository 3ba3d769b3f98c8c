#!/usr/bin/env bash
# The static collector (-DCAUSEWAY_STATIC_COLLECTOR=ON) must run on a machine without libbpf,
# libelf, zlib, zstd or sqlite: no dynamic section, no interpreter, and it starts.
set -euo pipefail
binary=$1
fail() { echo "FAIL: $binary: $*" >&2; exit 1; }

file "$binary" | grep -q "statically linked" || fail "file(1) does not say statically linked: $(file "$binary")"
ldd_output=$(ldd "$binary" 2>&1 || true)
grep -q "not a dynamic executable" <<<"$ldd_output" || fail "ldd lists dependencies: $ldd_output"
if readelf -d "$binary" 2>/dev/null | grep -q NEEDED; then
  fail "it has NEEDED entries: $(readelf -d "$binary" | grep NEEDED)"
fi
if readelf -l "$binary" | grep -q INTERP; then
  fail "it asks for a program interpreter"
fi
"$binary" --help | grep -q "record" || fail "--help does not list the record command"
"$binary" record --help | grep -q -- "--offcpu-floor" || fail "record --help lacks --offcpu-floor"
echo "ok: $binary is static and runs"
