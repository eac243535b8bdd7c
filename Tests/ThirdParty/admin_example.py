"""Integration tests of an app's push code, asserting through apns-emulator's admin API alone.

usage: admin_example.py [ADMIN_URL] [HTTP2_PORT] [CA]   (defaults: the emulator's defaults)
"""
import asyncio
import json
import ssl
import sys
import urllib.error
import urllib.request

from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

ADMIN = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8197"
PORT = int(sys.argv[2]) if len(sys.argv) > 2 else 2197
CA = sys.argv[3] if len(sys.argv) > 3 else "certs/ca.pem"
TOKEN = "ab" * 32
# The app's .p8 key would do; with the emulator's default --auth none any ES256 key does.
KEY = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()


def admin(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(ADMIN + path, data=data, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


# The app under test: a welcome push, retried once when APNs says TooManyRequests.
# Configured as for production; only the host, port and CA point at the emulator.
async def send_welcome(token):
    APNsDevelopmentClientProtocol.APNS_SERVER = "127.0.0.1"
    APNsDevelopmentClientProtocol.APNS_PORT = PORT
    client = APNs(key=KEY, key_id="KEY1234567", team_id="TEAM123456", topic="com.example.app",
                  use_sandbox=True, ssl_context=ssl.create_default_context(cafile=CA))
    request = NotificationRequest(device_token=token, message={"aps": {"alert": "Welcome!"}})
    answer = await client.send_notification(request)
    if answer.description == "TooManyRequests":
        await asyncio.sleep(0.1)
        answer = await client.send_notification(request)
    return answer.status


def test_welcome_push_reaches_the_device():
    admin("POST", "/api/v1/reset")
    asyncio.run(send_welcome(TOKEN))  # the app under test
    status, push = admin("GET", f"/api/v1/notifications/wait?token={TOKEN}&timeout=5s")
    assert status == 200, push
    assert push["topic"] == "com.example.app" and push["payload"] == {"aps": {"alert": "Welcome!"}}
    assert admin("GET", f"/api/v1/notifications?token={TOKEN}")[1]["total"] == 1  # exactly one push


def test_app_retries_after_too_many_requests():
    admin("POST", "/api/v1/reset")
    admin("POST", "/api/v1/faults", {"match": {"token": TOKEN},
                                     "action": {"type": "respond", "reason": "TooManyRequests"}, "times": 1})
    assert asyncio.run(send_welcome(TOKEN)) == "200"
    rejected = admin("GET", f"/api/v1/notifications?token={TOKEN}&status=rejected")[1]["items"]
    assert [r["reason"] for r in rejected] == ["TooManyRequests"] and rejected[0]["fault"]
    assert admin("GET", f"/api/v1/notifications?token={TOKEN}&status=queued")[1]["total"] == 1


if __name__ == "__main__":
    test_welcome_push_reaches_the_device()
    test_app_retries_after_too_many_requests()
    print("ok")
