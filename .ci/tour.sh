#!/usr/bin/env bash
# The README's five-minute tour, run for real: the emulator (on free ports, in a directory of its
# own), a phone that says yes to notifications, a push it shows, a push APNs refuses, the wait for
# what arrived, and the web inbox in headless Chromium, whose picture is the README's
# (docs/images/inbox.png). Fails, saying which, when a step does not answer what the README shows.
# Usage: .ci/tour.sh BINARY [PICTURE]   (PICTURE default: .ci/artifacts/tour/inbox.png)
set -euo pipefail
# shellcheck source=lib/wait.sh
. "$(dirname "$0")/lib/wait.sh"
repo=$(realpath "$(dirname "$0")/..")
binary=$(realpath "$1")
picture=$(realpath -m "${2:-.ci/artifacts/tour/inbox.png}")
mkdir -p "$(dirname "$picture")"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; [ -n "${TOUR_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"

fail() {
  echo "tour: $*" >&2
  exit 1
}

"$binary" serve --http2-port 0 --admin-port 0 --device-port 0 --gateway-port 0 --feedback-port 0 --channels-port 0 --web-push-port 0 --production-http2-port 0 \
  --ports-file ports.json >serve.log 2>&1 &
wait_for 60 "the emulator's ports file (its log: $work/serve.log)" file_filled ports.json
port() { python3 -c "import json, sys; print(json.load(open('ports.json'))[sys.argv[1]])" "$1"; }
export APNS_EMULATOR_HTTP2_PORT APNS_EMULATOR_DEVICE_PORT
APNS_EMULATOR_HTTP2_PORT=$(port http2)
APNS_EMULATOR_DEVICE_PORT=$(port device)
admin="http://127.0.0.1:$(port admin)"

# A phone with the app installed, allowing alerts, sounds and badges; its first line is the token.
mkfifo phone-input
"$binary" device --topic com.example.app --authorize alert,sound,badge --device-id tour-phone \
  <phone-input >phone.out 2>phone.err &
exec 3>phone-input
wait_for 30 "the phone's token (its errors: $work/phone.err)" file_filled phone.out
token=$(head -n 1 phone.out)

"$binary" push --token "$token" --topic com.example.app \
  '{"aps":{"alert":{"title":"Order shipped","body":"Arrives Tuesday"},"sound":"default","badge":1}}' >shipped.out ||
  fail "the push was refused: $(cat shipped.out)"
grep -q '^200' shipped.out || fail "the push did not answer 200: $(cat shipped.out)"
if "$binary" push --token "$token" --topic com.example.app --priority 7 '{"aps":{"alert":"Hi"}}' >refused.out; then
  fail "priority 7 was accepted: $(cat refused.out)"
fi
grep -q '400 BadPriority' refused.out || fail "priority 7 did not answer 400 BadPriority: $(cat refused.out)"
"$binary" push --token "$token" --topic com.example.app --type background --priority 5 \
  '{"aps":{"content-available":1},"orderId":"A-1042"}' >background.out || fail "the background push was refused"

# What arrived, as a test asks for it; then the phone's own line for it.
curl -sf "$admin/api/v1/notifications/wait?token=$token&status=delivered&timeout=30s" >wait.json ||
  fail "no delivered notification within 30 s"
grep -q '"Order shipped"' wait.json || fail "the wait answered something else: $(cat wait.json)"
wait_for 30 "the phone's line for the push" log_says phone.out '"Order shipped"'
grep '"Order shipped"' phone.out | grep -q '"shown":true' || fail "the phone did not show it: $(grep 'Order shipped' phone.out)"

# The user taps it: the response is in the journal item and the inbox.
short=$(grep '"Order shipped"' phone.out | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uniqueId"])')
echo "tap $short" >&3
wait_for 30 "the phone's response line" log_says phone.out '"response"'

wait_for 30 "three journal items" bash -c \
  "curl -sf '$admin/api/v1/notifications?token=$token' | python3 -c 'import json, sys; sys.exit(len(json.load(sys.stdin)[\"items\"]) < 3)'"
python=${APNS_EMULATOR_PYTHON:-$repo/.venv/bin/python3}
(cd "$repo" && timeout 120 "$python" Tests/ThirdParty/tour_picture.py "$admin" "$picture") ||
  fail "the inbox did not show the tour's pushes in Chromium"
file_filled "$picture" || fail "no picture at $picture"
echo "tour: every step answered as the README says; the inbox: $picture"
