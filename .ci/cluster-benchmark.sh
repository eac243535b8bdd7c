#!/usr/bin/env bash
# Shards behind HAProxy: accepted notifications per second for 1, 2 and 3 shards on this machine,
# through HAProxy (the configuration `apns-emulator cluster haproxy-config` writes) and straight to
# the shards (each shard driven with its own tokens only, all at once), with the CPU time (user +
# system from /proc) per 100,000 requests of the shards and of HAProxy.
#
#   .ci/cluster-benchmark.sh [requests] [durability] [devices]     (300000, relaxed, 3000)
#
# Then what one device connection costs: `devices` devices held open through HAProxy's TCP front
# (three shards) and straight to one shard, with the memory (VmRSS) each process gained per
# connection and the CPU its handshakes took.
#
# h2load over TLS: 4 connections x 100 streams, 320-byte payloads, tokens spread over every first
# byte (so over every shard).
set -euo pipefail
# shellcheck source=lib/wait.sh
. "$(dirname "$0")/lib/wait.sh"
requests=${1:-300000}
mode=${2:-relaxed}
devices=${3:-3000}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v h2load >/dev/null || { echo "h2load is missing: apt-get install -y nghttp2-client" >&2; exit 1; }
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$haproxy" ] || { echo "haproxy is missing: apt-get install -y haproxy" >&2; exit 1; }

swift build -c release --product apns-emulator --package-path "$root" >&2
swift build -c release --product APNsBenchmark --package-path "$root" >&2
bench="$root/.build/release/APNsBenchmark"
binary="$root/.build/release/apns-emulator"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# 320-byte JSON payload.
python3 "$root/.ci/payload.py" "$work/payload.json"
"$binary" certs generate --out "$work/certs" > /dev/null

hz=$(getconf CLK_TCK)
ticks() { local total=0 pid; for pid in "$@"; do total=$((total + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"))); done; echo "$total"; }
per_100k() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz / n * 100000 }'; }
front=23500
shard_port() { echo $((23000 + $1)); }

# uris N FILE [SHARD PORT]: token paths through HAProxy, or only shard SHARD's straight to PORT.
uris() {
  local count=$1 file=$2 only=${3:-} port=${4:-$front} i byte
  : > "$file"
  for i in $(seq 1 10000); do
    byte=$((i % 256))
    if [ -n "$only" ] && [ $((byte % count)) -ne "$only" ]; then continue; fi
    printf 'https://127.0.0.1:%d/3/device/%02x%062x\n' "$port" "$byte" "$i" >> "$file"
  done
}

for count in 1 2 3; do
  pids=()
  hosts=""
  for shard in $(seq 0 $((count - 1))); do
    log="$work/shard-$count-$shard.log"
    "$binary" serve --shard "$shard/$count" --durability "$mode" --ephemeral --certs-dir "$work/certs" \
      --http2-port "$(shard_port "$shard")" --admin-port $((23100 + shard)) --device-port 0 --gateway-port 0 --feedback-port 0 \
      --channels-port 0 --web-push-port 0 --production-http2-port 0 --log-level warning --quiet > "$log" 2>&1 &
    pids+=($!)
    hosts="$hosts${hosts:+,}127.0.0.1:$(shard_port "$shard")"
    wait_for 30 "shard $shard's HTTP/2 port (its log: $log)" log_says "$log" "HTTP/2 provider API on"
  done

  "$binary" cluster haproxy-config --shards "$count" --hosts "$hosts" --listen "127.0.0.1:$front" --certs-dir "$work/certs" --out "$work/haproxy-$count" > /dev/null
  "$haproxy" -db -f "$work/haproxy-$count/haproxy.cfg" > "$work/haproxy-$count.log" 2>&1 &
  proxy=$!
  wait_for 30 "HAProxy on port $front" port_open "$front"
  uris "$count" "$work/uris.txt"
  h2load -c 4 -m 100 -n 20000 -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris.txt" > /dev/null
  before_shards=$(ticks "${pids[@]}"); before_proxy=$(ticks "$proxy")
  h2load -c 4 -m 100 -n "$requests" -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris.txt" > "$work/out-$count.txt"
  shards_cpu=$(per_100k $(($(ticks "${pids[@]}") - before_shards)) "$requests")
  proxy_cpu=$(per_100k $(($(ticks "$proxy") - before_proxy)) "$requests")
  rate=$(awk '/^finished in/ {print $4}' "$work/out-$count.txt")
  codes=$(grep '^status codes:' "$work/out-$count.txt" | sed 's/status codes: //')
  printf '%d shard(s) through HAProxy  %10s notifications/s   CPU per 100k: shards %s s, HAProxy %s s   (%s)\n' "$count" "$rate" "$shards_cpu" "$proxy_cpu" "$codes"
  kill -TERM "$proxy"; wait "$proxy" 2>/dev/null || true

  # Straight to the shards: each its own tokens, all at once, the requests split evenly.
  before_shards=$(ticks "${pids[@]}")
  start=$(date +%s.%N)
  drivers=()
  for shard in $(seq 0 $((count - 1))); do
    uris "$count" "$work/uris-$shard.txt" "$shard" "$(shard_port "$shard")"
    h2load -c 4 -m 100 -n $((requests / count)) -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris-$shard.txt" > "$work/direct-$count-$shard.txt" &
    drivers+=($!)
  done
  for driver in "${drivers[@]}"; do wait "$driver"; done
  seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
  total=$(( (requests / count) * count ))
  shards_cpu=$(per_100k $(($(ticks "${pids[@]}") - before_shards)) "$total")
  printf '%d shard(s) straight        %10.2f notifications/s   CPU per 100k: shards %s s\n' "$count" "$(awk -v n="$total" -v s="$seconds" 'BEGIN { print n / s }')" "$shards_cpu"
  for pid in "${pids[@]}"; do kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; done
done

# Device connections held open: through HAProxy (three shards) and straight to one shard.
rss() { local total=0 pid; for pid in "$@"; do total=$((total + $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status"))); done; echo "$total"; }
pids=()
hosts=""
device_hosts=""
for shard in 0 1 2; do
  log="$work/devices-shard-$shard.log"
  "$binary" serve --shard "$shard/3" --durability "$mode" --ephemeral --certs-dir "$work/certs" \
    --http2-port "$(shard_port "$shard")" --admin-port $((23100 + shard)) --device-port $((23200 + shard)) --gateway-port 0 --feedback-port 0 \
    --channels-port 0 --web-push-port 0 --production-http2-port 0 --log-level warning --quiet > "$log" 2>&1 &
  pids+=($!)
  hosts="$hosts${hosts:+,}127.0.0.1:$(shard_port "$shard")"
  device_hosts="$device_hosts${device_hosts:+,}127.0.0.1:$((23200 + shard))"
  wait_for 30 "shard $shard's device port (its log: $log)" log_says "$log" "device listener on"
done
"$binary" cluster haproxy-config --shards 3 --hosts "$hosts" --device-hosts "$device_hosts" --listen "127.0.0.1:$front" \
  --device-listen 127.0.0.1:23600 --certs-dir "$work/certs" --out "$work/haproxy-devices" > /dev/null
"$haproxy" -db -f "$work/haproxy-devices/haproxy.cfg" > "$work/haproxy-devices.log" 2>&1 &
proxy=$!
wait_for 30 "HAProxy's device port 23600" port_open 23600
sleep 1

# hold PORT NAME LABEL PIDS [LABEL PIDS]: holds $devices devices through PORT (TLS name NAME);
# for each group of process ids (space-separated), the memory it gained per connection and the
# CPU its side of the handshakes took.
hold() {
  local port=$1 name=$2; shift 2
  local labels=() groups=() memory=() cpu=() i
  while [ $# -gt 0 ]; do labels+=("$1"); groups+=("$2"); shift 2; done
  for i in "${!groups[@]}"; do memory+=($(rss ${groups[$i]})); cpu+=($(ticks ${groups[$i]})); done
  sleep infinity | "$bench" hold 127.0.0.1 "$port" "$work/certs/ca.pem" "$devices" "$name" > "$work/hold.txt" 2>&1 &
  local holder=$!
  wait_for 120 "$devices devices held through port $port" log_says "$work/hold.txt" '^held' || { cat "$work/hold.txt" >&2; exit 1; }
  sleep 1
  for i in "${!groups[@]}"; do
    awk -v m="$(( $(rss ${groups[$i]}) - ${memory[$i]} ))" -v t="$(( $(ticks ${groups[$i]}) - ${cpu[$i]} ))" -v n="$devices" -v hz="$hz" -v label="${labels[$i]}" -v line="$(cat "$work/hold.txt")" \
      'BEGIN { printf "%-36s %6.1f KiB per connection, %5.0f ms CPU per 1000 connections (%s)\n", label, m / n, t / hz / n * 1000 * 1000, line }'
  done
  pkill -P $$ sleep 2>/dev/null || true
  kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true
  sleep 1
}
hold 23600 devices.localhost "devices through HAProxy: HAProxy" "$proxy" "devices through HAProxy: shards" "${pids[*]}"
hold 23200 localhost "devices straight to one shard" "${pids[0]}"
kill -TERM "$proxy" "${pids[@]}" 2>/dev/null || true
