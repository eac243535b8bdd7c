"""Drives apns-emulator's binary gateway and feedback service with apns3 (PyAPNs for Python 3),
a legacy provider library that knows nothing of the emulator: only its host and ports change.

usage: legacy_client.py HOST GATEWAY_PORT FEEDBACK_PORT KNOWN_TOKEN UNKNOWN_TOKEN
Prints one JSON object with what the library saw; the Swift test checks it and the emulator.
"""
import calendar
import json
import sys
import threading
import time

import apns3

host, gateway_port, feedback_port, known, unknown = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
expiry = int(time.time()) + 3600
seen = {}


def connect(connection, port, **options):
    # The library's constructors name Apple's hosts; a provider pointed at the emulator swaps these.
    c = connection(**options)
    c.server, c.port = host, port
    return c


def payload(n):
    return apns3.Payload(alert="legacy %d" % n, custom={"n": n})


# Command 1 (enhanced), with the library's error-response listener: 3 is for a token the emulator
# does not know (--tokens registered), so it answers status 8 for identifier 3 and drops 4.
enhanced = connect(apns3.GatewayConnection, gateway_port, enhanced=True)
answered = threading.Event()


def on_error(response):
    seen["error"] = response
    answered.set()


enhanced.register_response_listener(on_error)
for n, token in [(1, known), (2, known), (3, unknown), (4, known)]:
    enhanced.send_notification(token, payload(n), identifier=n, expiry=expiry)
answered.wait(20)
enhanced.force_close()

# Command 0 (simple) on its own connection; nothing comes back for good notifications.
simple = connect(apns3.GatewayConnection, gateway_port)
simple.send_notification(known, payload(5))

# Command 2 frames, as the library batches them.
frames = connect(apns3.GatewayConnection, gateway_port, enhanced=True)
frame = apns3.Frame()
frame.add_item(known, payload(6), 6, expiry, 10)
frame.add_item(known, payload(7), 7, expiry, 5)
frames.send_notification_multiple(frame)


def feedback():
    connection = connect(apns3.FeedbackConnection, feedback_port)
    return [[token.decode(), calendar.timegm(when.utctimetuple())] for token, when in connection.items()]


seen["feedback"] = feedback()
seen["feedbackAgain"] = feedback()
print(json.dumps(seen))
sys.stdout.flush()
simple._disconnect()
frames.force_close()
frames._disconnect()
