#!/usr/bin/env bash
# Fails when a tracked C++ file is not as .clang-format lays it out (bpf/ keeps the kernel's own
# style and is not checked). Fix with: git ls-files '*.cpp' '*.hpp' '*.h' | grep -v ^bpf/ |
# xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format.sh: clang-format is missing: run scripts/install-deps.sh" >&2; exit 2; }
git ls-files -z '*.cpp' '*.hpp' '*.h' | grep -zv '^bpf/' | xargs -0 clang-format --dry-run -Werror
echo "check-format.sh: every C++ file is formatted"
