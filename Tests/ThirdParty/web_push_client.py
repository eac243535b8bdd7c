"""Sends Web Push with pywebpush and py-vapid, libraries from PyPI that know nothing of the
emulator: VAPID (RFC 8292) and aes128gcm (RFC 8291) exactly as for Apple's web.push.apple.com,
with only the endpoint (from the subscription) and the CA (REQUESTS_CA_BUNDLE) being the
emulator's.

usage: web_push_client.py keygen KEY.pem
         prints {"applicationServerKey": <base64url public key>}
       web_push_client.py push KEY.pem SUBSCRIPTION.json DATA SUBJECT [TTL [URGENCY [TOPIC [EXP_OFFSET [AUD]]]]]
         DATA "-" sends no body; EXP_OFFSET (seconds from now) and AUD override those claims.
       web_push_client.py h2push KEY.pem SUBSCRIPTION.json DATA SUBJECT TTL URGENCY
         the same request over HTTP/2 (httpx), built with pywebpush's encoder and py-vapid's signer.
       web_push_client.py webpushlib KEY.pem SUBSCRIPTION.json DATA EMAIL
         the request PyPI's other `webpush` library (1.0.6) builds with its defaults, sent as its
         README sends it (requests): its VAPID aud is the endpoint's scheme and host without the
         port, and its TTL is 0 unless given.

Prints one JSON object: the status, Apple's reason and the emulator's explanation header.
"""
import base64
import json
import sys
import time

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush


def keygen(path):
    vapid = Vapid02()
    vapid.generate_keys()
    vapid.save_key(path)
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    print(json.dumps({"applicationServerKey": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}))


def push(argv):
    key_path, subscription_path, data, subject = argv[:4]
    ttl = int(argv[4]) if len(argv) > 4 else 60
    headers = {}
    if len(argv) > 5 and argv[5] != "-":
        headers["Urgency"] = argv[5]
    if len(argv) > 6 and argv[6] != "-":
        headers["Topic"] = argv[6]
    claims = {"sub": subject}
    if len(argv) > 7 and argv[7] != "-":
        claims["exp"] = int(time.time()) + int(argv[7])
    if len(argv) > 8:
        claims["aud"] = argv[8]
    with open(subscription_path) as f:
        subscription = json.load(f)
    try:
        response = webpush(
            subscription, data=None if data == "-" else data, vapid_private_key=key_path, vapid_claims=claims,
            ttl=ttl, headers=headers)
    except WebPushException as error:
        response = error.response
        if response is None:
            raise
    try:
        reason = response.json().get("reason")
    except ValueError:
        reason = None
    print(json.dumps({
        "status": response.status_code, "reason": reason,
        "detail": response.headers.get("apns-emulator-detail"), "location": response.headers.get("location"),
        "uniqueId": response.headers.get("apns-unique-id"), "warning": response.headers.get("apns-emulator-warning")}))


def h2push(argv):
    import os
    import httpx
    from pywebpush import WebPusher

    key_path, subscription_path, data, subject, ttl, urgency = argv[:6]
    with open(subscription_path) as f:
        subscription = json.load(f)
    endpoint = subscription["endpoint"]
    encoded = WebPusher(subscription).encode(data.encode(), "aes128gcm")
    origin = "/".join(endpoint.split("/")[:3])
    vapid = Vapid02.from_file(key_path)
    headers = vapid.sign({"sub": subject, "aud": origin, "exp": int(time.time()) + 3600})
    headers.update({"TTL": ttl, "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream"})
    if urgency != "-":
        headers["Urgency"] = urgency
    with httpx.Client(http2=True, verify=os.environ["REQUESTS_CA_BUNDLE"]) as client:
        response = client.post(endpoint, content=encoded["body"], headers=headers)
    try:
        reason = response.json().get("reason")
    except ValueError:
        reason = None
    print(json.dumps({
        "status": response.status_code, "reason": reason, "http": response.http_version,
        "detail": response.headers.get("apns-emulator-detail"), "location": response.headers.get("location"),
        "uniqueId": response.headers.get("apns-unique-id")}))


def webpushlib(argv):
    from pathlib import Path

    import requests
    from webpush import WebPush, WebPushSubscription

    key_path, subscription_path, data, email = argv[:4]
    private = serialization.load_pem_private_key(Path(key_path).read_bytes(), password=None)
    public = private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    with open(subscription_path) as f:
        subscription = WebPushSubscription.model_validate(json.load(f))
    message = WebPush(private_key=Path(key_path), public_key=public, subscriber=email).get(data, subscription)
    response = requests.post(str(subscription.endpoint), data=message.encrypted, headers=message.headers, timeout=30)
    try:
        reason = response.json().get("reason")
    except ValueError:
        reason = None
    print(json.dumps({
        "status": response.status_code, "reason": reason, "detail": response.headers.get("apns-emulator-detail"),
        "uniqueId": response.headers.get("apns-unique-id"), "warning": response.headers.get("apns-emulator-warning"),
        "ttl": message.headers["ttl"]}))


if __name__ == "__main__":
    if sys.argv[1] == "webpushlib":
        webpushlib(sys.argv[2:])
    elif sys.argv[1] == "keygen":
        keygen(sys.argv[2])
    elif sys.argv[1] == "h2push":
        h2push(sys.argv[2:])
    else:
        push(sys.argv[2:])
