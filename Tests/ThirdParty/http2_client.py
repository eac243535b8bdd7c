"""Drives the emulator's HTTP/2 provider API with aioapns, a provider library from PyPI that
knows nothing of the emulator: configured as for production (a .p8 key or a client
certificate), with only the host, port and CA swapped.

usage: http2_client.py HOST PORT CA token KEY.p8 KEY_ID TEAM_ID TOPIC DEVICE_TOKEN
       http2_client.py HOST PORT CA cert CERT_AND_KEY.pem DEVICE_TOKEN

Prints one JSON object: the status and reason of each push.
"""
import asyncio
import json
import ssl
import sys

from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol


async def main(argv):
    host, port, ca, mode = argv[1], int(argv[2]), argv[3], argv[4]
    # What a production configuration would point at api.sandbox.push.apple.com:443.
    APNsDevelopmentClientProtocol.APNS_SERVER = host
    APNsDevelopmentClientProtocol.APNS_PORT = port
    context = ssl.create_default_context(cafile=ca)
    results = {}

    if mode == "token":
        key_path, key_id, team_id, topic, device = argv[5:10]
        with open(key_path) as f:
            key = f.read()
        client = APNs(key=key, key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True, ssl_context=context)
        # Twenty at once: the first opens the connection's single stream, the rest follow once
        # the emulator raises the stream limit.
        requests = [NotificationRequest(device_token=device, message={"aps": {"alert": "token"}, "n": n}) for n in range(20)]
        answers = await asyncio.gather(*(client.send_notification(r) for r in requests))
        results["pushes"] = [[a.status, a.description] for a in answers]
        # The same key for an app it is not scoped to.
        other = APNs(key=key, key_id=key_id, team_id=team_id, topic="com.example.elsewhere", use_sandbox=True, ssl_context=context)
        answer = await other.send_notification(NotificationRequest(device_token=device, message={"aps": {"alert": "x"}}))
        results["otherTopic"] = [answer.status, answer.description]
    else:
        cert, device = argv[5:7]
        client = APNs(client_cert=cert, use_sandbox=True, ssl_context=context)
        requests = [NotificationRequest(device_token=device, message={"aps": {"alert": "cert"}, "n": n}) for n in range(5)]
        answers = await asyncio.gather(*(client.send_notification(r) for r in requests))
        results["pushes"] = [[a.status, a.description] for a in answers]
        bad = await client.send_notification(NotificationRequest(device_token="00", message={"aps": {}}))
        results["badToken"] = [bad.status, bad.description]

    print(json.dumps(results))


if __name__ == "__main__":
    asyncio.run(main(sys.argv))
