#!/usr/bin/env python3
"""The journal over a large history: start-up with COUNT notifications retained, and query times.

usage: .ci/history-benchmark.py BINARY [COUNT] [TOKENS]

Fills a fresh store with COUNT notifications (h2load, relaxed, 320-byte payloads over TOKENS
device tokens; first a few marked ones, which end up oldest and in the journal's archive), stops
the emulator, then starts it again with the defaults a user runs and prints:
- how long until it answers /readyz, and its resident memory then (the journal's ring and archive,
  the store's pages it mapped in);
- p50, p99 and max of GET /api/v1/notifications for a filtered page (one token, 100 items), a page
  deep in the history (a cursor past most of it), the first page unfiltered, and a `q` search for
  text only the oldest hold, each over one kept-alive connection.
"""
import http.client
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

binary = os.path.abspath(sys.argv[1])
count = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
tokens = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp()
http2_port, admin_port = 23197, 29197


def serve(*options):
    log = open(os.path.join(work, "serve.log"), "a")
    process = subprocess.Popen(
        [binary, "serve", "--data-dir", os.path.join(work, "data"), "--certs-dir", os.path.join(work, "certs"),
         "--http2-port", str(http2_port), "--admin-port", str(admin_port), "--device-port", "0", "--gateway-port", "0",
         "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--production-http2-port", "0", *options],
        stdout=log, stderr=log)
    started = time.monotonic()
    deadline = started + 600
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit("the emulator stopped: see " + log.name)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=5)
            connection.request("GET", "/readyz")
            if connection.getresponse().status == 200:
                return process, time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.02)
    sys.exit("the emulator was not ready within 600 s")


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=300)


def rss_mib(pid):
    """Resident memory in MiB: all of it, the process's own (anonymous), and the store's file pages mapped in."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile"):
                fields[name] = int(value.split()[0]) / 1024
    return f"{fields.get('VmRSS', 0):.0f} MiB (own {fields.get('RssAnon', 0):.0f}, store file {fields.get('RssFile', 0):.0f})"


def timed(connection, path, times):
    """Each request's milliseconds, and the last answer's body."""
    spent = []
    body = b""
    for _ in range(times):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        spent.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            sys.exit(f"{path}: {response.status} {body[:200]!r}")
    return sorted(spent), body


def percentile(sorted_values, share):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


try:
    subprocess.run([sys.executable, os.path.join(root, ".ci", "payload.py"), os.path.join(work, "payload.json")], check=True)
    with open(os.path.join(work, "uris.txt"), "w") as uris:
        for index in range(1, tokens + 1):
            uris.write(f"https://127.0.0.1:{http2_port}/3/device/{index:064x}\n")
    process, _ = serve("--durability", "relaxed", "--log-level", "warning")
    with open(os.path.join(work, "marked.json"), "w") as marked:
        marked.write('{"aps":{"alert":"history-benchmark-marker"}}')
    subprocess.run(["h2load", "-n", "10", "-c", "1", "-m", "1", "-d", os.path.join(work, "marked.json"),
                    "-H", "apns-topic: com.example.app", f"https://127.0.0.1:{http2_port}/3/device/{1:064x}"],
                   check=True, stdout=subprocess.DEVNULL)
    filled = time.monotonic()
    subprocess.run(["h2load", "-n", str(count), "-c", "4", "-m", "100", "-d", os.path.join(work, "payload.json"),
                    "-H", "apns-topic: com.example.app", "-i", os.path.join(work, "uris.txt")],
                   check=True, stdout=subprocess.DEVNULL)
    print(f"filled with {count + 10:,} notifications over {tokens:,} tokens in {time.monotonic() - filled:.1f} s")
    stop(process)

    process, ready = serve()
    print(f"start with {count + 10:,} retained, all defaults: ready in {ready:.2f} s, RSS {rss_mib(process.pid)}")
    connection = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=600)
    token = f"{2:064x}"
    queries = [
        ("a filtered page (token=<one of them>, 100 items)", f"/api/v1/notifications?token={token}&limit=100", 200),
        ("the first page, unfiltered (100 items)", "/api/v1/notifications?limit=100", 200),
        ("a page deep in the history (cursor past 90%)", f"/api/v1/notifications?limit=100&cursor={count // 10}", 200),
        ("a filtered page with a status (status=queued&topic=...)", "/api/v1/notifications?status=queued&topic=com.example.app&limit=100", 200),
        ("a q search for what only the oldest hold", "/api/v1/notifications?q=history-benchmark-marker&limit=100", 20),
        ("q: two words (history-benchmark-marker benchmark)",
         "/api/v1/notifications?q=history-benchmark-marker%20benchmark&limit=100", 20),
        ("q: a field alone (token:<one of them>)", f"/api/v1/notifications?q=token:{token}&limit=100", 20),
    ]
    for label, path, times in queries:
        spent, body = timed(connection, path, times)
        total = body.split(b'"total":')[1].split(b",")[0].decode() if b'"total":' in body else "?"
        print(f"{label:58s} p50 {percentile(spent, 0.5):8.1f} ms  p99 {percentile(spent, 0.99):8.1f} ms  "
              f"max {spent[-1]:8.1f} ms  ({times} requests, total {total})")
    print(f"RSS after the queries: {rss_mib(process.pid)}")
    stop(process)
finally:
    shutil.rmtree(work, ignore_errors=True)
