"""Raw HTTP/2 frames against the emulator's provider port, for the h2spec 2.6.0 cases where HTTP/2
libraries differ (RFC 9113 sections 5.1, 5.4, 6.8, 6.10, 10.5.1).
Header blocks are encoded with hpack (PyPI); every other byte is written here by hand, so the
server sees exactly the frames a conformance tester sends.

usage: h2_conformance.py HOST PORT CA

Prints one JSON object: for each case, the frames the server sent back (type, stream, and the
error code, last stream or status where there is one) and whether it closed the connection.
"""
import json
import socket
import ssl
import struct
import sys
import time

import hpack

TOKEN = "ab" * 32


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


class Connection:
    def __init__(self, host, port, ca):
        context = ssl.create_default_context(cafile=ca)
        context.set_alpn_protocols(["h2"])
        self.socket = context.wrap_socket(socket.create_connection((host, port), timeout=10), server_hostname="localhost")
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.buffer = b""
        self.closed = False
        # Preface and an empty SETTINGS, then the ACK of the server's SETTINGS.
        self.send(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(0x4, 0, 0) + frame(0x4, 0x1, 0))

    def send(self, data):
        self.socket.sendall(data)

    def headers(self, extra=(), path="/3/device/" + TOKEN):
        fields = [(":method", "POST"), (":scheme", "https"), (":path", path), (":authority", "localhost"), ("apns-topic", "com.example.app")]
        return self.encoder.encode(fields + list(extra))

    def read(self, until, seconds=10):
        """Frames until `until(frames)` is true, the connection closes, or `seconds` pass."""
        frames = []
        deadline = time.time() + seconds
        while not self.closed and time.time() < deadline and not until(frames):
            while len(self.buffer) >= 9:
                length = int.from_bytes(self.buffer[:3], "big")
                if len(self.buffer) < 9 + length:
                    break
                kind, flags = self.buffer[3], self.buffer[4]
                stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
                payload = self.buffer[9:9 + length]
                self.buffer = self.buffer[9 + length:]
                frames.append(self.describe(kind, flags, stream, payload))
                if until(frames):
                    return frames
            self.socket.settimeout(max(0.05, deadline - time.time()))
            try:
                data = self.socket.recv(65536)
            except socket.timeout:
                continue
            except (ConnectionResetError, ssl.SSLError):
                data = b""
            if not data:
                self.closed = True
            self.buffer += data
        return frames

    def describe(self, kind, flags, stream, payload):
        if kind == 0x1:
            fields = dict(self.decoder.decode(payload))
            return {"type": "HEADERS", "stream": stream, "status": fields.get(":status"), "end": bool(flags & 0x1)}
        if kind == 0x0:
            return {"type": "DATA", "stream": stream, "body": payload.decode("utf-8", "replace"), "end": bool(flags & 0x1)}
        if kind == 0x3:
            return {"type": "RST_STREAM", "stream": stream, "code": int.from_bytes(payload, "big")}
        if kind == 0x4:
            settings = {int.from_bytes(payload[i:i + 2], "big"): int.from_bytes(payload[i + 2:i + 6], "big") for i in range(0, len(payload), 6)}
            return {"type": "SETTINGS", "ack": bool(flags & 1), "settings": settings}
        if kind == 0x7:
            return {"type": "GOAWAY", "last_stream": int.from_bytes(payload[:4], "big") & 0x7FFFFFFF, "code": int.from_bytes(payload[4:8], "big")}
        return {"type": kind, "stream": stream}


def answered(stream):
    """Until the response on `stream` is complete, or the stream is reset."""
    def check(frames):
        return any(f.get("stream") == stream and (f["type"] == "RST_STREAM" or f.get("end")) for f in frames)
    return check


def goaway(frames):
    return any(f["type"] == "GOAWAY" for f in frames)


def outcome(connection, frames):
    return {"frames": [f for f in frames if f["type"] not in ("SETTINGS", 0x8, 0x6)], "closed": connection.closed}


def run(case, host, port, ca):
    c = Connection(host, port, ca)
    body = frame(0x0, 0x1, 1, b'{"aps":{}}')
    if case == "settings":
        frames = c.read(lambda fs: any(f["type"] == "SETTINGS" and not f["ack"] for f in fs))
        return {"settings": next(f["settings"] for f in frames if f["type"] == "SETTINGS" and not f["ack"])}
    if case == "stream_error_then_request":
        # A forbidden connection-specific header fails its stream (RFC 9113 8.2.2); the next
        # request on the same connection is answered.
        c.send(frame(0x1, 0x4, 1, c.headers([("connection", "keep-alive")])) + body)
        first = c.read(answered(1))
        c.send(frame(0x1, 0x4, 3, c.headers()) + frame(0x0, 0x1, 3, b'{"aps":{}}'))
        return outcome(c, first + c.read(answered(3)))
    if case == "headers_on_half_closed":  # h2spec 5.1/6
        # The request ends with its DATA; the store has not answered it yet when a second HEADERS
        # (END_STREAM) arrives in the same write, so the stream is half-closed (remote).
        c.send(frame(0x1, 0x4, 1, c.headers()) + body + frame(0x1, 0x5, 1, c.headers()))
        frames = c.read(lambda fs: any(f["type"] == "RST_STREAM" for f in fs) or goaway(fs))
        if goaway(frames):
            return outcome(c, frames + c.read(lambda fs: False, seconds=10))
        c.send(frame(0x1, 0x4, 3, c.headers()) + frame(0x0, 0x1, 3, b'{"aps":{}}'))
        return outcome(c, frames + c.read(answered(3)))
    if case == "headers_after_reset":  # h2spec 5.1/9
        c.send(frame(0x1, 0x4, 1, c.headers()) + frame(0x3, 0, 1, struct.pack(">I", 0x8)) + frame(0x1, 0x5, 1, c.headers()))
        return outcome(c, c.read(lambda fs: False, seconds=10))
    if case == "headers_on_closed":  # h2spec 5.1/12
        c.send(frame(0x1, 0x4, 1, c.headers()) + body)
        frames = c.read(answered(1))
        c.send(frame(0x1, 0x5, 1, c.headers()))
        return outcome(c, frames + c.read(lambda fs: False, seconds=10))
    if case == "smaller_stream_id":  # h2spec 5.1.1/2: stream 5, then stream 3 (skipped, so closed)
        c.send(frame(0x1, 0x5, 5, c.headers()))
        c.send(frame(0x1, 0x5, 3, c.headers()))
        return outcome(c, c.read(lambda fs: False, seconds=10))
    if case == "invalid_ping":  # h2spec 5.4.1/1 and /2, after one answered request
        c.send(frame(0x1, 0x4, 1, c.headers()) + body)
        frames = c.read(answered(1))
        c.send(frame(0x6, 0, 3, b"\0" * 8))
        return outcome(c, frames + c.read(lambda fs: False, seconds=10))
    if case == "continuations":  # h2spec 6.10/1: HEADERS and two CONTINUATIONs, about 8.1 KB
        block = c.headers()
        first = c.encoder.encode([("x-dummy0", "x" * 4000)])
        second = c.encoder.encode([("x-dummy1", "x" * 4000)])
        c.send(frame(0x1, 0x1, 1, block) + frame(0x9, 0, 1, first) + frame(0x9, 0x4, 1, second))
        frames = c.read(answered(1))
        c.send(frame(0x1, 0x4, 3, c.headers()) + frame(0x0, 0x1, 3, b'{"aps":{}}'))
        return outcome(c, frames + c.read(answered(3)))
    if case == "header_bomb":  # RFC 9113 10.5.1: a 4 KB field once, then referenced nine times (1 byte each)
        c.send(frame(0x1, 0x5, 1, c.headers([("x-big", "x" * 4000)] * 10)))
        frames = c.read(answered(1))
        c.send(frame(0x1, 0x4, 3, c.headers()) + frame(0x0, 0x1, 3, b'{"aps":{}}'))
        return outcome(c, frames + c.read(answered(3)))
    if case == "rapid_reset":  # CVE-2023-44487: streams opened and reset at once, 1,100 of them in one write
        block = c.headers()
        burst = b"".join(frame(0x1, 0x4, n, block) + frame(0x3, 0, n, struct.pack(">I", 0x8)) for n in range(1, 2201, 2))
        c.send(burst)
        return outcome(c, c.read(lambda fs: False, seconds=10))
    raise SystemExit("unknown case " + case)


def main(argv):
    host, port, ca = argv[1], int(argv[2]), argv[3]
    cases = ["settings", "stream_error_then_request", "headers_on_half_closed", "headers_after_reset",
             "headers_on_closed", "smaller_stream_id", "invalid_ping", "continuations", "header_bomb", "rapid_reset"]
    print(json.dumps({case: run(case, host, port, ca) for case in cases}))


if __name__ == "__main__":
    main(sys.argv)
