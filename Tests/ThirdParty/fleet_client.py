"""Pushes one alert to each device token of a file with aioapns, a provider library from PyPI
that knows nothing of the emulator, pointed at HOST:PORT (a cluster's HAProxy) instead of
api.sandbox.push.apple.com. The emulator runs with --auth none, so the library signs its
provider tokens with a key made here.

usage: fleet_client.py HOST PORT CA TOPIC TOKENS_FILE

Prints one JSON object: {"statuses": {"200": n, ...}, "failures": [first few descriptions]}.
"""
import asyncio
import collections
import json
import ssl
import sys

from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


async def main(argv):
    host, port, ca, topic, tokens_file = argv[1], int(argv[2]), argv[3], argv[4], argv[5]
    APNsDevelopmentClientProtocol.APNS_SERVER = host
    APNsDevelopmentClientProtocol.APNS_PORT = port
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    client = APNs(
        key=key, key_id="FLEETKEY01", team_id="FLEETTEAM1", topic=topic, use_sandbox=True,
        ssl_context=ssl.create_default_context(cafile=ca),
    )
    with open(tokens_file) as f:
        tokens = [line.strip() for line in f if line.strip()]
    gate = asyncio.Semaphore(100)

    async def send(token):
        async with gate:
            return await client.send_notification(NotificationRequest(device_token=token, message={"aps": {"alert": "from aioapns"}}))

    answers = await asyncio.gather(*(send(token) for token in tokens))
    statuses = collections.Counter(str(a.status) for a in answers)
    failures = [a.description for a in answers if str(a.status) != "200"][:5]
    print(json.dumps({"statuses": statuses, "failures": failures}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv))
