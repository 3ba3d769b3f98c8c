#!/usr/bin/env bash
# Starts two clickhouse-server processes on loopback as the two shards of cluster `causeway_test`
# (tests/clickhouse/server.xml.in), each in its own folder under DIR, on free ports.
# Usage: start_shards.sh DIR    Writes DIR/env (SHARD1_URL, SHARD2_URL, SHARD1_PID, SHARD2_PID)
# and DIR/shardN/restart.sh (starts shard N again on the same ports and data, after a kill).
# Exit 77 when clickhouse-server is not installed (the tests then skip, or fail when
# CAUSEWAY_REQUIRE_CLICKHOUSE=1 or CAUSEWAY_REQUIRE_RUNTIME=1 is set).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$1"
server="$(command -v clickhouse-server || true)"
if [[ -z "$server" ]]; then
    echo "clickhouse-server is not installed (scripts/install-deps.sh installs it)" >&2
    exit 77
fi

# A port no socket uses now, below the kernel's range of ephemeral ports: a port inside it can be
# taken at any moment as the local end of an outgoing connection (the tests' own clients make
# many), and binding a server to it then fails with "Address already in use". Ports are checked,
# not guessed blindly: a clash shows up as a server that does not come up, and the caller's error
# names the port.
read -r ephemeral_low _ </proc/sys/net/ipv4/ip_local_port_range
port_low=10000
port_span=$((ephemeral_low - port_low))
((port_span >= 1000)) || { port_low=20000; port_span=30000; } # no room below it: take the chance
used_ports="$(ss -Htan | awk '{print $4}' | sed 's/.*://')"
pick_port() {
    local port
    while :; do
        port=$((port_low + RANDOM % port_span))
        if ! grep -qx "$port" <<<"$used_ports"; then
            used_ports+=$'\n'"$port"
            echo "$port"
            return
        fi
    done
}
http1=$(pick_port); tcp1=$(pick_port); http2=$(pick_port); tcp2=$(pick_port)

start_shard() {  # N HTTP_PORT TCP_PORT
    local n=$1 shard_dir="$dir/shard$1"
    mkdir -p "$shard_dir"/{data,tmp,user_files,format_schemas}
    cp "$here/users.xml" "$shard_dir/users.xml"
    sed -e "s|@DIR@|$shard_dir|g" -e "s|@HTTP_PORT@|$2|" -e "s|@TCP_PORT@|$3|" \
        -e "s|@SHARD1_TCP@|$tcp1|" -e "s|@SHARD2_TCP@|$tcp2|" \
        "$here/server.xml.in" >"$shard_dir/config.xml"
    cat >"$shard_dir/restart.sh" <<RESTART
#!/usr/bin/env bash
# Starts shard $n again (same config, ports and data); prints its pid once it answers.
set -euo pipefail
"$server" --config-file="$shard_dir/config.xml" >"$shard_dir/stdout.log" 2>&1 &
pid=\$!
for _ in \$(seq 1200); do
    if curl -sf "http://127.0.0.1:$2/ping" >/dev/null 2>&1; then echo "\$pid"; exit 0; fi
    if ! kill -0 "\$pid" 2>/dev/null; then
        echo "clickhouse-server shard $n (http port $2) exited; see $shard_dir/server.err.log" >&2
        exit 1
    fi
    sleep 0.1
done
echo "clickhouse-server shard $n did not answer on http port $2 in 120 s" >&2
kill "\$pid"
exit 1
RESTART
    chmod +x "$shard_dir/restart.sh"
    "$shard_dir/restart.sh"
}

pid1=$(start_shard 1 "$http1" "$tcp1")
pid2=$(start_shard 2 "$http2" "$tcp2")
cat >"$dir/env" <<ENV
SHARD1_URL=http://127.0.0.1:$http1
SHARD2_URL=http://127.0.0.1:$http2
SHARD1_PID=$pid1
SHARD2_PID=$pid2
ENV
cat "$dir/env"
