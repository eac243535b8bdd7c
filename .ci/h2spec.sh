#!/bin/sh
# h2spec against the emulator's HTTP/2 provider port: builds h2spec 2.x from its public source
# (github.com/summerwind/h2spec, a checkout given as H2SPEC_SOURCE) with Debian's Go in GOPATH
# mode and Debian's golang-*-dev packages, starts the emulator on free ports and runs every case.
# Prints h2spec's summary ("146 tests, 146 passed" as of 2026-11-26).
#
#   apt-get install golang-go golang-github-spf13-cobra-dev golang-golang-x-net-dev golang-github-fatih-color-dev
#   git clone https://github.com/summerwind/h2spec /tmp/h2spec-src
#   H2SPEC_SOURCE=/tmp/h2spec-src .ci/h2spec.sh [path/to/apns-emulator]
set -eu
# shellcheck source=lib/wait.sh
. "$(dirname "$0")/lib/wait.sh"
binary=${1:-.build/debug/apns-emulator}
source=${H2SPEC_SOURCE:?set H2SPEC_SOURCE to a checkout of github.com/summerwind/h2spec}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/gopath/src/github.com/summerwind"
cp -r "$source" "$work/gopath/src/github.com/summerwind/h2spec"
rm -f "$work/gopath/src/github.com/summerwind/h2spec/go.mod" "$work/gopath/src/github.com/summerwind/h2spec/go.sum"
(cd "$work/gopath/src/github.com/summerwind/h2spec" &&
    GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOCACHE="$work/cache" GOFLAGS=-mod=mod \
        go build -o "$work/h2spec" ./cmd/h2spec)
"$binary" serve --host 127.0.0.1 --http2-port 0 --gateway-port 0 --feedback-port 0 --device-port 0 \
    --channels-port 0 --web-push-port 0 --production-http2-port 0 --admin-port 0 --data-dir "$work/data" --certs-dir "$work/certs" \
    --ports-file "$work/ports.json" >"$work/emulator.log" 2>&1 &
pid=$!
wait_for 60 "the emulator's ports file (its log: $work/emulator.log)" file_filled "$work/ports.json" || { cat "$work/emulator.log" >&2; exit 1; }
port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["http2"])' "$work/ports.json")
# h2spec's requests are GET / with no body: the emulator answers each (405 or 404 with a reason),
# which is all the HTTP/2 cases need. -t: TLS, -k: the emulator's CA is not the system's.
"$work/h2spec" -h 127.0.0.1 -p "$port" -t -k -o 5 | tail -n 4
