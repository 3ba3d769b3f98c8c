#!/usr/bin/env bash
# Rewrites every expected output under tests/golden/expected/ from the build given (default:
# build/ of this checkout). Run it only after a change of output you mean, then review
# `git diff tests/golden/expected/` and commit it with the change. Usage: regenerate.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build_dir=${1:-$here/../../build}
exec python3 "$here/golden.py" regenerate "$build_dir"
