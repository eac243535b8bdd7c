"""Many pushes on one HTTP/2 connection in one write, as a busy provider sends them, then what a
client like Go's transport does with a GOAWAY (RFC 9113, section 6.8): every stream above its
last-stream-id was not processed, so it is sent again on a new connection. Uses the `h2` library
(PyPI), TLS trusting the emulator's CA.

usage: goaway_burst.py HOST PORT CA TOPIC TOKEN...

Prints one JSON object: {"first": {"goaway": last-stream-id or null, "answers": {token: status}
(those read before the GOAWAY)},
"resent": {token: status}}; a token whose first stream got no answer and was above the
last-stream-id (or refused with REFUSED_STREAM) is resent once.
"""
import json
import socket
import ssl
import sys
import uuid

import h2.config
import h2.connection
import h2.events
import h2.exceptions


def connect(host, port, ca):
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(["h2"])
    sock = context.wrap_socket(socket.create_connection((host, port), timeout=30), server_hostname="localhost")
    connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    connection.initiate_connection()
    sock.sendall(connection.data_to_send())
    return sock, connection


def burst(host, port, ca, topic, tokens):
    """Sends one push per token in a single write; returns (goaway last-stream-id, {token: status},
    {token: stream id}, refused stream ids)."""
    sock, connection = connect(host, port, ca)
    streams = {}
    for token in tokens:
        stream = connection.get_next_available_stream_id()
        streams[stream] = token
        body = json.dumps({"aps": {"alert": f"burst {token[:6]}"}}).encode()
        connection.send_headers(stream, [
            (":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", f"/3/device/{token}"),
            ("apns-topic", topic), ("apns-id", str(uuid.uuid4())), ("content-length", str(len(body)))])
        connection.send_data(stream, body, end_stream=True)
    sock.sendall(connection.data_to_send())
    answers, goaway, refused, closed = {}, None, set(), False
    while not closed:
        try:
            data = sock.recv(65536)
        except (socket.timeout, ConnectionError, ssl.SSLError):
            break
        if not data:
            break
        try:
            events = connection.receive_data(data)
        except h2.exceptions.ProtocolError:
            # h2 takes a GOAWAY as the end, as Pushy's ApnsClient does: an answer sent after it
            # (RFC 9113 allows that) is not read here, so the emulator sends every one before it.
            break
        for event in events:
            if isinstance(event, h2.events.ResponseReceived):
                answers[streams[event.stream_id]] = int(dict(event.headers)[b":status"])
            elif isinstance(event, h2.events.StreamReset) and event.error_code == 7:
                refused.add(event.stream_id)
            elif isinstance(event, h2.events.ConnectionTerminated):
                goaway = event.last_stream_id
        pending = connection.data_to_send()
        if pending:
            try:
                sock.sendall(pending)
            except (ConnectionError, ssl.SSLError):
                break
        if goaway is not None and all(token in answers or stream > goaway or stream in refused
                                      for stream, token in streams.items()):
            closed = True
    sock.close()
    return goaway, answers, streams, refused


def resend(host, port, ca, topic, tokens):
    answers = {}
    for token in tokens:
        sock, connection = connect(host, port, ca)
        body = json.dumps({"aps": {"alert": f"burst {token[:6]}"}}).encode()
        connection.send_headers(1, [
            (":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", f"/3/device/{token}"),
            ("apns-topic", topic), ("content-length", str(len(body)))])
        connection.send_data(1, body, end_stream=True)
        sock.sendall(connection.data_to_send())
        while token not in answers:
            data = sock.recv(65536)
            if not data:
                break
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    answers[token] = int(dict(event.headers)[b":status"])
            if connection.data_to_send():
                sock.sendall(connection.data_to_send())
        sock.close()
    return answers


def main(argv):
    host, port, ca, topic = argv[1], int(argv[2]), argv[3], argv[4]
    tokens = argv[5:]
    goaway, answers, streams, refused = burst(host, port, ca, topic, tokens)
    again = [token for stream, token in streams.items()
             if token not in answers and (goaway is None or stream > goaway or stream in refused)]
    print(json.dumps({"first": {"goaway": goaway, "answers": answers, "refused": sorted(refused)},
                      "resent": resend(host, port, ca, topic, again)}))


if __name__ == "__main__":
    main(sys.argv)
