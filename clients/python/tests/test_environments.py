"""Both environments, as Apple runs them (issue 72): a sandbox and a production endpoint, and a
token valid at the one its app's build registered with. Apple, "Handling notification responses
from APNs": 400 BadDeviceToken, "verify … that the token matches the environment"."""
import ssl

import httpx
import pytest

from apns_emulator import APNsEmulator

TOPIC = "com.example.pytest"


def test_each_build_at_its_endpoint(apns_emulator: APNsEmulator):
    debug = apns_emulator.register_device(TOPIC)
    testflight = apns_emulator.register_device(TOPIC, environment="production")
    assert apns_emulator.sandbox_url == apns_emulator.url == f"https://localhost:{apns_emulator.http2_port}"
    assert apns_emulator.production_url == f"https://localhost:{apns_emulator.production_http2_port}"
    assert apns_emulator.production_http2_port != apns_emulator.http2_port

    assert apns_emulator.push(debug, {"aps": {"alert": "debug"}}, topic=TOPIC).ok
    assert apns_emulator.push(testflight, {"aps": {"alert": "testflight"}}, topic=TOPIC, environment="production").ok
    sent = apns_emulator.notifications(environment="production")
    assert [n.token for n in sent] == [testflight] and sent[0].environment == "production"

    check = apns_emulator.check_token(testflight)
    assert check["known"] and check["environment"] == "production" and check["endpoint"] == "api.push.apple.com"
    assert apns_emulator.check_token(debug)["environment"] == "development"
    with pytest.raises(ValueError, match="development .* or production"):
        apns_emulator.push(debug, {"aps": {}}, topic=TOPIC, environment="staging")


def test_a_provider_set_for_the_wrong_environment_is_caught(apns_emulator: APNsEmulator):
    """The provider under test, configured for production, is handed a debug build's token: the
    emulator answers as APNs does, and says why."""
    debug = apns_emulator.register_device(TOPIC)
    context = ssl.create_default_context(cafile=apns_emulator.ca_path)
    with httpx.Client(http2=True, verify=context, base_url=apns_emulator.production_url) as provider:
        answer = provider.post(f"/3/device/{debug}", json={"aps": {"alert": "hi"}}, headers={"apns-topic": TOPIC})
    assert answer.status_code == 400 and answer.json()["reason"] == "BadDeviceToken"
    assert "issued to a development build" in answer.headers["apns-emulator-detail"]
    refused = apns_emulator.notifications(status="rejected", environment="production")
    assert [n.token for n in refused] == [debug] and refused[0].reason == "BadDeviceToken"
    # The fixture's own push says the same when told the wrong endpoint.
    wrong = apns_emulator.push(debug, {"aps": {"alert": "hi"}}, topic=TOPIC, environment="production")
    assert wrong.status == 400 and wrong.reason == "BadDeviceToken" and "sandbox endpoint" in (wrong.detail or "")
