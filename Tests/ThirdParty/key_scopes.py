"""Signs provider tokens with PyJWT (the library aioapns and most Python providers use) and sends
them with h2 over one TLS connection, so that several keys meet on the same connection as a
provider rotating or mixing keys would make them.

usage: key_scopes.py HOST PORT CA TEAM_ID DEVICE_TOKEN TOPIC TEAM_KEY.p8 TEAM_KEY_ID SCOPED_KEY.p8 SCOPED_KEY_ID PRODUCTION_KEY.p8 PRODUCTION_KEY_ID

Prints one JSON object: each step's status and reason.
"""
import json
import socket
import ssl
import sys
import time

import h2.connection
import h2.events
import jwt


def token(path, key_id, team_id):
    with open(path) as f:
        key = f.read()
    return jwt.encode({"iss": team_id, "iat": int(time.time())}, key, algorithm="ES256", headers={"kid": key_id})


class Connection:
    def __init__(self, host, port, ca):
        context = ssl.create_default_context(cafile=ca)
        context.set_alpn_protocols(["h2"])
        self.sock = context.wrap_socket(socket.create_connection((host, port)), server_hostname="localhost")
        self.conn = h2.connection.H2Connection()
        self.conn.initiate_connection()
        self.sock.sendall(self.conn.data_to_send())

    def push(self, authorization, device, topic):
        stream = self.conn.get_next_available_stream_id()
        body = json.dumps({"aps": {"alert": "scoped"}}).encode()
        self.conn.send_headers(stream, [
            (":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", f"/3/device/{device}"),
            ("authorization", f"bearer {authorization}"), ("apns-topic", topic), ("apns-push-type", "alert"),
        ])
        self.conn.send_data(stream, body, end_stream=True)
        self.sock.sendall(self.conn.data_to_send())
        status, data = None, b""
        while True:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the connection closed")
            for event in self.conn.receive_data(chunk):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                    status = dict(event.headers)[b":status"].decode()
                elif isinstance(event, h2.events.DataReceived) and event.stream_id == stream:
                    data += event.data
                    self.conn.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream:
                    self.sock.sendall(self.conn.data_to_send())
                    return [status, json.loads(data).get("reason") if data else None]
            self.sock.sendall(self.conn.data_to_send())


def main(argv):
    host, port, ca, team, device, topic = argv[1], int(argv[2]), argv[3], argv[4], argv[5], argv[6]
    team_key, scoped_key, production_key = token(argv[7], argv[8], team), token(argv[9], argv[10], team), token(argv[11], argv[12], team)
    results = {}
    one = Connection(host, port, ca)
    results["teamKey"] = one.push(team_key, device, topic)
    # A topic-specific key on the connection the team key opened.
    results["scopedAfterTeam"] = one.push(scoped_key, device, topic)
    two = Connection(host, port, ca)
    results["scopedFirst"] = two.push(scoped_key, device, topic)
    results["scopedOtherTopic"] = two.push(scoped_key, device, "com.example.elsewhere")
    three = Connection(host, port, ca)
    results["productionKey"] = three.push(production_key, device, topic)
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv)
