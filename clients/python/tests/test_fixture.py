"""The plugin against the real binary (APNS_EMULATOR_BIN, or apns-emulator on PATH)."""
import asyncio
import ssl

import httpx
import pytest

from apns_emulator import APNsEmulator, EmulatorError, Notification, PushResult

TOPIC = "com.example.pytest"


def test_push_then_wait_for(apns_emulator: APNsEmulator):
    token = apns_emulator.register_device(TOPIC)
    result = apns_emulator.push(token, {"aps": {"alert": {"title": "Welcome"}}}, topic=TOPIC)
    assert isinstance(result, PushResult) and result.ok and result.unique_id
    sent = apns_emulator.wait_for(token=token, topic=TOPIC, timeout=5)
    assert isinstance(sent, Notification)
    assert sent.payload["aps"]["alert"]["title"] == "Welcome" and sent.unique_id == result.unique_id
    assert [n.unique_id for n in apns_emulator.notifications(token=token)] == [result.unique_id]
    assert apns_emulator.url == f"https://localhost:{apns_emulator.http2_port}"


def test_a_rejection_has_its_reason(apns_emulator: APNsEmulator):
    token = apns_emulator.register_device(TOPIC)
    refused = apns_emulator.push(token, {"aps": {}}, topic=TOPIC, priority=7)
    assert refused.status == 400 and refused.reason == "BadPriority" and refused.detail
    assert apns_emulator.notifications(status="rejected")[0].reason == "BadPriority"


def _two_pushes_while_offline(apns_emulator: APNsEmulator):
    """Two alerts to a token no device holds (offline): the journal's statuses, oldest first."""
    token = apns_emulator.register_device(TOPIC)
    for text in ("first", "second"):
        assert apns_emulator.push(token, {"aps": {"alert": text}}, topic=TOPIC).ok
    return [n.status for n in reversed(apns_emulator.notifications(token=token))]


def test_offline_one_stored_per_app_as_apns(apns_emulator: APNsEmulator):
    # Apple, "Sending notification requests to APNs": APNs stores only one notification per bundle ID.
    assert _two_pushes_while_offline(apns_emulator) == ["replaced", "queued"]


@pytest.mark.apns_emulator(storage_policy="all")
def test_storage_policy_all_keeps_every_push(apns_emulator: APNsEmulator):
    assert _two_pushes_while_offline(apns_emulator) == ["queued", "queued"]


def test_wait_for_lists_near_misses(apns_emulator: APNsEmulator):
    token = apns_emulator.register_device(TOPIC)
    apns_emulator.push(token, {"aps": {"alert": "hi"}}, topic=TOPIC)
    with pytest.raises(AssertionError) as failure:
        apns_emulator.wait_for(token=token, topic="com.example.other", timeout=0.3)
    message = str(failure.value)
    assert "near misses" in message and "topic: wanted com.example.other, was com.example.pytest" in message


def test_device_faults_clock_and_reset(apns_emulator: APNsEmulator):
    token = apns_emulator.register_device(TOPIC)
    device = apns_emulator.device(token)
    device.set_app(authorization={"status": "authorized", "alert": True, "sound": True, "badge": True}, appState="background")
    sent = apns_emulator.push(token, {"aps": {"alert": {"title": "Shown", "body": "Hello"}}}, topic=TOPIC)
    assert [item["uniqueId"] for item in device.delivered()] == [sent.unique_id]
    assert device.respond(sent.unique_id, "default")["action"] == "default"
    # A token the admin API issued has no device, so no power state.
    with pytest.raises(EmulatorError, match="registered without a device"):
        device.power()

    rule = apns_emulator.faults.add({"type": "respond", "reason": "TooManyRequests"}, match={"topic": TOPIC}, times=1)
    assert apns_emulator.push(token, {"aps": {}}, topic=TOPIC).reason == "TooManyRequests"
    assert apns_emulator.push(token, {"aps": {}}, topic=TOPIC).ok
    assert rule.id and apns_emulator.faults.list() == []

    # A token whose app has settings is the phone's own: it takes each push at once (delivered).
    # One with none waits for its device, so its push can expire.
    waiting = apns_emulator.register_device(TOPIC)
    expiring = apns_emulator.push(waiting, {"aps": {}}, topic=TOPIC, expiration=int(__import__("time").time()) + 60)
    assert apns_emulator.clock.advance("2m").offset_ms == 120_000
    assert apns_emulator.wait_for(token=waiting, status="expired", timeout=5).unique_id == expiring.unique_id

    apns_emulator.reset()
    assert apns_emulator.notifications() == [] and apns_emulator.clock.now.offset_ms == 0


@pytest.mark.apns_emulator(auth="strict")
def test_aioapns_with_a_key_the_fixture_made(apns_emulator: APNsEmulator):
    """A real provider library (aioapns), pointed at the fixture with a key from keys.create()."""
    aioapns = pytest.importorskip("aioapns")
    from aioapns.connection import APNsDevelopmentClientProtocol

    key = apns_emulator.keys.create(team_id="TEAM123456", topics=[TOPIC])
    token = apns_emulator.register_device(TOPIC)
    APNsDevelopmentClientProtocol.APNS_SERVER = "localhost"
    APNsDevelopmentClientProtocol.APNS_PORT = apns_emulator.http2_port

    async def send():
        client = aioapns.APNs(key=key.p8, key_id=key.key_id, team_id=key.team_id, topic=TOPIC, use_sandbox=True,
                              ssl_context=ssl.create_default_context(cafile=apns_emulator.ca_path))
        return await client.send_notification(aioapns.NotificationRequest(device_token=token, message={"aps": {"alert": "from aioapns"}}))

    answer = asyncio.run(send())
    assert answer.is_successful, answer.description
    assert apns_emulator.wait_for(token=token, timeout=5).payload["aps"]["alert"] == "from aioapns"
    # Strict mode: a push without a token is refused.
    assert apns_emulator.push(token, {"aps": {}}, topic=TOPIC).reason == "MissingProviderToken"


def test_session_fixture_is_shared(apns_emulator_session: APNsEmulator, request):
    token = apns_emulator_session.register_device(TOPIC)
    assert apns_emulator_session.push(token, {"aps": {"alert": "once"}}, topic=TOPIC).ok
    assert apns_emulator_session is request.getfixturevalue("apns_emulator_session")


def test_a_failing_test_reports_the_emulator_log(pytester: pytest.Pytester):
    pytester.makepyfile(
        """
        def test_fails(apns_emulator):
            token = apns_emulator.register_device("com.example.log")
            apns_emulator.push(token, {"aps": {"alert": "x"}}, topic="com.example.log")
            assert False, "on purpose"
        """
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*apns-emulator log*", "*HTTP/2 provider API on*"])


def test_web_push_from_pywebpush_reaches_a_home_screen_web_app(apns_emulator: APNsEmulator, tmp_path):
    # pywebpush and py-vapid (PyPI) as a web server uses them for web.push.apple.com: only the
    # subscription (the endpoint) and the CA are the emulator's.
    pywebpush = pytest.importorskip("pywebpush")
    py_vapid = pytest.importorskip("py_vapid")
    import base64
    import json
    import os
    from cryptography.hazmat.primitives import serialization

    from apns_emulator import WebApp, WebPush

    vapid = py_vapid.Vapid02()
    vapid.generate_keys()
    key_path = str(tmp_path / "vapid.pem")
    vapid.save_key(key_path)
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    app = apns_emulator.subscribe_web_app(base64.urlsafe_b64encode(raw).rstrip(b"=").decode(), origin="https://shop.example")
    assert isinstance(app, WebApp) and app.subscription["endpoint"].endswith("/push/" + app.id)
    message = {"web_push": 8030, "notification": {"title": "Back in stock", "navigate": "https://shop.example/p/1"}, "app_badge": 1}
    os.environ["REQUESTS_CA_BUNDLE"] = apns_emulator.ca_path
    try:
        answer = pywebpush.webpush(app.subscription, data=json.dumps(message), vapid_private_key=key_path,
                                   vapid_claims={"sub": "mailto:ops@shop.example"}, ttl=60)
    finally:
        del os.environ["REQUESTS_CA_BUNDLE"]
    assert answer.status_code == 201
    received = apns_emulator.web_push(app, timeout=5)
    assert isinstance(received, WebPush) and received.outcome == "declarative" and received.shown
    assert received.title == "Back in stock" and received.navigate == "https://shop.example/p/1"
    assert json.loads(received.message) == message and received.vapid_subject == "mailto:ops@shop.example"


def test_beyond_loopback_the_fixture_uses_the_made_admin_token():
    """Issue 51: serve on every interface makes an admin token; the fixture reads it from the ports
    file and sends it, so the test does nothing different; a request without it is refused."""
    import httpx

    emulator = APNsEmulator(options={"host": "0.0.0.0"})
    try:
        assert emulator.admin_token and len(emulator.admin_token) == 43
        token = emulator.register_device(TOPIC)
        assert emulator.push(token, {"aps": {"alert": "beyond"}}, topic=TOPIC).ok
        assert emulator.wait_for(token=token, timeout=5).payload["aps"]["alert"] == "beyond"
        refused = httpx.get(f"http://127.0.0.1:{emulator.admin_port}/api/v1/notifications", timeout=10)
        assert refused.status_code == 401 and "Authorization: Bearer" in refused.json()["error"]
        cross = httpx.post(f"http://127.0.0.1:{emulator.admin_port}/api/v1/reset", content=b"{}", timeout=10,
                           headers={"origin": "https://evil.example", "content-type": "text/plain",
                                    "authorization": f"Bearer {emulator.admin_token}"})
        assert cross.status_code == 403 and len(emulator.notifications()) == 1
    finally:
        emulator.stop()
        emulator.remove()


def test_a_given_admin_token_is_used():
    emulator = APNsEmulator(options={"admin_token": "pytest-given-token-0123456789"})
    try:
        assert emulator.admin_token == "pytest-given-token-0123456789"
        assert emulator.notifications() == []
    finally:
        emulator.stop()
        emulator.remove()


def test_focus_holds_what_it_does_not_allow(apns_emulator: APNsEmulator):
    # Apple Support, "Use a Focus on your iPhone": an app a Focus does not allow is delivered
    # quietly; "UNNotificationInterruptionLevel": time-sensitive may break through.
    token = apns_emulator.register_device(TOPIC)
    device = apns_emulator.device(token)
    device.set_app(authorization={"status": "authorized", "alert": True, "sound": True}, entitlements=["time-sensitive"])
    assert device.set_focus("Work")["active"] == "Work" and device.focus["apps"] == 1
    quiet = apns_emulator.push(token, {"aps": {"alert": "Sale", "sound": "default"}}, topic=TOPIC)
    urgent = apns_emulator.push(token, {"aps": {"alert": "Ride", "interruption-level": "time-sensitive"}}, topic=TOPIC)
    shown = {item["uniqueId"]: item["presentation"] for item in device.delivered()}
    assert shown[quiet.unique_id]["heldBy"] == "focus" and shown[quiet.unique_id]["deliveredQuietly"]
    assert shown[urgent.unique_id]["brokeThrough"] and shown[urgent.unique_id]["interruptionLevel"] == "time-sensitive"
    filtered = device.set_focus("Work", allowed_apps=[TOPIC], filters={TOPIC: ["work"]})
    assert filtered["filters"] == {TOPIC: ["work"]}
    personal = apns_emulator.push(token, {"aps": {"alert": "Dinner?", "filter-criteria": "home"}}, topic=TOPIC)
    assert {item["uniqueId"]: item["presentation"] for item in device.delivered()}[personal.unique_id]["heldBy"] == "focusFilter"
    assert device.set_focus(None)["active"] is None
    after = apns_emulator.push(token, {"aps": {"alert": "Hi", "sound": "default"}}, topic=TOPIC)
    assert {item["uniqueId"]: item["presentation"] for item in device.delivered()}[after.unique_id]["heldBy"] is None


def test_service_extension_changes_what_is_shown(apns_emulator: APNsEmulator):
    # Apple, UNNotificationServiceExtension: an alert with mutable-content is handed to the app's
    # extension, and what it hands back is shown; the original stays beside it.
    token = apns_emulator.register_device(TOPIC)
    device = apns_emulator.device(token)
    device.set_app(authorization={"status": "authorized", "alert": True})
    # Only the shell and coreutils: the emulator may run in its container image, which has no Python.
    app = device.set_service_extension(command="""read -r content; case "$content" in *olleh*) printf '{"body": "hello"}';; esac""")
    assert app["serviceExtension"]["timeout"] == "30s"
    pushed = apns_emulator.push(token, {"aps": {"alert": {"title": "Hi", "body": "olleh"}, "mutable-content": 1}}, topic=TOPIC)
    shown = device.presentation(pushed.unique_id)
    assert shown["body"] == "hello" and shown["serviceExtension"]["outcome"] == "modified"
    assert shown["serviceExtension"]["original"]["body"] == "olleh"
    assert device.set_service_extension()["serviceExtension"] is None



def test_report_card_passes_a_reused_connection_and_fails_a_connection_per_push(apns_emulator: APNsEmulator):
    # Apple, "Sending notification requests to APNs": keep connections open across notifications;
    # rapid connection and disconnection is treated as a denial-of-service attack.
    token = apns_emulator.register_device("com.example.app")
    for n in range(6):
        assert apns_emulator.push(token, {"aps": {"alert": f"hi {n}"}}, topic="com.example.app", push_type="alert").ok
    report = apns_emulator.assert_provider_behaves()
    checks = {c["id"]: c for c in report["checks"]}
    assert checks["connection-reuse"]["verdict"] == "pass" and report["provider"]["kind"] == "anonymous"

    apns_emulator.reset()
    context = ssl.create_default_context(cafile=apns_emulator.ca_path)
    for n in range(6):
        with httpx.Client(http2=True, verify=context, base_url=apns_emulator.url) as client:
            answer = client.post(f"/3/device/{token}", json={"aps": {"alert": f"again {n}"}},
                                 headers={"apns-topic": "com.example.app", "apns-push-type": "alert"})
            assert answer.status_code == 200
    with pytest.raises(AssertionError) as failed:
        apns_emulator.assert_provider_behaves()
    assert "connection-reuse: 6 requests over 6 connections" in str(failed.value)
    assert "source: Apple" in str(failed.value)
    assert apns_emulator.assert_provider_behaves(checks=["backoff"])["verdict"] == "fail"
