"""Typed results of the emulator's answers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(frozen=True)
class PushResult:
    """APNs' answer to one push: 200, or a rejection with its reason."""

    status: int
    reason: Optional[str]
    apns_id: Optional[str]
    unique_id: Optional[str]
    #: The emulator's explanation of a rejection (`apns-emulator-detail`).
    detail: Optional[str]
    #: Warnings the emulator attached (`apns-emulator-warning`).
    warnings: List[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass(frozen=True)
class Notification:
    """One journal item: a notification the emulator received, and where it stands."""

    id: str
    token: Optional[str]
    topic: Optional[str]
    push_type: Optional[str]
    priority: Optional[int]
    status: str
    source: str
    payload: Any
    received_at: str
    apns_id: Optional[str] = None
    unique_id: Optional[str] = None
    collapse_id: Optional[str] = None
    reason: Optional[str] = None
    presentation: Optional[Dict[str, Any]] = None
    #: The endpoint it was sent to: development (the sandbox) or production; None for Web Push's refusals.
    environment: Optional[str] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, item: Dict[str, Any]) -> "Notification":
        return cls(
            id=item["id"], token=item.get("token"), topic=item.get("topic"), push_type=item.get("pushType"),
            priority=item.get("priority"), status=item["status"], source=item["source"], payload=item.get("payload"),
            received_at=item["receivedAt"], apns_id=item.get("apnsId"), unique_id=item.get("uniqueId"),
            collapse_id=item.get("collapseId"), reason=item.get("reason"), presentation=item.get("presentation"),
            environment=item.get("environment"), raw=item,
        )

    def describe(self) -> str:
        what = f"{self.status} {self.push_type or '?'} to {self.topic or '?'} / {(self.token or '?')[:12]}"
        return what + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True)
class FaultRule:
    id: str
    match: Dict[str, Any]
    action: Dict[str, Any]
    times: Optional[int]
    probability: Optional[float]
    hits: int


@dataclass(frozen=True)
class ProviderKey:
    """A provider-token signing key the running emulator trusts: what a provider library takes."""

    key_id: str
    team_id: str
    #: The `.p8` file (PKCS#8 PEM).
    p8_path: str

    @property
    def p8(self) -> str:
        with open(self.p8_path) as f:
            return f.read()


@dataclass(frozen=True)
class Clock:
    now: str
    offset_ms: int


@dataclass(frozen=True)
class WebApp:
    """A web app subscribed to Web Push on the emulated phone (or a page in Safari on a Mac)."""

    id: str
    origin: str
    kind: str
    #: What `PushSubscription.toJSON()` gives the page: `endpoint`, `expirationTime`, `keys` (p256dh, auth).
    subscription: Dict[str, Any]
    #: The token its pushes queue under (the journal's `token`), and its device's app's.
    token: str
    host_token: str
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, item: Dict[str, Any]) -> "WebApp":
        return cls(id=item["id"], origin=item["origin"], kind=item["kind"], subscription=item["subscription"],
                   token=item["token"], host_token=item["hostToken"], raw=item)


@dataclass(frozen=True)
class WebPush:
    """One web push as the emulated browser handled it."""

    unique_id: str
    #: declarative (shown by Safari), serviceWorker, notAllowed, undecryptable or unsubscribed.
    outcome: str
    #: The decrypted message (None when it did not decrypt, or is not UTF-8).
    message: Optional[str]
    shown: bool
    title: Optional[str]
    body: Optional[str]
    navigate: Optional[str]
    app_badge: Optional[int]
    vapid_subject: Optional[str]
    urgency: Optional[str]
    topic: Optional[str]
    detail: str
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, item: Dict[str, Any]) -> "WebPush":
        presentation = item.get("presentation") or {}
        web = presentation.get("webPush") or {}
        return cls(unique_id=item.get("uniqueId") or item["id"], outcome=web.get("outcome", ""), message=web.get("message"),
                   shown=bool(presentation.get("shown")), title=presentation.get("title"), body=presentation.get("body"),
                   navigate=web.get("navigate"), app_badge=web.get("appBadge"), vapid_subject=web.get("vapidSubject"),
                   urgency=web.get("urgency"), topic=web.get("topic"), detail=web.get("detail", ""), raw=item)
