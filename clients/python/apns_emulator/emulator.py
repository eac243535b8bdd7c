"""A running apns-emulator (a process, or a container) and what a test does with it."""
from __future__ import annotations

import json
import os
import shutil
import ssl
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence, Union

import httpx

from .results import Clock, FaultRule, Notification, ProviderKey, PushResult, WebApp, WebPush
from .launch import BinaryLauncher, ContainerLauncher, EmulatorError, find_binary, serve_arguments

__all__ = ["APNsEmulator", "EmulatorError", "find_binary", "serve_arguments"]


def _environment(name: str) -> str:
    """`development` (or `sandbox`) or `production`; anything else is a ValueError naming both."""
    lowered = name.lower()
    if lowered in ("development", "sandbox"):
        return "development"
    if lowered == "production":
        return "production"
    raise ValueError(f"environment is development (the sandbox) or production, not {name!r}")


class APNsEmulator:
    """One `apns-emulator serve --ephemeral` on free ports, with its own certificates, keys and
    store: the binary as a process (`APNS_EMULATOR_BIN`, or on PATH), or the container image when
    `APNS_EMULATOR_IMAGE` names one (or `image` is given); `stop()` ends it."""

    def __init__(self, binary: Optional[str] = None, options: Optional[Dict[str, Any]] = None, start_timeout: float = 30.0,
                 image: Optional[str] = None, seed: Optional[Union[str, Dict[str, Any]]] = None):
        self.directory = tempfile.mkdtemp(prefix="apns-emulator-pytest-")
        image = image or (None if binary else os.environ.get("APNS_EMULATOR_IMAGE"))
        options = dict(options or {})
        # A seed (docs/seed.schema.json): a file's path, or a document written to one.
        seed = seed if seed is not None else options.pop("seed", None)
        if isinstance(seed, dict):
            path = os.path.join(self.directory, "seed.json")
            with open(path, "w") as f:
                json.dump(seed, f)
            seed = path
        if seed is not None:
            options["seed"] = os.path.abspath(seed)
        if image:
            # A container starts slower than a process: its own start-up, then the image's.
            self._launcher: Any = ContainerLauncher(image, self.directory, options or {}, max(start_timeout, 60.0))
        else:
            self._launcher = BinaryLauncher(binary or find_binary(), self.directory, options or {}, start_timeout)
        self.binary = self._launcher.binary
        self.image = image
        self.ca_path: str = self._launcher.ca_path
        self.keys_directory: str = self._launcher.keys_directory
        self.log_path: str = self._launcher.log_path
        self.host: str = self._launcher.host
        ports = self._launcher.ports
        #: The sandbox endpoint's port (api.sandbox.push.apple.com): development builds' tokens.
        self.http2_port: int = ports["http2"]
        #: The production endpoint's port (api.push.apple.com): TestFlight and App Store builds' tokens.
        self.production_http2_port: int = ports.get("productionHttp2", ports["http2"])
        self.admin_port: int = ports["admin"]
        self.device_port: int = ports["device"]
        self.gateway_port: int = ports["gateway"]
        self.feedback_port: int = ports["feedback"]
        self.channels_port: int = ports["channels"]
        #: The Web Push service's port, which subscriptions' endpoints name (as this machine reaches it).
        self.web_push_port: int = ports["webPush"]
        #: The admin token the emulator asks for (None when it asks for none): sent with every admin request.
        self.admin_token: Optional[str] = self._launcher.admin_token
        admin_headers = {"authorization": f"Bearer {self.admin_token}"} if self.admin_token else {}
        self._admin = httpx.Client(base_url=f"http://{self.host}:{self.admin_port}", headers=admin_headers, timeout=330)
        self._providers: Dict[str, httpx.Client] = {}
        self.faults = Faults(self)
        self.clock = ClockControl(self)
        self.keys = Keys(self)

    # MARK: what a provider library is configured with

    @property
    def url(self) -> str:
        """The provider API's base URL, the sandbox's (the server certificate names localhost)."""
        return f"https://localhost:{self.http2_port}"

    @property
    def sandbox_url(self) -> str:
        """The sandbox endpoint's base URL, where a provider's development setting points
        (Apple: api.sandbox.push.apple.com)."""
        return self.url

    @property
    def production_url(self) -> str:
        """The production endpoint's base URL, where a provider's production setting points
        (Apple: api.push.apple.com)."""
        return f"https://localhost:{self.production_http2_port}"

    def url_for(self, environment: str) -> str:
        """The base URL of `development` (or `sandbox`) or `production`."""
        return self.production_url if _environment(environment) == "production" else self.sandbox_url

    def log(self) -> str:
        """Everything the emulator printed so far."""
        return self._launcher.log()

    # MARK: pushing, as a provider

    def push(
        self, token: str, payload: Union[Dict[str, Any], str, bytes], topic: Optional[str] = None, push_type: Optional[str] = None,
        priority: Optional[int] = None, expiration: Optional[int] = None, collapse_id: Optional[str] = None,
        apns_id: Optional[str] = None, authorization: Optional[str] = None, headers: Optional[Dict[str, str]] = None,
        environment: str = "development",
    ) -> PushResult:
        """Sends a push over HTTP/2 and TLS to the provider API, as a provider does; APNs' answer.
        `environment` is the endpoint: `development` (the sandbox) or `production`; a token of the
        other environment's build is 400 BadDeviceToken, as at Apple."""
        base = self.url_for(environment)
        provider = self._providers.get(base)
        if provider is None:
            provider = httpx.Client(http2=True, verify=ssl.create_default_context(cafile=self.ca_path), base_url=base, timeout=30)
            self._providers[base] = provider
        sent: Dict[str, str] = {}
        for name, value in (("apns-topic", topic), ("apns-push-type", push_type), ("apns-priority", priority),
                            ("apns-expiration", expiration), ("apns-collapse-id", collapse_id), ("apns-id", apns_id),
                            ("authorization", authorization)):
            if value is not None:
                sent[name] = str(value)
        sent.update(headers or {})
        body = payload if isinstance(payload, bytes) else (payload.encode() if isinstance(payload, str) else json.dumps(payload).encode())
        answer = provider.post(f"/3/device/{token}", content=body, headers=sent)
        reason = None
        if answer.content:
            try:
                reason = answer.json().get("reason")
            except ValueError:
                reason = None
        return PushResult(
            status=answer.status_code, reason=reason, apns_id=answer.headers.get("apns-id"), unique_id=answer.headers.get("apns-unique-id"),
            detail=answer.headers.get("apns-emulator-detail"), warnings=answer.headers.get_list("apns-emulator-warning"),
        )

    # MARK: what was pushed

    def notifications(self, token: Optional[str] = None, topic: Optional[str] = None, status: Optional[str] = None,
                      push_type: Optional[str] = None, limit: int = 100, environment: Optional[str] = None) -> List[Notification]:
        """The journal, newest first, filtered (`environment`: the endpoint it was sent to)."""
        query = self._filters(token=token, topic=topic, status=status, pushType=push_type, environment=environment)
        query["limit"] = str(limit)
        return [Notification.from_json(item) for item in self._get("/api/v1/notifications", query)["items"]]

    def wait_for(self, token: Optional[str] = None, topic: Optional[str] = None, timeout: float = 5.0, status: Optional[str] = None,
                 push_type: Optional[str] = None) -> Notification:
        """The first matching notification, waiting up to `timeout` seconds for it; an
        AssertionError listing the near misses (what arrived instead, and why each did not match)."""
        query = self._filters(token=token, topic=topic, status=status, pushType=push_type)
        query["timeout"] = f"{int(timeout * 1000)}ms"
        answer = self._admin.get("/api/v1/notifications/wait", params=query)
        if answer.status_code == 200:
            return Notification.from_json(answer.json())
        if answer.status_code == 408:
            body = answer.json()
            lines = [f"  {miss.get('id')}: {miss.get('status')} to {miss.get('topic')} / {(miss.get('token') or '?')[:12]}: "
                     + "; ".join(miss.get("failed", [])) for miss in body.get("nearMisses", [])]
            wanted = ", ".join(f"{k}={v}" for k, v in query.items() if k != "timeout")
            raise AssertionError(f"no notification with {wanted or 'anything'} within {timeout} s: {body.get('error')}"
                                 + ("\nnear misses:\n" + "\n".join(lines) if lines else ""))
        raise EmulatorError(f"wait: {answer.status_code} {answer.text}")

    # MARK: devices and the phone

    def register_device(self, topic: str, token: Optional[str] = None, environment: Optional[str] = None) -> str:
        """A token issued for `topic` (or `token` made valid), as a device registering gets.
        `environment` is the app build's: `development` (a debug build from Xcode, the default) or
        `production` (TestFlight, the App Store); the token is valid at that endpoint only."""
        body: Dict[str, Any] = {"topic": topic}
        if token:
            body["token"] = token
        if environment is not None:
            body["environment"] = _environment(environment)
        return self._request("POST", "/api/v1/devices", body, expect=201)["token"]

    def check_token(self, token: str) -> Dict[str, Any]:
        """The Push Notifications Console's token validation: `known`, `environment`, `endpoint`,
        `topic`, `deviceId`, `registered`, `registeredAt`, `unregisteredAt`, `queued`, `verdict`."""
        return self._get(f"/api/v1/tokens/{token}")

    def device(self, token: str) -> "Device":
        return Device(self, token)

    # MARK: Web Push

    def subscribe_web_app(self, application_server_key: str, origin: str = "https://app.example", kind: str = "homeScreen",
                          permission: str = "granted", token: Optional[str] = None) -> WebApp:
        """A Home Screen web app (or, with kind="safari", a page in Safari) subscribing with your
        application server's VAPID public key (base64url), as `PushManager.subscribe` does; on the
        device of `token` (a new one when omitted). Its `subscription` is what the page would send
        your server: give it to your Web Push library unchanged (trusting `ca_path`)."""
        host = token or self.register_device("com.example.browser")
        body = {"origin": origin, "kind": kind, "permission": permission, "applicationServerKey": application_server_key}
        made = self._request("POST", f"/api/v1/devices/{host}/web-apps", body, expect=201)
        # The endpoint as this machine reaches the service (a container's port is published elsewhere).
        endpoint = made["subscription"]["endpoint"]
        path = endpoint.split("/", 3)[3]
        made["subscription"]["endpoint"] = f"https://{self.host}:{self.web_push_port}/{path}"
        return WebApp.from_json(made)

    def web_push(self, web_app: WebApp, timeout: float = 5.0) -> WebPush:
        """The oldest web push `web_app` received that the browser has handled, waiting up to
        `timeout` seconds: the message decrypted, what was shown, the VAPID subject."""
        return self.web_pushes(web_app, timeout=timeout, at_least=1)[-1]

    def web_pushes(self, web_app: WebApp, timeout: float = 0.0, at_least: int = 0) -> List[WebPush]:
        """Every web push `web_app` received, newest first, once the browser handled them;
        waits up to `timeout` seconds for `at_least` of them."""
        deadline = time.monotonic() + timeout
        while True:
            items = self._get("/api/v1/notifications", {"token": web_app.token, "interface": "webpush", "limit": "100"})["items"]
            handled = [WebPush.from_json(item) for item in items if (item.get("presentation") or {}).get("webPush")]
            if len(handled) >= at_least:
                return handled
            if time.monotonic() >= deadline:
                raise AssertionError(f"{web_app.origin} ({web_app.id}) received {len(handled)} web pushes within {timeout} s, "
                                     f"not {at_least}: {[item.get('reason') or item.get('status') for item in items]}")
            time.sleep(0.05)

    def show_web_notification(self, web_app: WebApp, title: str, body: Optional[str] = None,
                              navigate: Optional[str] = None) -> Dict[str, Any]:
        """The web app's service worker calls `showNotification(title, {body})` for the oldest push
        still waiting for one; what Notification Center shows."""
        document: Dict[str, Any] = {"title": title}
        if body is not None:
            document["body"] = body
        if navigate is not None:
            document["navigate"] = navigate
        return self._request("POST", f"/api/v1/devices/{web_app.host_token}/web-apps/{web_app.id}/show", document, expect=201)

    # MARK: the provider's report card

    def providers(self) -> List[Dict[str, Any]]:
        """The providers the HTTP/2 provider API has seen (a provider-token key, a certificate, or
        a peer address), the one seen last first."""
        return self._get("/api/v1/providers")["items"]

    def provider_report(self, provider: Optional[str] = None) -> Dict[str, Any]:
        """A provider's report card (`GET /api/v1/providers/<id>/report`): each check's verdict,
        evidence and source. Without an id, the provider seen last."""
        if provider is None:
            seen = self.providers()
            if not seen:
                raise EmulatorError("no provider has sent a request to the HTTP/2 provider API yet")
            provider = seen[0]["id"]
        return self._get(f"/api/v1/providers/{provider}/report")

    def assert_provider_behaves(self, provider: Optional[str] = None, checks: Optional[Sequence[str]] = None) -> Dict[str, Any]:
        """Fails with each failed check's evidence when the provider's report card has a failed
        check (of `checks`, when given); returns the report."""
        report = self.provider_report(provider)
        failed = [c for c in report["checks"] if c["verdict"] == "fail" and (checks is None or c["id"] in checks)]
        if failed:
            lines = [f"{report['provider']['id']} fails {len(failed)} check(s) of its report card:"]
            for check in failed:
                evidence = check["evidence"]
                ids = ", ".join(evidence["apnsIds"][:5])
                lines.append(f"  {check['id']}: {evidence['summary']}" + (f" (apns-ids: {ids})" if ids else ""))
                lines.append(f"    source: {check['source']}")
            raise AssertionError("\n".join(lines))
        return report

    def export(self) -> Dict[str, Any]:
        """The world as a seed document: `APNsEmulator(seed=...)` of it starts the same world."""
        return self._request("POST", "/api/v1/export")

    def reset(self, devices: bool = False) -> None:
        """Empties the queues, the journal and the feedback list, removes fault rules, returns the
        clock to real time; with `devices`, forgets every token too."""
        self._request("POST", "/api/v1/reset", {"devices": devices})

    # MARK: the process

    def stop(self, timeout: float = 10.0) -> None:
        for client in (*self._providers.values(), getattr(self, "_admin", None)):
            if client is not None:
                client.close()
        self._launcher.stop(timeout)

    def remove(self) -> None:
        """Deletes the emulator's directory (certificates, keys, log)."""
        shutil.rmtree(self.directory, ignore_errors=True)

    # MARK: admin API

    @staticmethod
    def _filters(**given: Optional[str]) -> Dict[str, str]:
        return {name: str(value) for name, value in given.items() if value is not None}

    def _get(self, path: str, query: Optional[Dict[str, str]] = None) -> Any:
        answer = self._admin.get(path, params=query)
        if answer.status_code != 200:
            raise EmulatorError(f"GET {path}: {answer.status_code} {answer.text}")
        return answer.json()

    def _request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, expect: int = 200) -> Any:
        answer = self._admin.request(method, path, json=body)
        if answer.status_code != expect:
            raise EmulatorError(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer.json() if answer.content else None


class Device:
    """The phone behind a token: its app's settings, Notification Center, Live Activities, the user."""

    def __init__(self, emulator: APNsEmulator, token: str):
        self.emulator = emulator
        self.token = token

    @property
    def app(self) -> Dict[str, Any]:
        return self.emulator._get(f"/api/v1/devices/{self.token}/app")

    def set_app(self, **fields: Any) -> Dict[str, Any]:
        """Changes the app as the user would in Settings: authorization, appState, categories, ..."""
        return self.emulator._request("PUT", f"/api/v1/devices/{self.token}/app", fields)

    def delivered(self) -> List[Dict[str, Any]]:
        """Notification Center, oldest first."""
        return self.emulator._get(f"/api/v1/devices/{self.token}/delivered")["items"]

    def activities(self) -> List[Dict[str, Any]]:
        return self.emulator._get(f"/api/v1/devices/{self.token}/activities")["items"]

    def respond(self, unique_id: str, action: str = "default", text: Optional[str] = None) -> Dict[str, Any]:
        """The user taps (`default`), dismisses (`dismiss`) or picks an action of a notification."""
        body: Dict[str, Any] = {"action": action}
        if text is not None:
            body["text"] = text
        return self.emulator._request("POST", f"/api/v1/notifications/{unique_id}/respond", body)

    @property
    def focus(self) -> Dict[str, Any]:
        """The device's Focus: `{"deviceId", "active", "allowedApps", "timeSensitive", "apps"}`."""
        return self.emulator._get(f"/api/v1/devices/{self.app['deviceId']}/focus")

    def set_focus(self, active: Optional[str], allowed_apps: Sequence[str] = (), time_sensitive: bool = True,
                  filters: Optional[Dict[str, List[str]]] = None) -> Dict[str, Any]:
        """Turns a Focus on for the whole device (`active=None` ends it): what it does not allow
        is delivered quietly, held by `focus`; time-sensitive notifications break through while
        `time_sensitive` is on, critical alerts always. `filters`: apps' Focus filters, bundle id
        to the `filter-criteria` let through (the rest is held by `focusFilter`)."""
        body: Dict[str, Any] = {"active": active, "allowedApps": list(allowed_apps), "timeSensitive": time_sensitive}
        if filters is not None:
            body["filters"] = filters
        return self.emulator._request("PUT", f"/api/v1/devices/{self.app['deviceId']}/focus", body)

    def set_service_extension(self, command: Optional[str] = None, url: Optional[str] = None,
                              timeout: Optional[str] = None) -> Dict[str, Any]:
        """The app's notification service extension, for alerts with `mutable-content: 1`: a
        `command` run with the content as JSON on standard input (it prints the content to show),
        or a `url` the content is posted to; `timeout` on the emulator's clock (`30s` by default).
        Neither removes it. Each presentation says what it did in `serviceExtension`."""
        extension: Optional[Dict[str, Any]] = None
        if command is not None or url is not None:
            extension = {"command": command} if command is not None else {"url": url}
            if timeout is not None:
                extension["timeout"] = timeout
        return self.set_app(serviceExtension=extension)

    def presentation(self, unique_id: str, timeout: float = 10.0) -> Dict[str, Any]:
        """How the phone presented `unique_id`, once it has (a service extension may take a while);
        raises TimeoutError if it has not within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.emulator._get(f"/api/v1/notifications/{unique_id}")
            if item.get("presentation"):
                return item["presentation"]
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{unique_id} was not presented within {timeout} s: {item.get('phoneOutcome')}")
            time.sleep(0.05)

    def power(self, **state: bool) -> Dict[str, Any]:
        """The device's power state; `online`, `lowPowerMode`, `locked` change it."""
        path = f"/api/v1/devices/{self.token}/power"
        return self.emulator._request("PUT", path, state) if state else self.emulator._get(path)


class Faults:
    def __init__(self, emulator: APNsEmulator):
        self.emulator = emulator

    def add(self, action: Union[str, Dict[str, Any]], match: Optional[Dict[str, Any]] = None, times: Optional[int] = None,
            probability: Optional[float] = None) -> FaultRule:
        """A fault rule: `faults.add({"type": "respond", "reason": "TooManyRequests"}, match={"topic": "..."}, times=1)`."""
        body: Dict[str, Any] = {"action": action, "match": match or {}}
        if times is not None:
            body["times"] = times
        if probability is not None:
            body["probability"] = probability
        rule = self.emulator._request("POST", "/api/v1/faults", body, expect=201)
        return self._rule(rule)

    def list(self) -> List[FaultRule]:
        return [self._rule(rule) for rule in self.emulator._get("/api/v1/faults")]

    def clear(self) -> None:
        self.emulator._request("DELETE", "/api/v1/faults")

    @staticmethod
    def _rule(rule: Dict[str, Any]) -> FaultRule:
        return FaultRule(id=rule["id"], match=rule.get("match", {}), action=rule["action"], times=rule.get("times"),
                         probability=rule.get("probability"), hits=rule.get("hits", 0))


class ClockControl:
    def __init__(self, emulator: APNsEmulator):
        self.emulator = emulator

    def advance(self, by: str) -> Clock:
        """Moves the emulator's clock forward (`"90m"`, `"2h"`, `"30s"`); what expires is expired at once."""
        answer = self.emulator._request("POST", "/api/v1/clock", {"advance": by})
        return Clock(now=answer["now"], offset_ms=answer["offsetMs"])

    @property
    def now(self) -> Clock:
        answer = self.emulator._get("/api/v1/clock")
        return Clock(now=answer["now"], offset_ms=answer["offsetMs"])


class Keys:
    def __init__(self, emulator: APNsEmulator):
        self.emulator = emulator

    def create(self, team_id: str = "TEAM123456", key_id: Optional[str] = None, topics: Optional[List[str]] = None,
               environment: Optional[str] = None) -> ProviderKey:
        """A new signing key the running emulator trusts at once (`--auth strict`)."""
        out = "/data/creds" if self.emulator.image else os.path.join(self.emulator.directory, "creds")
        arguments = ["keys", "create", "--team-id", team_id, "--keys", self.emulator.keys_directory, "--out", out]
        if key_id:
            arguments += ["--key-id", key_id]
        if topics:
            arguments += ["--topics", ",".join(topics)]
        if environment:
            arguments += ["--environment", environment]
        run = self.emulator._launcher.command(arguments)
        if run.returncode != 0:
            raise EmulatorError(f"keys create: {run.stderr or run.stdout}")
        # "private key: <dir>/AuthKey_<KEY ID>.p8  (give this to the provider, ...)"
        path = next((line.split()[2] for line in run.stdout.splitlines() if line.startswith("private key: ")), None)
        if path is None:
            raise EmulatorError(f"keys create did not say where the key is: {run.stdout}")
        name = os.path.basename(path)
        local = self.emulator._launcher.fetch(path, os.path.join(self.emulator.directory, name))
        return ProviderKey(key_id=name[len("AuthKey_"):-len(".p8")], team_id=team_id, p8_path=os.path.abspath(local))
