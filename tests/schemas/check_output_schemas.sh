#!/bin/sh
# Runs causeway-schemas into a temporary folder and fails, with a unified diff, when a committed
# schemas/tools/*.output.json differs from what it writes (or is missing).
# Usage: check_output_schemas.sh CAUSEWAY_SCHEMAS SCHEMAS_TOOLS_DIR
set -eu
generator=$1
committed=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$generator" "$out" >/dev/null
status=0
for generated in "$out"/*.output.json; do
    name=$(basename "$generated")
    if ! diff -u "$committed/$name" "$generated"; then
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "schemas/tools/ differs from the describe() in report/shapes/:" \
        "run build/report/causeway-schemas schemas/tools and commit the result" >&2
fi
exit "$status"
