#!/usr/bin/env bash
# A load test as a user runs one: serve with every default (durable, storage policy latest: one
# notification per app while the device is offline, a 4 GiB map, log level info), h2load at full rate over TLS (4 connections x 100
# streams, 320-byte payloads) to 10,000 tokens no device holds, for DURATION seconds. Prints what
# a load tester meets: requests answered by status, the rate, the rate in the first and the last
# minute (from serve's summary lines, one per 5 s) and their ratio, the server's CPU per 100k, how
# many notifications a newer one replaced and how many the full store dropped (Dropped - Storage
# Full), the store's and the log's size. SERVE_OPTIONS adds serve flags (--storage-policy all).
#
#   .ci/soak.sh [seconds=300] [binary=.build/release/apns-emulator]
set -euo pipefail
# shellcheck source=lib/wait.sh
. "$(dirname "$0")/lib/wait.sh"
duration=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${2:-$root/.build/release/apns-emulator}
command -v h2load >/dev/null || { echo "h2load is missing: apt-get install -y nghttp2-client" >&2; exit 1; }
[ -x "$binary" ] || swift build -c release --product apns-emulator --package-path "$root" >&2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
python3 "$root/.ci/payload.py" "$work/payload.json"
port=23197
admin=29197
for i in $(seq 1 10000); do printf 'https://127.0.0.1:%d/3/device/%064x\n' "$port" "$i"; done > "$work/uris.txt"

"$binary" serve --data-dir "$work/data" --certs-dir "$work/certs" --http2-port "$port" --admin-port "$admin" \
  --device-port 0 --gateway-port 0 --feedback-port 0 --channels-port 0 --web-push-port 0 --production-http2-port 0 ${SERVE_OPTIONS:-} > "$work/serve.log" 2>&1 &
pid=$!
wait_for 30 "the emulator's HTTP/2 port (its log: $work/serve.log)" log_says "$work/serve.log" "HTTP/2 provider API on" ||
  { cat "$work/serve.log" >&2; exit 1; }
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
before=$(ticks "$pid")
h2load -c 4 -m 100 -D "$duration" -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris.txt" > "$work/h2load.txt"
after=$(ticks "$pid")
requests=$(awk '/^requests:/ { print $4 }' "$work/h2load.txt")
statuses=$(grep '^status codes:' "$work/h2load.txt")
rate=$(awk '/^finished in/ { print $4 }' "$work/h2load.txt")
metrics=$(curl -s "http://127.0.0.1:$admin/metrics")
dropped=$(printf '%s\n' "$metrics" | awk '/^apns_notifications_dropped_total/ { s += $2 } END { print s + 0 }')
replaced=$(printf '%s\n' "$metrics" | awk '/^apns_notifications_replaced_total/ { s += $2 } END { print s + 0 }')
rss=$(awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || true
hz=$(getconf CLK_TCK)
echo "soak $(date -u +%Y-%m-%dT%H:%MZ), ${duration} s, every default: $requests requests at $rate; $statuses"
awk -v t="$((after - before))" -v n="$requests" -v hz="$hz" 'BEGIN { printf "server CPU %.2f s per 100k requests\n", t / hz / n * 100000 }'
echo "replaced by a newer one while offline: $replaced; dropped by the full store (Dropped - Storage Full): $dropped; RSS at the end $rss MiB"
# "in the last 5.0 s: 523,114 accepted (104,622/s)": the rate of each interval, the first and the
# last minute's (twelve intervals each, the last partial one left out).
grep -o 'accepted ([0-9,]*/s)' "$work/serve.log" | tr -d ',(/s)' | awk '{ print $2 }' > "$work/rates.txt"
awk '{ r[NR] = $1 } END {
  if (NR < 26) { print "too short for a first and a last minute"; exit }
  for (i = 2; i <= 13; i++) first += r[i]; for (i = NR - 12; i <= NR - 1; i++) last += r[i]
  printf "first minute %.0f/s, last minute %.0f/s: the last is %.2fx the first\n", first / 12, last / 12, last / first
}' "$work/rates.txt"
# Each whole minute's rate, to tell a fall that goes on from a step that then holds.
awk 'NR > 1 { sum += $1; if (++n == 12) { printf "%s%.0f", sep, sum / 12; sep = " "; sum = 0; n = 0 } } END { print "" }' "$work/rates.txt" |
  sed 's/^/each minute (per second): /'
echo "store $(du -sh "$work/data" | cut -f1) on disk; serve's log $(du -h "$work/serve.log" | cut -f1), $(wc -l < "$work/serve.log") lines"
grep -m 3 "store full" "$work/serve.log" || true
