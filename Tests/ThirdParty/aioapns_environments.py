"""aioapns (PyPI) with its environment switch flipped as a user flips it: `use_sandbox=True`
connects where its development protocol points, `use_sandbox=False` where its production
protocol points; the host override its users apply in tests points the two at the emulator's
sandbox and production ports. Each configuration sends a debug build's token and a TestFlight
build's token.

usage: aioapns_environments.py CA SANDBOX_PORT PRODUCTION_PORT KEY.p8 KEY_ID TEAM_ID TOPIC DEBUG_TOKEN RELEASE_TOKEN

Prints one JSON object: for "sandbox" and "production", [status, reason] of each token's push.
"""
import asyncio
import json
import ssl
import sys

from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol, APNsProductionClientProtocol


async def main(argv):
    ca, sandbox_port, production_port, key_path, key_id, team_id, topic, debug, release = argv[1:10]
    # The host override: what would be api.development.push.apple.com:443 and api.push.apple.com:443.
    APNsDevelopmentClientProtocol.APNS_SERVER, APNsDevelopmentClientProtocol.APNS_PORT = "localhost", int(sandbox_port)
    APNsProductionClientProtocol.APNS_SERVER, APNsProductionClientProtocol.APNS_PORT = "localhost", int(production_port)
    context = ssl.create_default_context(cafile=ca)
    with open(key_path) as f:
        key = f.read()
    results = {}
    for name, sandbox in (("sandbox", True), ("production", False)):
        client = APNs(key=key, key_id=key_id, team_id=team_id, topic=topic, use_sandbox=sandbox, ssl_context=context)
        answers = {}
        for build, token in (("debug", debug), ("release", release)):
            answer = await client.send_notification(NotificationRequest(device_token=token, message={"aps": {"alert": build}}))
            answers[build] = [answer.status, answer.description]
        results[name] = answers
    print(json.dumps(results))


if __name__ == "__main__":
    asyncio.run(main(sys.argv))
