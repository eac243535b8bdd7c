"""The container image through Testcontainers, as a Python user runs it (issue 37): start, wait
until healthy, fetch the CA from the admin API, push over HTTP/2 with TLS trusting it, see the
push in the journal, stop. Runs when APNS_EMULATOR_IMAGE names the image (.ci/run builds it with
podman and points Testcontainers at podman's Docker-compatible socket)."""
import os
import ssl
import time
import uuid

import httpx
import pytest

IMAGE = os.environ.get("APNS_EMULATOR_IMAGE")
pytestmark = pytest.mark.skipif(not IMAGE, reason="APNS_EMULATOR_IMAGE names no image (make image builds one)")

TOPIC = "com.example.container"


def _wait_ready(admin: str, container, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{admin}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        container.get_wrapped_container().reload()
        state = container.get_wrapped_container().attrs["State"]
        assert state.get("Running"), f"the container ended: {state}\n{container.get_logs()}"
        assert time.monotonic() < deadline, f"not ready within {timeout} s:\n{container.get_logs()}"
        time.sleep(0.2)


def _made_token(container) -> str:
    """The token serve printed at start (`apns-emulator: admin token: <token> (...)`)."""
    out, err = container.get_logs()
    lines = [line for line in (out + err).decode("utf-8", "replace").splitlines() if line.startswith("apns-emulator: admin token: ")]
    assert len(lines) == 1, (out + err).decode("utf-8", "replace")
    return lines[0].split()[3]


def test_image_serves_as_a_non_root_user_and_takes_a_push(tmp_path):
    from testcontainers.core.container import DockerContainer

    with DockerContainer(IMAGE).with_exposed_ports(2197, 8197).with_command("serve --ephemeral") as container:
        host = container.get_container_host_ip()
        admin = f"http://{host}:{container.get_exposed_port(8197)}"
        _wait_ready(admin, container)

        # The image says who runs it and how it is checked.
        config = container.get_wrapped_container().attrs["Config"]
        assert config["User"] and config["User"] not in ("root", "0"), config["User"]
        assert "/healthz" in " ".join(config.get("Healthcheck", {}).get("Test", [])), config.get("Healthcheck")
        assert config["Env"] and "APNS_EMULATOR_HOST=0.0.0.0" in config["Env"]

        ca = tmp_path / "ca.pem"
        answer = httpx.get(f"{admin}/ca.pem", timeout=10)
        assert answer.status_code == 200 and answer.text.startswith("-----BEGIN CERTIFICATE-----"), answer.text[:200]
        ca.write_text(answer.text)

        # Every interface inside the container: the emulator made an admin token and printed it once
        # (issue 51); without it the admin API refuses, with it everything works as before.
        admin_token = _made_token(container)
        assert httpx.get(f"{admin}/api/v1/devices", timeout=10).status_code == 401
        auth = {"authorization": f"Bearer {admin_token}"}
        token = httpx.post(f"{admin}/api/v1/devices", json={"topic": TOPIC}, headers=auth, timeout=10).json()["token"]
        apns_id = str(uuid.uuid4())
        # The server certificate names localhost: that is the name a client on this machine dials.
        provider = f"https://localhost:{container.get_exposed_port(2197)}"
        with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=str(ca)), timeout=10) as client:
            pushed = client.post(f"{provider}/3/device/{token}", json={"aps": {"alert": "from a container test"}},
                                 headers={"apns-topic": TOPIC, "apns-id": apns_id})
        assert pushed.http_version == "HTTP/2"
        assert pushed.status_code == 200, pushed.text
        unique_id = pushed.headers["apns-unique-id"]

        items = httpx.get(f"{admin}/api/v1/notifications", params={"token": token}, headers=auth, timeout=10).json()["items"]
        assert [(item["uniqueId"], item["apnsId"], item["payload"]["aps"]["alert"]) for item in items] == [
            (unique_id, apns_id, "from a container test")], items
