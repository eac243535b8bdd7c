#!/usr/bin/env python3
"""Memory the emulator spends per idle connection, HTTP/2 and device.

    .ci/idle-memory.py [connections=500] [binary=.build/release/apns-emulator]

Starts the emulator (relaxed, ports on 127.0.0.1), reads its resident set size from
/proc/<pid>/status, opens `connections` HTTP/2 provider connections (TLS, ALPN h2, the client
preface and SETTINGS exchanged, then silent), reads it again, then as many device connections
(TLS, hello answered by welcome, then silent), and prints the growth per connection. The
clients live in this process, so only the emulator's own memory is counted.
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
import time

import h2.config
import h2.connection

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 500
BINARY = sys.argv[2] if len(sys.argv) > 2 else ".build/release/apns-emulator"
HTTP2_PORT, ADMIN_PORT, DEVICE_PORT = 23197, 29197, 25223


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def settle(pid):
    """The RSS once it has stopped moving (allocators return memory lazily)."""
    last = rss_kib(pid)
    for _ in range(20):
        time.sleep(0.25)
        now = rss_kib(pid)
        if abs(now - last) < 64:
            return now
        last = now
    return last


def tls(context, port, alpn=None):
    raw = socket.create_connection(("127.0.0.1", port))
    return context.wrap_socket(raw, server_hostname="localhost")


def http2_connection(context):
    sock = tls(context, HTTP2_PORT)
    assert sock.selected_alpn_protocol() == "h2", sock.selected_alpn_protocol()
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    sock.settimeout(5)
    conn.receive_data(sock.recv(65536))  # the server's SETTINGS (and window update)
    sock.sendall(conn.data_to_send())  # SETTINGS ACK
    return sock


def device_connection(context, n):
    sock = tls(context, DEVICE_PORT)
    device_id = f"idle-{n}".encode()
    body = bytes([1]) + struct.pack(">H", len(device_id)) + device_id
    sock.sendall(struct.pack(">IB", 1 + len(body), 0x01) + body)
    sock.settimeout(5)
    reply = sock.recv(64)
    assert reply[4] == 0x81, reply  # welcome
    return sock


def main():
    work = tempfile.mkdtemp(prefix="apns-idle-")
    atexit.register(shutil.rmtree, work, True)
    args = [BINARY, "serve", "--durability", "relaxed", "--data-dir", f"{work}/data", "--certs-dir", f"{work}/certs",
            "--http2-port", str(HTTP2_PORT), "--admin-port", str(ADMIN_PORT), "--device-port", str(DEVICE_PORT),
            "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--production-http2-port", "0", "--log-level", "warning"]
    emulator = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in emulator.stdout:
            if "device listener on" in line:
                break
        time.sleep(0.5)
        context = ssl.create_default_context(cafile=f"{work}/certs/ca.pem")
        context.set_alpn_protocols(["h2"])
        device_context = ssl.create_default_context(cafile=f"{work}/certs/ca.pem")
        # One of each first, so that what every connection shares (TLS contexts, pools) is counted once.
        keep = [http2_connection(context), device_connection(device_context, -1)]
        before = settle(emulator.pid)
        keep += [http2_connection(context) for _ in range(COUNT)]
        after_http2 = settle(emulator.pid)
        keep += [device_connection(device_context, n) for n in range(COUNT)]
        after_devices = settle(emulator.pid)
        print(f"{COUNT} idle HTTP/2 connections: {(after_http2 - before) / COUNT:.1f} KiB each "
              f"(RSS {before} -> {after_http2} KiB)")
        print(f"{COUNT} idle device connections: {(after_devices - after_http2) / COUNT:.1f} KiB each "
              f"(RSS {after_http2} -> {after_devices} KiB)")
        for sock in keep:
            sock.close()
    finally:
        emulator.terminate()
        emulator.wait(timeout=30)


if __name__ == "__main__":
    main()
