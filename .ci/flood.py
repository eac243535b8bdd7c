#!/usr/bin/env python3
"""What a flooding HTTP/2 client costs the emulator: resident memory while it floods.

    .ci/flood.py [mebibytes=1024] [binary=.build/release/apns-emulator]

Starts the emulator, then runs two floods, each on its own connection, sending up to
`mebibytes` without reading: a CONTINUATION flood (HEADERS without END_HEADERS, then endless
CONTINUATION frames) and a flood after a connection error (an invalid PING, then PINGs). Prints
for each how much the client could send before the emulator closed the connection, and the
emulator's largest resident set size meanwhile, sampled every 20 ms from /proc/<pid>/status.
"""
import atexit
import os
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time

MEBIBYTES = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
BINARY = sys.argv[2] if len(sys.argv) > 2 else ".build/release/apns-emulator"
HTTP2_PORT, ADMIN_PORT = 23297, 29297


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def flood(ca, first, chunk):
    """Sends `first`, then `chunk` again and again; returns the bytes sent before the server closed."""
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(["h2"])
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", HTTP2_PORT)), server_hostname="localhost")
    sock.settimeout(10)
    sent = 0
    try:
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(0x4, 0, 0) + first)
        while sent < MEBIBYTES << 20:
            sock.sendall(chunk)
            sent += len(chunk)
    except (OSError, ssl.SSLError):
        pass
    finally:
        sock.close()
    return sent


def measure(pid, ca, name, first, chunk):
    peak, stop = [rss_kib(pid)], threading.Event()
    before = peak[0]

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.time()
    sent = flood(ca, first, chunk)
    stop.set()
    sampler.join()
    print(f"{name}: sent {sent / (1 << 20):.1f} MiB in {time.time() - started:.1f} s before the close; "
          f"RSS {before} KiB before, at most {peak[0]} KiB (+{(peak[0] - before) / 1024:.1f} MiB)")


def main():
    work = tempfile.mkdtemp(prefix="apns-flood-")
    atexit.register(shutil.rmtree, work, True)
    args = [BINARY, "serve", "--durability", "relaxed", "--data-dir", f"{work}/data", "--certs-dir", f"{work}/certs",
            "--http2-port", str(HTTP2_PORT), "--admin-port", str(ADMIN_PORT), "--device-port", "0",
            "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--production-http2-port", "0"]
    emulator = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", HTTP2_PORT)).close()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(0.5)
        ca = f"{work}/certs/ca.pem"
        continuation = frame(0x9, 0, 1, b"\x00" * 16384)
        headers = frame(0x1, 0, 1, b"\x82\x87\x84")  # :method GET, :scheme https, :path / (indexed)
        measure(emulator.pid, ca, "CONTINUATION flood", headers, continuation * 16)
        ping = frame(0x6, 0, 0, b"\x00" * 8)
        measure(emulator.pid, ca, "flood after an invalid PING", frame(0x6, 0, 0, b"\x00" * 6), ping * 8192)
    finally:
        emulator.terminate()
        emulator.wait()


if __name__ == "__main__":
    main()
