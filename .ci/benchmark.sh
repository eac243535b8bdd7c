#!/usr/bin/env bash
# Accepted notifications per second over the HTTP/2 provider API.
#
#   .ci/benchmark.sh [requests] [tokens]     durable and relaxed, --auth none
#   .ci/benchmark.sh auth [rounds] [requests] relaxed, --auth none and --auth strict with a provider
#                                             token, alternating, with the medians and their ratio
#   .ci/benchmark.sh reference [rounds] [requests]
#                                             nghttpd (nghttp2's C server: a static 200 for every
#                                             token path), relaxed and durable, alternating round by
#                                             round, with each median and its ratio to nghttpd;
#                                             also the bare stacks (APNsBenchmark floor: swift-nio,
#                                             -ssl and -http2 answering 200, nothing else; and
#                                             floor-nghttp2, the same with libnghttp2 for HTTP/2),
#                                             to show how much of the gap the libraries set; every
#                                             server's CPU time (user + system, /proc) per 100k
#                                             requests, which holds however busy the machine is
#   .ci/benchmark.sh peers [rounds] [requests]
#                                             reference, with Pushy's MockApnsServer (the Java mock;
#                                             PUSHY_MOCK=path of the run script .ci/pushy-mock.sh
#                                             builds) in each round, and the emulator's rate and CPU
#                                             against it; also the emulator's own work per
#                                             notification over the nghttp2 floor, in microseconds
#   .ci/benchmark.sh compare [BINARY|baseline] [rounds] [requests]
#                                             this build against another build's apns-emulator
#                                             (by default the pinned baseline build that
#                                             docs/benchmarks.md names, built once into
#                                             .build/baseline-<commit>), durable and relaxed,
#                                             alternating (which goes first swaps each round), with
#                                             nghttpd in every round when it is installed: the
#                                             medians, their ratios, and each build's CPU per
#                                             request as a multiple of nghttpd's (the figure of
#                                             record); MODES=durable or MODES=relaxed runs one mode
#
# THIS=path runs that apns-emulator as this build instead of building the tree's (to compare two
# earlier builds with each other).
#
# Every line gives the server's CPU time (user + system from /proc/PID/stat, the measured run
# only) per 100,000 requests.
#
# Builds the release binary, then for each run starts a fresh emulator on its own data directory
# and drives it with h2load over TLS: 4 connections x 100 concurrent streams, 320-byte payloads,
# spread over many device tokens. Prints one line per run.
set -euo pipefail
# shellcheck source=lib/wait.sh
. "$(dirname "$0")/lib/wait.sh"
if [ "${1:-}" = auth ]; then
  suite=auth; rounds=${2:-3}; requests=${3:-300000}; tokens=10000
elif [ "${1:-}" = reference ] || [ "${1:-}" = peers ]; then
  suite=reference; rounds=${2:-3}; requests=${3:-300000}; tokens=10000
  if [ "$1" = peers ]; then
    [ -x "${PUSHY_MOCK:-}" ] || { echo "peers needs PUSHY_MOCK=<the run script .ci/pushy-mock.sh builds>" >&2; exit 1; }
  fi
  command -v nghttpd >/dev/null || { echo "nghttpd is missing: apt-get install -y nghttp2-server" >&2; exit 1; }
elif [ "${1:-}" = compare ]; then
  suite=compare; other=${2:-baseline}; rounds=${3:-3}; requests=${4:-300000}; tokens=10000
  if [ "$other" = baseline ]; then
    other=$("$(dirname "$0")/baseline.sh") || exit 1
  fi
  [ -x "$other" ] || { echo "$other is not an executable" >&2; exit 1; }
else
  suite=durability; requests=${1:-300000}; tokens=${2:-10000}
fi
root=$(cd "$(dirname "$0")/.." && pwd)
command -v h2load >/dev/null || { echo "h2load is missing: apt-get install -y nghttp2-client" >&2; exit 1; }

if [ -n "${THIS:-}" ]; then
  [ -x "$THIS" ] || { echo "THIS=$THIS is not an executable" >&2; exit 1; }
  binary=$THIS
else
  swift build -c release --product apns-emulator --package-path "$root" >&2
  binary="$root/.build/release/apns-emulator"
fi
if [ "$suite" = reference ]; then
  swift build -c release --product APNsBenchmark --package-path "$root" >&2
fi
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# 320-byte JSON payload.
python3 "$root/.ci/payload.py" "$work/payload.json"

port=22197
admin=28197
for i in $(seq 1 "$tokens"); do printf 'https://127.0.0.1:%d/3/device/%064x\n' "$port" "$i"; done > "$work/uris.txt"

# A provider key for the strict runs, and a token signed with it, as a provider would send.
"$binary" keys create --team-id BENCH12345 --key-id BENCHKEY01 --keys "$work/keys" --out "$work" > /dev/null
jwt=$("$binary" keys token "$work/AuthKey_BENCHKEY01.p8" --team-id BENCH12345)

# ticks PID: the process's user + system CPU time so far, in clock ticks.
hz=$(getconf CLK_TCK)
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
# cpu_per_100k TICKS REQUESTS: seconds of CPU per 100,000 requests.
cpu_per_100k() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz / n * 100000 }'; }

# run MODE AUTH LABEL [BINARY]: one emulator, a warm-up, the measured run; prints a line, sets $rate.
run() {
  local mode=$1 auth=$2 label=$3 binary=${4:-$binary} run_id=$((++runs))
  local data="$work/data-$run_id" log="$work/serve-$run_id.log" out="$work/h2load-$run_id.txt"
  local headers=(-H 'apns-topic: com.example.app')
  [ "$auth" = strict ] && headers+=(-H "authorization: bearer $jwt")
  # Builds from before broadcast push (compare) have no channels port to move out of the way.
  local ports=(--device-port 0 --gateway-port 0 --feedback-port 0)
  "$binary" serve --help 2>&1 | grep -q -- --channels-port && ports+=(--channels-port 0)
  "$binary" serve --help 2>&1 | grep -q -- --web-push-port && ports+=(--web-push-port 0)
  "$binary" serve --help 2>&1 | grep -q -- --production-http2-port && ports+=(--production-http2-port 0)
  # shellcheck disable=SC2086 # $serve_options is word-split on purpose.
  "$binary" serve --durability "$mode" --auth "$auth" --keys "$work/keys" --data-dir "$data" --certs-dir "$work/certs" ${serve_options:-} \
    --http2-port "$port" --admin-port "$admin" "${ports[@]}" > "$log" 2>&1 &
  local pid=$!
  wait_for 30 "the emulator's HTTP/2 port (its log: $log)" log_says "$log" "HTTP/2 provider API on" || { cat "$log" >&2; exit 1; }
  h2load -c 4 -m 100 -n 20000 -d "$work/payload.json" "${headers[@]}" -i "$work/uris.txt" > /dev/null
  local before
  before=$(ticks "$pid")
  # shellcheck disable=SC2086 # $shape is word-split on purpose: h2load's -c and -m.
  h2load $shape -n "${count:-$requests}" -d "$work/payload.json" "${headers[@]}" -i "$work/uris.txt" > "$out"
  cpu=$(cpu_per_100k $(($(ticks "$pid") - before)) "${count:-$requests}")
  # Peak resident set, and at the end how much of it is the emulator's own memory (anonymous)
  # and how much LMDB's file pages mapped in (the stored notifications, shared with the page cache).
  peak_rss=$(awk '/^VmHWM:/ {h = $2} /^RssAnon:/ {a = $2} /^RssFile:/ {f = $2} END {printf "%.0f (own %.0f, store file %.0f)", h / 1024, a / 1024, f / 1024}' "/proc/$pid/status")
  kill -TERM "$pid"
  wait "$pid" || true
  rate=$(awk '/^finished in/ {print $4}' "$out")
  local codes latency
  codes=$(grep '^status codes:' "$out" | sed 's/status codes: //')
  latency=$(awk '/^time for request:/ {print "mean " $6 ", max " $5}' "$out")
  mean_ms=$(awk '/^time for request:/ {print $6}' "$out")
  max_ms=$(awk '/^time for request:/ {print $5}' "$out")
  printf '%-16s %10s notifications/s accepted   (CPU %s s per 100k; %d requests, %s; request time %s; peak RSS %s MiB)\n' \
    "$label" "$rate" "$cpu" "${count:-$requests}" "$codes" "$latency" "$peak_rss"
}
runs=0
shape="-c 4 -m 100"

# reference LABEL: nghttpd serving an empty file for every token path, driven as the emulator is.
reference() {
  local label=$1 run_id=$((++runs))
  local out="$work/h2load-$run_id.txt"
  if [ ! -d "$work/docroot" ]; then
    mkdir -p "$work/docroot/3/device"
    (cd "$work/docroot/3/device" && for i in $(seq 1 "$tokens"); do : > "$(printf '%064x' "$i")"; done)
    [ -f "$work/certs/server.pem" ] || "$binary" certs generate --out "$work/certs" > /dev/null
  fi
  nghttpd -d "$work/docroot" "$port" "$work/certs/server-key.pem" "$work/certs/server.pem" > "$work/nghttpd-$run_id.log" 2>&1 &
  local pid=$!
  wait_for 30 "nghttpd on port $port" port_open "$port"
  answered "$label" "$pid" "$out"
}

# answered LABEL PID OUT: a warm-up and the measured run against the server PID (not the
# emulator), which is stopped after; prints a line, sets $rate.
answered() {
  local label=$1 pid=$2 out=$3
  h2load -c 4 -m 100 -n "${warmup:-20000}" -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris.txt" > /dev/null
  local before
  before=$(ticks "$pid")
  # shellcheck disable=SC2086 # $shape is word-split on purpose: h2load's -c and -m.
  h2load $shape -n "${count:-$requests}" -d "$work/payload.json" -H 'apns-topic: com.example.app' -i "$work/uris.txt" > "$out"
  cpu=$(cpu_per_100k $(($(ticks "$pid") - before)) "${count:-$requests}")
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  rate=$(awk '/^finished in/ {print $4}' "$out")
  mean_ms=$(awk '/^time for request:/ {print $6}' "$out")
  printf '%-16s %10s requests/s answered       (CPU %s s per 100k; %d requests, %s; request time mean %s)\n' "$label" "$rate" "$cpu" "${count:-$requests}" \
    "$(grep '^status codes:' "$out" | sed 's/status codes: //')" "$mean_ms"
}

# pushy LABEL: Pushy's MockApnsServer (accept-all, two event-loop threads), driven as the emulator is.
pushy() {
  local label=$1 run_id=$((++runs))
  local out="$work/h2load-$run_id.txt" log="$work/pushy-$run_id.log"
  "$PUSHY_MOCK" "$port" "$work/certs/server.pem" "$work/certs/server-key.pem" > "$log" 2>&1 &
  local pid=$!
  wait_for 60 "Pushy's mock (its log: $log)" log_says "$log" "pushy mock on" || { cat "$log" >&2; exit 1; }
  # The JVM compiles its hot code as it runs: 300,000 requests first, so the measured run sees
  # Pushy at its best (after 20,000 it was 20-30% slower and spent more CPU).
  warmup=300000 answered "$label" "$pid" "$out"
}

# stack KIND LABEL: a bare HTTP/2 server (APNsBenchmark floor: swift-nio-http2; floor-nghttp2:
# libnghttp2), driven as the emulator is.
stack() {
  local kind=$1 label=$2 run_id=$((++runs))
  local out="$work/h2load-$run_id.txt" log="$work/floor-$run_id.log"
  "$root/.build/release/APNsBenchmark" "$kind" "$port" "$work/certs/server-key.pem" "$work/certs/server.pem" > "$log" 2>&1 &
  local pid=$!
  wait_for 30 "the $kind floor (its log: $log)" log_says "$log" "stack floor on" || { cat "$log" >&2; exit 1; }
  answered "$label" "$pid" "$out"
}

if [ "$suite" = durability ]; then
  for mode in durable relaxed; do run "$mode" none "$mode"; done
  exit 0
fi

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [ "$suite" = reference ]; then
  ref=(); floor=(); floor2=(); relaxed=(); durable=(); java=()
  ref_cpu=(); floor_cpu=(); floor2_cpu=(); relaxed_cpu=(); durable_cpu=(); java_cpu=()
  for round in $(seq 1 "$rounds"); do
    reference "nghttpd #$round"; ref+=("$rate"); ref_cpu+=("$cpu")
    if [ -n "${PUSHY_MOCK:-}" ]; then pushy "pushy mock #$round"; java+=("$rate"); java_cpu+=("$cpu"); fi
    stack floor "stack floor #$round"; floor+=("$rate"); floor_cpu+=("$cpu")
    stack floor-nghttp2 "nghttp2 floor #$round"; floor2+=("$rate"); floor2_cpu+=("$cpu")
    run relaxed none "relaxed #$round"; relaxed+=("$rate"); relaxed_cpu+=("$cpu")
    run durable none "durable #$round"; durable+=("$rate"); durable_cpu+=("$cpu")
  done
  m_ref=$(median "${ref[@]}"); m_floor=$(median "${floor[@]}"); m_relaxed=$(median "${relaxed[@]}"); m_durable=$(median "${durable[@]}")
  awk -v n="$m_ref" -v f="$m_floor" -v r="$m_relaxed" -v d="$m_durable" 'BEGIN {
    printf "median nghttpd %.0f/s; relaxed %.0f/s = %.3fx nghttpd; durable %.0f/s = %.3fx nghttpd\n", n, r, r / n, d, d / n
    printf "median stack floor %.0f/s = %.3fx nghttpd; relaxed is %.0f%% of the floor, durable %.0f%%\n", f, f / n, 100 * r / f, 100 * d / f }'
  # Medians of rate and of CPU per 100k, each against nghttpd's.
  m_ref_cpu=$(median "${ref_cpu[@]}")
  printf '%-22s %12s %14s %10s %12s\n' server "requests/s" "CPU s/100k" "rate vs" "CPU vs"
  rows=("nghttpd:ref" "stack floor (nio-http2):floor" "nghttp2 floor:floor2" "relaxed:relaxed" "durable:durable")
  [ -n "${PUSHY_MOCK:-}" ] && rows+=("Pushy MockApnsServer:java")
  for row in "${rows[@]}"; do
    name=${row%%:*} var=${row##*:}
    eval "rates=(\"\${${var}[@]}\")"; eval "cpus=(\"\${${var}_cpu[@]}\")"
    # shellcheck disable=SC2154 # rates and cpus are set by the evals above.
    awk -v name="$name" -v r="$(median "${rates[@]}")" -v c="$(median "${cpus[@]}")" -v n="$m_ref" -v nc="$m_ref_cpu" \
      'BEGIN { printf "%-22s %12.0f %14.2f %9.3fx %11.2fx\n", name, r, c, r / n, (nc > 0 ? c / nc : 0) }'
  done
  awk -v c="$(median "${relaxed_cpu[@]}")" -v f="$(median "${floor2_cpu[@]}")" \
    'BEGIN { printf "own work over the nghttp2 floor, relaxed: %.1f us per notification (%.2f - %.2f s CPU per 100k)\n", (c - f) * 10, c, f }'
  if [ -n "${PUSHY_MOCK:-}" ]; then
    awk -v j="$(median "${java[@]}")" -v jc="$(median "${java_cpu[@]}")" -v r="$m_relaxed" -v rc="$(median "${relaxed_cpu[@]}")" -v d="$m_durable" \
      'BEGIN { printf "against Pushy'"'"'s mock: relaxed %.2fx its rate at %.2fx its CPU per request; durable %.2fx its rate\n", r / j, rc / jc, d / j }'
  fi
  # One request at a time (nghttpd, then relaxed), then few connections with many streams each (relaxed).
  shape="-c 1 -m 1" count=20000 reference "nghttpd -c1 -m1"
  reference_mean=$mean_ms
  shape="-c 1 -m 1" count=20000 run relaxed none "relaxed -c1 -m1"
  echo "one at a time: mean request time $mean_ms against nghttpd's $reference_mean = $(awk -v a="$mean_ms" -v b="$reference_mean" 'function us(t) { return t ~ /ms$/ ? t * 1000 : t + 0 } BEGIN { printf "%.2fx", us(a) / us(b) }')"
  shape="-c 1 -m 1" count=20000 serve_options="--writer-spin 300" run relaxed none "relaxed -c1 -m1 spin"
  echo "one at a time with --writer-spin 300: mean request time $mean_ms"
  shape="-c 2 -m 1000" run relaxed none "relaxed -c2 -m1000"
  awk -v a="$rate" -v r="$m_relaxed" -v m="$max_ms" 'BEGIN { printf "-c2 -m1000: %.0f/s = %.2fx the -c4 -m100 median; max request time %s\n", a, a / r, m }'
  exit 0
fi

if [ "$suite" = compare ]; then
  for mode in ${MODES:-durable relaxed}; do
    this=(); that=(); this_cpu=(); that_cpu=(); ref_cpu=()
    for round in $(seq 1 "$rounds"); do
      # nghttpd in the same round: CPU per request as a multiple of its CPU holds across machines.
      if command -v nghttpd >/dev/null; then reference "nghttpd #$round"; ref_cpu+=("$cpu"); fi
      # The first of a pair meets a different machine (page cache, the disk's queue) than the
      # second: the order swaps every round.
      if [ $((round % 2)) = 1 ]; then
        run "$mode" none "other $mode #$round" "$other"; that+=("$rate"); that_cpu+=("$cpu")
        run "$mode" none "this $mode #$round"; this+=("$rate"); this_cpu+=("$cpu")
      else
        run "$mode" none "this $mode #$round"; this+=("$rate"); this_cpu+=("$cpu")
        run "$mode" none "other $mode #$round" "$other"; that+=("$rate"); that_cpu+=("$cpu")
      fi
    done
    m_this=$(median "${this[@]}"); m_that=$(median "${that[@]}")
    c_this=$(median "${this_cpu[@]}"); c_that=$(median "${that_cpu[@]}")
    awk -v m="$mode" -v a="$m_that" -v b="$m_this" -v ca="$c_that" -v cb="$c_this" 'BEGIN {
      printf "median %s: other %.0f/s, this %.0f/s: this is %.1f%% of other; CPU per 100k other %.2f s, this %.2f s (%.1f%%)\n", m, a, b, 100 * b / a, ca, cb, 100 * cb / ca }'
    if [ ${#ref_cpu[@]} -gt 0 ]; then
      awk -v m="$mode" -v n="$(median "${ref_cpu[@]}")" -v ca="$c_that" -v cb="$c_this" 'BEGIN {
        printf "CPU per request x nghttpd'"'"'s (%.2f s per 100k), %s: other %.2fx, this %.2fx\n", n, m, ca / n, cb / n }'
    fi
  done
  exit 0
fi

none=(); strict=()
for round in $(seq 1 "$rounds"); do
  run relaxed none "none #$round"; none+=("$rate")
  run relaxed strict "strict+token #$round"; strict+=("$rate")
done
m_none=$(median "${none[@]}"); m_strict=$(median "${strict[@]}")
awk -v a="$m_none" -v b="$m_strict" 'BEGIN { printf "median: none %.0f/s, strict+token %.0f/s: strict is %.1f%% of none\n", a, b, 100 * b / a }'
