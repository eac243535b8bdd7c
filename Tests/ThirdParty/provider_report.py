"""Two providers for the report card (GET /api/v1/providers/<id>/report), both real clients.

good: a team's push code on aioapns (PyPI), which keeps one connection and one provider token,
      written as Apple asks: a token answered 410 or BadDeviceToken is dropped, 429 and 503 are
      retried after a pause, a 400 is not sent again, an expired provider token gets a new one.
      aioapns 4.0 signs a new token for every connection it opens (a reconnection after a GOAWAY
      included), which the report card flags as a refresh sooner than 20 minutes; the team's code
      shares one token among the client's connections, as Pushy does since its pull request 850
      (TooManyProviderTokenUpdates, Pushy issue 811).
bad:  a script on httpx (PyPI) that opens a new connection and signs a new token (PyJWT) for
      every push, pushes on to a token after 410, retries 429 at once and sends a 400 again.

usage: provider_report.py good|bad HOST PORT CA KEY.p8 KEY_ID TEAM_ID TOPIC DEAD_TOKEN THROTTLED_TOKEN TOKEN...

DEAD_TOKEN answers 410 (the test unregistered it); THROTTLED_TOKEN answers 429 once (a fault
rule). Prints one JSON object: what each push was answered.
"""
import asyncio
import json
import ssl
import sys
import time

import httpx
import jwt
from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection as aioapns_connection
from aioapns.connection import APNsDevelopmentClientProtocol

RETRIED = ("429", "500", "503")
DEAD = ("Unregistered", "BadDeviceToken", "ExpiredToken")


async def good(host, port, ca, key, key_id, team_id, topic, tokens):
    APNsDevelopmentClientProtocol.APNS_SERVER = host
    APNsDevelopmentClientProtocol.APNS_PORT = port
    context = ssl.create_default_context(cafile=ca)

    # One token for every connection of the client, until APNs says it expired.
    shared = {}
    original = aioapns_connection.JWTAuthorizationHeaderProvider

    def one_token(key, key_id, team_id):
        return shared.setdefault((key_id, team_id), original(key=key, key_id=key_id, team_id=team_id))

    aioapns_connection.JWTAuthorizationHeaderProvider = one_token

    def client():
        return APNs(key=key, key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True, ssl_context=context)

    apns = client()
    dead = set()
    answers = []

    async def push(token, n):
        nonlocal apns
        if token in dead:
            return
        for attempt in range(5):
            request = NotificationRequest(
                device_token=token, message={"aps": {"alert": f"good {n}"}}, push_type=PushType.ALERT, priority=10)
            result = await apns.send_notification(request)
            answers.append([token[:8], result.status, result.description])
            if result.is_successful:
                return
            if result.description in DEAD:
                dead.add(token)
                return
            if result.status in RETRIED:
                await asyncio.sleep(1.2 * (attempt + 1))
                continue
            if result.description == "ExpiredProviderToken":
                shared.clear()
                apns = client()
                continue
            return

    # Sequential, as a test suite sends them; every token twice, the dead one included.
    for n in range(2):
        for token in tokens:
            await push(token, n)
    for n in range(2, 10):
        await push(tokens[2 + n % (len(tokens) - 2)], n)
    return answers


def bad(host, port, ca, key, key_id, team_id, topic, tokens):
    answers = []

    def send(token, n, collapse=None):
        header = jwt.encode({"iss": team_id, "iat": int(time.time())}, key, algorithm="ES256", headers={"kid": key_id})
        with httpx.Client(http2=True, verify=ca) as client:
            try:
                response = client.post(
                    f"https://{host}:{port}/3/device/{token}",
                    headers={"authorization": f"bearer {header}", "apns-topic": topic, "apns-push-type": "alert",
                             **({"apns-collapse-id": collapse} if collapse else {})},
                    json={"aps": {"alert": f"bad {n}"}})
            except httpx.HTTPError as error:
                answers.append([token[:8], "error", str(error)])
                return None
        answers.append([token[:8], str(response.status_code), response.json().get("reason") if response.content else None])
        return response.status_code

    def push(token, n, collapse=None):
        status = send(token, n, collapse)
        if status in (429, 500, 503) or status == 400:
            send(token, n, collapse)  # at once, unchanged

    dead, throttled, rest = tokens[0], tokens[1], tokens[2:]
    for n, token in enumerate(rest * 2):
        push(token, n)
    push(dead, 100)
    push(dead, 100)  # after its 410
    push(throttled, 101)
    push(rest[0], 102, collapse="x" * 65)  # 400 BadCollapseId
    for n in range(103, 109):
        push(rest[n % len(rest)], n)
    return answers


def main(argv):
    mode, host, port, ca, key_path, key_id, team_id, topic = argv[1:9]
    tokens = argv[9:]
    with open(key_path) as f:
        key = f.read()
    if mode == "good":
        answers = asyncio.run(good(host, int(port), ca, key, key_id, team_id, topic, tokens))
    else:
        answers = bad(host, int(port), ca, key, key_id, team_id, topic, tokens)
    print(json.dumps({"answers": answers}))


if __name__ == "__main__":
    main(sys.argv)
