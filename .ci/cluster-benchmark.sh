#!/usr/bin/env bash
# Shards behind HAProxy: accepted notifications per second for 1, 2 and 3 shards on this machine,
# through HAProxy (the configuration `apns-emulator cluster haproxy-config` writes) and straight to
# the shards (each shard driven with its own tokens only, all at once), with the CPU time (user +
# system from /proc) per 100,000 requests of the shards and of HAProxy.
#
#   .ci/cluster-benchmark.sh [requests] [durability]     (300000, relaxed)
#
# h2load over TLS: 4 connections x 100 streams, 320-byte payloads, tokens spread over every first
# byte (so over every shard).
set -euo pipefail
requests=${1:-300000}
mode=${2:-relaxed}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v h2load >/dev/null || { echo "h2load is missing: apt-get install -y nghttp2-client" >&2; exit 1; }
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$haproxy" ] || { echo "haproxy is missing: apt-get install -y haproxy" >&2; exit 1; }

swift build -c release --product apns-emulator --package-path "$root" >&2
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
      --channels-port 0 --log-level warning --quiet > "$log" 2>&1 &
    pids+=($!)
    hosts="$hosts${hosts:+,}127.0.0.1:$(shard_port "$shard")"
    for _ in $(seq 1 100); do grep -q "HTTP/2 provider API on" "$log" && break; sleep 0.1; done
  done

  "$binary" cluster haproxy-config --shards "$count" --hosts "$hosts" --listen "127.0.0.1:$front" --certs-dir "$work/certs" --out "$work/haproxy-$count" > /dev/null
  "$haproxy" -db -f "$work/haproxy-$count/haproxy.cfg" > "$work/haproxy-$count.log" 2>&1 &
  proxy=$!
  for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$front") 2>/dev/null && break; sleep 0.1; done
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
