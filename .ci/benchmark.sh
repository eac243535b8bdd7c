#!/usr/bin/env bash
# Accepted notifications per second over the HTTP/2 provider API, in durable and relaxed modes.
#
#   .ci/benchmark.sh [requests] [tokens]
#
# Builds the release binary, then for each durability mode starts a fresh emulator on its own
# data directory and drives it with h2load over TLS: 4 connections x 100 concurrent streams,
# 320-byte payloads, spread over many device tokens. Prints one line per mode.
set -euo pipefail
requests=${1:-300000}
tokens=${2:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v h2load >/dev/null || { echo "h2load is missing: apt-get install -y nghttp2-client" >&2; exit 1; }

swift build -c release --product apns-emulator --package-path "$root" >&2
binary="$root/.build/release/apns-emulator"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# 320-byte JSON payload.
python3 - "$work/payload.json" <<'PY'
import json, sys
body = {"aps": {"alert": {"title": "Benchmark", "body": ""}, "badge": 1}}
base = len(json.dumps(body, separators=(",", ":")))
body["aps"]["alert"]["body"] = "x" * (320 - base)
text = json.dumps(body, separators=(",", ":"))
assert len(text) == 320, len(text)
open(sys.argv[1], "w").write(text)
PY

port=22197
admin=28197
for i in $(seq 1 "$tokens"); do printf 'https://127.0.0.1:%d/3/device/%064x\n' "$port" "$i"; done > "$work/uris.txt"

for mode in durable relaxed; do
  data="$work/data-$mode"
  "$binary" serve --durability "$mode" --data-dir "$data" --certs-dir "$work/certs" \
    --http2-port "$port" --admin-port "$admin" --device-port 0 --gateway-port 0 --feedback-port 0 --log-level warning > "$work/serve-$mode.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q "HTTP/2 provider API on" "$work/serve-$mode.log" && break; sleep 0.1; done
  if ! kill -0 "$pid" 2>/dev/null; then echo "the emulator did not start:" >&2; cat "$work/serve-$mode.log" >&2; exit 1; fi
  # A short warm-up, then the measured run.
  h2load -c 4 -m 100 -n 20000 -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris.txt" > /dev/null
  h2load -c 4 -m 100 -n "$requests" -d "$work/payload.json" -H 'apns-topic: com.example.app' \
    -i "$work/uris.txt" > "$work/h2load-$mode.txt"
  kill -TERM "$pid"
  wait "$pid" || true
  rate=$(awk '/^finished in/ {print $4}' "$work/h2load-$mode.txt")
  codes=$(grep '^status codes:' "$work/h2load-$mode.txt" | sed 's/status codes: //')
  latency=$(awk '/^time for request:/ {print "mean " $6 ", max " $5}' "$work/h2load-$mode.txt")
  printf '%-8s %10s notifications/s accepted   (%d requests, %s; request time %s)\n' "$mode" "$rate" "$requests" "$codes" "$latency"
done
