"""Sends Live Activity pushes with aioapns, a provider library from PyPI that knows nothing of
the emulator: token authentication with a .p8 key, apns-push-type liveactivity to the
<bundle>.push-type.liveactivity topic, as for production with only the host, port and CA swapped.

usage: live_activity_client.py HOST PORT CA KEY.p8 KEY_ID TEAM_ID BUNDLE start PUSH_TO_START_TOKEN
       live_activity_client.py HOST PORT CA KEY.p8 KEY_ID TEAM_ID BUNDLE update UPDATE_TOKEN TIMESTAMP STATUS

Prints one JSON object: the status and reason of the push.
"""
import asyncio
import json
import ssl
import sys
import time

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsDevelopmentClientProtocol


async def main(argv):
    host, port, ca, key_path, key_id, team_id, bundle, mode, token = argv[1:10]
    APNsDevelopmentClientProtocol.APNS_SERVER = host
    APNsDevelopmentClientProtocol.APNS_PORT = int(port)
    context = ssl.create_default_context(cafile=ca)
    with open(key_path) as f:
        key = f.read()
    topic = bundle + ".push-type.liveactivity"
    client = APNs(key=key, key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True, ssl_context=context)
    if mode == "start":
        aps = {
            "timestamp": int(time.time()),
            "event": "start",
            "attributes-type": "Delivery",
            "attributes": {"order": 42},
            "content-state": {"status": "packing"},
            "alert": {"title": "Order 42", "body": "We are packing it"},
            "input-push-token": 1,
        }
    else:
        aps = {"timestamp": int(argv[10]), "event": "update", "content-state": {"status": argv[11]}}
    request = NotificationRequest(device_token=token, message={"aps": aps}, priority=10, push_type=PushType.LIVEACTIVITY)
    answer = await client.send_notification(request)
    print(json.dumps({"status": answer.status, "reason": answer.description, "id": answer.notification_id}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv))
