#!/bin/sh
# Runs causeway-schemas into a temporary folder and fails, with a unified diff, when a committed
# schemas/tools/*.json differs from what it writes, is missing, or belongs to no tool.
# Usage: check_tool_schemas.sh CAUSEWAY_SCHEMAS SCHEMAS_TOOLS_DIR
set -eu
generator=$1
committed=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$generator" "$out" >/dev/null
status=0
for generated in "$out"/*.json; do
    name=$(basename "$generated")
    if ! diff -u "$committed/$name" "$generated"; then
        status=1
    fi
done
for kept in "$committed"/*.json; do
    name=$(basename "$kept")
    if [ ! -e "$out/$name" ]; then
        echo "schemas/tools/$name belongs to no tool: delete it" >&2
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "schemas/tools/ differs from the tools' input structs and answers' describe():" \
        "run build/server/causeway-schemas schemas/tools and commit the result" >&2
fi
exit "$status"
