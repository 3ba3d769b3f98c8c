#!/usr/bin/env bash
# Prints the benchmark report of one bench/run.sh invocation as Markdown: the machine, one table
# of medians, and the targets with whether each is met. Usage: bench/lib/report.sh OUT_DIR
set -euo pipefail
out=${1:?usage: report.sh OUT_DIR}

sed 's/^/    /' "$out/machine.txt"
echo
echo "| area | measurement | median | unit | notes |"
echo "|---|---|---:|---|---|"
awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/results.tsv"
echo
echo "| target | met | measured |"
echo "|---|---|---|"
awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, ($2 == "yes" ? "yes" : "**NO**"), $3 }' "$out/targets.tsv"
