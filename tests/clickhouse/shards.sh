# Sourced by the fleet tests: starts two ClickHouse shards on loopback (start_shards.sh) in a
# fresh work folder that is removed on exit, with every process in `pids` stopped then. Sets
# `here`, `tables` (the tables' prefix), `work`, SHARD1_URL, SHARD2_URL and the functions `fail`
# and `ch`. Exits 77 (skip) when clickhouse-server is missing, unless CAUSEWAY_REQUIRE_CLICKHOUSE=1
# or CAUSEWAY_REQUIRE_RUNTIME=1 (then it fails).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The tables' prefix: the trace schema's version (fleet/trace_tables.cpp).
tables="causeway_v$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$here/../../schemas/trace.sql")"
work="$(mktemp -d "${TMPDIR:-/tmp}/causeway-fleet-test.XXXXXX")"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill -CONT "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

status=0
"$here/start_shards.sh" "$work" >/dev/null || status=$?
if ((status == 77)); then
    if [[ "${CAUSEWAY_REQUIRE_CLICKHOUSE:-0}" == 1 || "${CAUSEWAY_REQUIRE_RUNTIME:-0}" == 1 ]]; then
        fail "clickhouse-server is not installed; run scripts/install-deps.sh" \
            "(CAUSEWAY_REQUIRE_CLICKHOUSE or CAUSEWAY_REQUIRE_RUNTIME is set)"
    fi
    echo "SKIP: clickhouse-server is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi
# The work folder goes on exit: the servers' own words come with the failure.
((status == 0)) || fail "the ClickHouse shards did not start; their error logs end:
$(tail -n 15 "$work"/shard*/server.err.log 2>/dev/null)"
# shellcheck disable=SC1091
source "$work/env"
pids+=("$SHARD1_PID" "$SHARD2_PID")
ch() {  # URL SQL: one query, TabSeparated answer
    curl -sSf "$1" --data-binary "$2 FORMAT TabSeparated"
}

