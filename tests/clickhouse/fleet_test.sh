#!/usr/bin/env bash
# e2e:clickhouse_fleet — four nodes of one job pushed through a Distributed table over two real
# clickhouse-server shards on loopback:
#   * tables made by an earlier causeway gain the columns added since, keeping their rows;
#   * `fleet` names the DataLoader-starved node as the straggler, with INPUT-BOUND as its cause;
#   * `explain --clickhouse` prints the same JSON as `explain --db` on the pushed file;
#   * pushing a recording again sends nothing;
#   * a push whose server is killed half way (at a known batch, not after a delay) is invisible,
#     and its retry completes with every row exactly once;
#   * fleet reads the per-thread summaries each push stores, not the calls, and the calls where
#     a node has no summary;
#   * a call the page reader cannot decode (text in an integer column) is sent by SQL with the
#     rows after it, every row once;
#   * `causeway-collector record --push` stores the recording when it ends (as root).
# Usage: fleet_test.sh CAUSEWAY FLEET_FIXTURE COLLECTOR WORKLOAD. Exit 77 (skip) when clickhouse-server is missing,
# unless CAUSEWAY_REQUIRE_CLICKHOUSE=1 or CAUSEWAY_REQUIRE_RUNTIME=1 (then it fails).
set -euo pipefail
causeway="$1"
fixture="$2"
collector="$3"
workload="$4"
# shellcheck source=tests/clickhouse/shards.sh
source "$(dirname "$0")/shards.sh"

ddl() {  # URL SQL: a statement without an answer
    curl -sSf "$1" --data-binary "$2" >/dev/null
}
# The node-cause tables as a causeway before their speedup columns made them, holding a row.
old_cause_columns="job String, node String, push_id String, attempt UInt64, chain_index UInt64,
    cause String, root_cause String, lost_ns Int64, verdict String, actor_kind String,
    actor String, container_runtime String, container_id String, pod_uid String, pod_qos String"
for url in "$SHARD1_URL" "$SHARD2_URL"; do
    ddl "$url" "CREATE TABLE ${tables}_node_cause_local ($old_cause_columns) ENGINE = MergeTree
        ORDER BY (job, node, push_id, attempt, chain_index)"
done
ddl "$SHARD1_URL" "CREATE TABLE ${tables}_node_cause ($old_cause_columns) ENGINE =
    Distributed(causeway_test, currentDatabase(), ${tables}_node_cause_local,
    cityHash64(job, node))"
ddl "$SHARD1_URL" "INSERT INTO ${tables}_node_cause_local (job, node, cause) VALUES
    ('old-job', 'old-node', 'GPU-BOUND')"

# The shards hold the MergeTree tables; shard 1 also the Distributed tables every push and
# query goes through.
"$causeway" push --clickhouse "$SHARD2_URL" --cluster causeway_test --create-tables-only >/dev/null
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --create-tables-only >/dev/null

for n in 1 2 3 4; do
    kind=gpu-bound
    [[ $n == 3 ]] && kind=starved
    "$fixture" "$work/node-$n.db" "host-$n" "$kind"
    "$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-1 \
        --node "node-$n" --rank $((n - 1)) "$work/node-$n.db" >/dev/null
done

echo "== tables made before gain the columns added since, and keep their rows"
# The local tables with --create-tables-only, the Distributed one with the first push.
for table in "$SHARD1_URL ${tables}_node_cause_local" "$SHARD2_URL ${tables}_node_cause_local" \
    "$SHARD1_URL ${tables}_node_cause"; do
    read -r url name <<<"$table"
    [[ "$(ch "$url" "SELECT count() FROM system.columns WHERE database = currentDatabase()
        AND table = '$name' AND name IN ('speedup', 'device_twice_as_fast')")" == 2 ]] ||
        fail "$name on $url lacks the columns added since it was made"
done
[[ "$(ch "$SHARD1_URL" "SELECT cause, speedup FROM ${tables}_node_cause WHERE job = 'old-job'")" == \
    $'GPU-BOUND\t0' ]] || fail "the old row did not survive, or reads a speedup"

echo "== fleet names the starved node and its cause"
"$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1 --json >"$work/fleet.json"
"$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1
[[ "$(jq -r '.nodes | length' "$work/fleet.json")" == 4 ]] || fail "fleet does not list 4 nodes"
[[ "$(jq -r '.straggler.node' "$work/fleet.json")" == node-3 ]] || fail "straggler is not node-3"
[[ "$(jq -r '.straggler.rank' "$work/fleet.json")" == 2 ]] || fail "straggler rank is not 2"
[[ "$(jq -r '.straggler.basis' "$work/fleet.json")" == slowest_loop ]] ||
    fail "a job without collectives has a straggler not chosen by its loop rate"
[[ "$(jq -r '.straggler.cause' "$work/fleet.json")" == INPUT-BOUND ]] ||
    fail "the straggler's cause is not INPUT-BOUND"
# Its cause's actor, a feeder process outside the job, with the docker container it runs in.
[[ "$(jq -r '.straggler.actor' "$work/fleet.json")" == feeder ]] ||
    fail "the straggler's actor is not the feeder"
[[ "$(jq -r '.straggler.container.container_id' "$work/fleet.json")" == 3f2a1b2c3d4e* ]] ||
    fail "the feeder's container is not named"
[[ "$(jq -r '.nodes[] | select(.node == "node-3") | .causes[0].actor_kind' "$work/fleet.json")" == \
    processes_outside ]] || fail "node-3's cause has no actor kind"
"$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1 | grep -q "by feeder in container 3f2a1b2c3d4e" ||
    fail "the fleet text does not name the feeder's container"
[[ "$(jq -r '[.nodes[] | select(.node != "node-3") | .verdict] | unique | join(",")' \
    "$work/fleet.json")" == GPU-BOUND ]] || fail "the other nodes are not GPU-BOUND"
# 300 loop calls/s on the healthy nodes against 150 on the starved one: the skew is about half.
jq -e '.skew_pct > 45 and .skew_pct < 55' "$work/fleet.json" >/dev/null || fail "skew not ~50%"

echo "== the rows are spread over both shards, one node on one shard"
on_shards=$(($(ch "$SHARD1_URL" "SELECT uniqExact(node) FROM ${tables}_cuda_call_local") + \
    $(ch "$SHARD2_URL" "SELECT uniqExact(node) FROM ${tables}_cuda_call_local")))
((on_shards == 4)) || fail "nodes on the shards add up to $on_shards, not 4"
[[ "$(ch "$SHARD1_URL" "SELECT count() FROM ${tables}_cuda_call_local")" != 0 &&
    "$(ch "$SHARD2_URL" "SELECT count() FROM ${tables}_cuda_call_local")" != 0 ]] ||
    fail "one shard holds no call: the Distributed table did not shard"

echo "== explain --clickhouse answers what explain --db answers"
for n in 1 3; do
    "$causeway" explain --json --db "$work/node-$n.db" >"$work/explain-db-$n.json"
    "$causeway" explain --json --clickhouse "$SHARD1_URL" --job train-1 --node "node-$n" \
        >"$work/explain-ch-$n.json"
    diff "$work/explain-db-$n.json" "$work/explain-ch-$n.json" ||
        fail "explain of node-$n differs between the file and ClickHouse"
done

echo "== MCP serves the stored nodes and get_fleet_overview"
printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fleet-test","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_fleet_overview","arguments":{"job":"train-1"}}}' \
    '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_causal_chains","arguments":{"trace":"train-1.node-3","limit":1}}}' \
    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_causal_chains","arguments":{"job":"train-1","node":"node-3","limit":1}}}' \
    '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_trace_stats","arguments":{"job":"train-1"}}}' |
    "$causeway" mcp --clickhouse "$SHARD1_URL" >"$work/mcp.out" 2>"$work/mcp.err"
jq -se '.[] | select(.id == 2) | .result.tools[] | select(.name == "get_fleet_overview") | .outputSchema' \
    "$work/mcp.out" >/dev/null || fail "tools/list has no get_fleet_overview with an output schema"
[[ "$(jq -sr '.[] | select(.id == 3) | .result.structuredContent.straggler.node' "$work/mcp.out")" == node-3 ]] ||
    fail "get_fleet_overview does not name node-3: $(cat "$work/mcp.out" "$work/mcp.err")"
[[ "$(jq -sr '.[] | select(.id == 4) | .result.structuredContent.verdict.name' "$work/mcp.out")" == INPUT-BOUND ]] ||
    fail "get_causal_chains on train-1.node-3 is not INPUT-BOUND"
[[ "$(jq -sr '.[] | select(.id == 5) | .result.structuredContent.verdict.name' "$work/mcp.out")" == INPUT-BOUND ]] ||
    fail "get_causal_chains with job train-1 and node node-3 is not INPUT-BOUND"
jq -sr '.[] | select(.id == 6) | .result.content[0].text' "$work/mcp.out" | grep -q "job and node go together" ||
    fail "a job without its node is not refused clearly: $(cat "$work/mcp.out")"

echo "== credentials come from the environment; a wrong one or a dead server is a clear error"
CLICKHOUSE_USER=pusher CLICKHOUSE_PASSWORD=fleet-test-secret \
    "$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1 >/dev/null ||
    fail "fleet as user pusher with its password failed"
if CLICKHOUSE_USER=pusher CLICKHOUSE_PASSWORD=wrong \
    "$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1 >/dev/null 2>"$work/auth.err"; then
    fail "a wrong password was accepted"
fi
grep -q "CLICKHOUSE_PASSWORD" "$work/auth.err" || fail "the login error does not say where credentials come from: $(cat "$work/auth.err")"
if "$causeway" push --clickhouse http://127.0.0.1:1 --job j "$work/node-1.db" 2>"$work/down.err"; then
    fail "a push to a closed port succeeded"
fi
grep -q "cannot reach ClickHouse at http://127.0.0.1:1" "$work/down.err" ||
    fail "unclear error for a dead server: $(cat "$work/down.err")"

echo "== pushing the same recording again sends nothing"
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-1 \
    --node node-3 --rank 2 "$work/node-3.db" | grep -q "nothing sent" || fail "re-push sent rows"

echo "== a push whose server dies half way stays invisible; the retry completes it once"
"$fixture" "$work/node-5.db" host-5 starved
# At 100 rows a batch (a table's first is 12), the other tables take 12 batches and the calls,
# sent last, 7. The push stops itself (SIGSTOP) once 15 batches are stored, among them calls; then
# the server it talks to is killed and the push goes on into the dead server.
CAUSEWAY_PUSH_STOP_AFTER_BATCHES=15 "$causeway" push --clickhouse "$SHARD1_URL" \
    --cluster causeway_test --job train-2 --node node-5 --batch-rows 100 "$work/node-5.db" \
    >"$work/push-1.out" 2>"$work/push-1.err" &
push_pid=$!
pids+=("$push_pid")
until [[ "$(awk '{print $3}' "/proc/$push_pid/stat" 2>/dev/null)" == T ]]; do
    kill -0 "$push_pid" 2>/dev/null || fail "the push ended before its third batch"
    sleep 0.05
done
kill -9 "$SHARD1_PID"
while kill -0 "$SHARD1_PID" 2>/dev/null; do sleep 0.05; done
kill -CONT "$push_pid"
push_status=0
wait "$push_pid" || push_status=$?
((push_status != 0)) || fail "the push into a killed server reported success"
grep -q "stays incomplete and invisible" "$work/push-1.err" || fail "$(cat "$work/push-1.err")"
SHARD1_PID="$("$work/shard1/restart.sh")"
pids+=("$SHARD1_PID")
stored_rows() {  # the trace rows of node-5 in both shards, visible or not
    echo $(($(ch "$SHARD1_URL" "SELECT count() FROM ${tables}_cuda_call_local WHERE job = 'train-2'") + \
        $(ch "$SHARD2_URL" "SELECT count() FROM ${tables}_cuda_call_local WHERE job = 'train-2'")))
}
calls_stored="$(stored_rows)"
((calls_stored > 0 && calls_stored < 600)) ||
    fail "the killed push stored $calls_stored of the 600 calls: the test did not stop it half way"
if "$causeway" fleet --clickhouse "$SHARD1_URL" --job train-2 >/dev/null 2>&1; then
    fail "fleet shows a job whose only push is incomplete"
fi
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-2 --node node-5 \
    --batch-rows 100 "$work/node-5.db" >/dev/null || fail "the retry failed"
visible="SELECT count(), uniqExact(row_index) FROM ${tables}_cuda_call WHERE job = 'train-2'
    AND (job, node, push_id, attempt) GLOBAL IN (SELECT job, node, argMax(push_id, version_ns),
    argMax(attempt, version_ns) FROM ${tables}_push WHERE job = 'train-2' GROUP BY job, node
    HAVING argMax(complete, version_ns) = 1)"
[[ "$(ch "$SHARD1_URL" "$visible")" == $'600\t600' ]] ||
    fail "node-5 shows $(ch "$SHARD1_URL" "$visible") calls (count, distinct), not 600 once"
"$causeway" explain --json --db "$work/node-5.db" >"$work/explain-db-5.json"
"$causeway" explain --json --clickhouse "$SHARD1_URL" --job train-2 --node node-5 \
    >"$work/explain-ch-5.json"
diff "$work/explain-db-5.json" "$work/explain-ch-5.json" || fail "explain of the retried node differs"
echo "== fleet reads each node's per-thread summary, never its calls; a node without one, its calls"
# With the calls' table out of the way, the loops come from the summaries alone, as before.
ddl "$SHARD1_URL" "RENAME TABLE ${tables}_cuda_call TO ${tables}_cuda_call_aside"
"$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1 --json >"$work/fleet-summaries.json" ||
    fail "fleet reads the calls' table"
ddl "$SHARD1_URL" "RENAME TABLE ${tables}_cuda_call_aside TO ${tables}_cuda_call"
diff "$work/fleet.json" "$work/fleet-summaries.json" || fail "the summaries give other loops"
[[ "$(ch "$SHARD1_URL" "SELECT count() FROM ${tables}_node_thread WHERE job = 'train-1'")" == 4 ]] ||
    fail "train-1 has not one summary row per node's one GPU thread"
# As if pushed by a causeway that stored no summary: the loops come from the calls.
for url in "$SHARD1_URL" "$SHARD2_URL"; do
    ddl "$url" "TRUNCATE TABLE ${tables}_node_thread_local"
done
"$causeway" fleet --clickhouse "$SHARD1_URL" --job train-1 --json >"$work/fleet-calls.json"
diff "$work/fleet.json" "$work/fleet-calls.json" || fail "nodes without a summary read other loops"

echo "== a push compressed as the server reads it stores the same rows"
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-gz --node node-1 \
    --compression gzip "$work/node-1.db" >"$work/push-gz.out" || fail "the gzip push failed"
grep -q "compression gzip" "$work/push-gz.out" || fail "$(cat "$work/push-gz.out")"
read -r raw wire < <(sed -n 's/.* \([0-9,]*\) bytes (\([0-9,]*\) on the wire.*/\1 \2/p' \
    "$work/push-gz.out" | tr -d ,)
((wire > 0 && wire * 3 < raw)) || fail "gzip sent $wire of $raw bytes: $(cat "$work/push-gz.out")"
"$causeway" explain --json --db "$work/node-1.db" >"$work/explain-db-1.json"
"$causeway" explain --json --clickhouse "$SHARD1_URL" --job train-gz --node node-1 \
    >"$work/explain-gz-1.json"
diff "$work/explain-db-1.json" "$work/explain-gz-1.json" || fail "the gzip push stored other rows"
# On this machine auto sends as it is; Debian's 18.16 refuses zstd, saying so.
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-auto \
    --node node-1 "$work/node-1.db" | grep -q "compression none" || fail "auto compressed on loopback"
if "$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-zstd \
    --node node-1 --compression zstd "$work/node-1.db" 2>"$work/zstd.err"; then
    fail "18.16 stored a zstd body"
fi
grep -q "Unknown Content-Encoding" "$work/zstd.err" || fail "$(cat "$work/zstd.err")"

echo "== rows the page reader refuses are read with SQL, from the first refused, each once"
cp "$work/node-2.db" "$work/text-call.db"
sqlite3 "$work/text-call.db" "UPDATE cuda_call SET bytes = 'many'
    WHERE rowid = (SELECT max(rowid) / 2 FROM cuda_call)"
"$causeway" push --clickhouse "$SHARD1_URL" --cluster causeway_test --job train-text \
    --node node-2 "$work/text-call.db" >/dev/null || fail "the push of a text value failed"
in_file="$(sqlite3 -separator ' ' "$work/text-call.db" \
    "SELECT count(*), count(*) - 1, sum(ts_ns), sum(thread_id * n) FROM (SELECT ts_ns,
    thread_id, row_number() OVER (ORDER BY rowid) AS n FROM cuda_call)")"
stored="$(ch "$SHARD1_URL" "SELECT count(), uniqExact(row_index) - 1, sum(ts_ns),
    sum(thread_id * (row_index + 1)) FROM ${tables}_cuda_call WHERE job = 'train-text'" |
    tr '\t' ' ')"
[[ "$stored" == "$in_file" ]] || fail "stored calls '$stored', the file's '$in_file'"

echo "== causeway-collector record --push stores the recording when it ends"
if [[ "$(id -u)" != 0 ]]; then
    [[ "${CAUSEWAY_REQUIRE_RUNTIME:-0}" != 1 ]] || fail "record --push needs root to record"
    echo "SKIP: record --push needs root (the rest passed)"
    exit 77
fi
"$collector" record --db "$work/recorded.db" --quiet --push "$SHARD1_URL" \
    --cluster causeway_test --job rec-1 --node recorded --rank 0 -- "$workload" --duration 1 \
    >"$work/record.out" || fail "record --push failed: $(cat "$work/record.out")"
grep -q "Pushed $work/recorded.db as node recorded of job rec-1" "$work/record.out" ||
    fail "record --push did not push: $(cat "$work/record.out")"
"$causeway" explain --json --db "$work/recorded.db" >"$work/explain-db-rec.json"
"$causeway" explain --json --clickhouse "$SHARD1_URL" --job rec-1 --node recorded \
    >"$work/explain-ch-rec.json"
diff "$work/explain-db-rec.json" "$work/explain-ch-rec.json" ||
    fail "explain of the recorded node differs between the file and ClickHouse"
echo "PASS"
