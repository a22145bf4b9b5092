"""Who is calling, whether they may, and how often: API keys, users, client identity, rate limits.

Safe defaults: the server binds 127.0.0.1 unless told otherwise
(``Settings.host``). Once ``REPORTGEN_API_KEY`` is set or any user key exists
(``reportgen keys create``, :mod:`reportgen.keys`), every request but the
agent cards (and the browse login form) must carry a key. The single
``REPORTGEN_API_KEY`` is an admin key, compared in constant time; a user key
is looked up by its SHA-256. A keyless server has one user, everyone: every
caller is an admin of it, as before users existed.

A caller is :class:`Caller`: the client its jobs, caps and rate limits count
by (``"user:<name>"``, ``"key:<hash>"`` for the single key, ``"ip:<address>"``
without a key) and whether it is an admin. Non-admins see only the jobs
recorded under their own client (:func:`may_see`).

Wrong keys are throttled per client address (``Settings.auth_failures_per_minute``):
past the limit every request carrying a key gets HTTP 429 with
``Retry-After``, the right key too, so the answer tells a guesser nothing.
Request bodies are capped by FastAPI's own ``max_body_size``
(``Settings.max_body_size``, HTTP 413).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import threading
import time
from typing import NamedTuple
from urllib.parse import quote

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from reportgen.keys import KeyStore

__all__ = [
    "ApiKeyMiddleware",
    "Authenticator",
    "Caller",
    "KEY_COOKIE",
    "PUBLIC_PATHS",
    "RateLimiter",
    "caller_of",
    "client_of",
    "key_matches",
    "may_see",
    "peer_of",
    "presented_key",
]

#: Paths anyone may fetch, key or not: the agent cards (A2A discovery must
#: work before a client has credentials), the browse page's login form and
#: its stylesheet and script (nothing secret; the form needs them).
PUBLIC_PATHS = frozenset({
    "/.well-known/agent.json", "/.well-known/agent-card.json", "/login",
    "/browse/static/browse.css", "/browse/static/progress.js",
})

#: Cookie the browse page's login form sets, so that links, the report
#: iframe and the EventSource stream carry the key.
KEY_COOKIE = "reportgen_key"


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest()


def key_matches(presented: str | None, key: str) -> bool:
    """Compare a presented key with the configured one in constant time.

    Both sides are hashed first, so the comparison takes the same time
    whatever the presented key's length.
    """
    if presented is None:
        return False
    return hmac.compare_digest(_digest(presented), _digest(key))


def presented_key(headers: Headers) -> str | None:
    """The key a request carries: ``X-API-Key``, ``Authorization: Bearer`` or the login cookie."""
    if value := headers.get("x-api-key"):
        return value
    auth = headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == KEY_COOKIE and value:
            return value
    return None


class Caller(NamedTuple):
    """Who a request comes from.

    Attributes:
        client: What its jobs are recorded under and its caps and rate
            limits count by: ``"user:<name>"`` (a user key), ``"key:<12 hex
            digits of its SHA-256>"`` (the single ``REPORTGEN_API_KEY``) or
            ``"ip:<address>"`` (no key).
        admin: Whether it sees and touches every client's jobs.
    """

    client: str
    admin: bool


def caller_of(scope: Scope) -> Caller:
    """The caller :class:`ApiKeyMiddleware` identified (an admin by its address when it did not run)."""
    state = scope.get("state", {})
    return Caller(state.get("client") or peer_of(scope), bool(state.get("admin", "client" not in state)))


def client_of(scope: Scope) -> str:
    """The client a request counts against for caps and rate limits (see :class:`Caller`)."""
    return caller_of(scope).client


def may_see(scope: Scope, owner: str) -> bool:
    """Whether the request's caller may see and touch what ``owner`` (a job's ``client``) holds.

    Args:
        scope: The request's ASGI scope.
        owner: The client the job was recorded under.

    Returns:
        True for an admin and for the owner itself.
    """
    caller = caller_of(scope)
    return caller.admin or caller.client == owner


def peer_of(scope: Scope) -> str:
    """The request's peer address as a client, ``"ip:<address>"`` (after trusted proxies' headers)."""
    client = scope.get("client")
    return f"ip:{client[0]}" if client else "ip:unknown"


class Authenticator:
    """Checks presented keys against the single key and the users' keys, and throttles wrong ones.

    Args:
        api_key: The single ``REPORTGEN_API_KEY`` (an admin key); ``None`` or empty for none.
        keys: The users' keys.
        failures_per_minute: Wrong keys one client address may send a minute.
        clock: Monotonic clock of the failure throttle (tests pass a fake).
    """

    def __init__(self, api_key: str | None, keys: KeyStore | None, failures_per_minute: int = 10,
                 clock=time.monotonic) -> None:  # noqa: ANN001
        self.api_key = api_key or None
        self.keys = keys
        self.failures = RateLimiter(failures_per_minute, clock=clock)

    def required(self) -> bool:
        """Whether requests must carry a key (the single key is set, or a user key exists)."""
        return self.api_key is not None or (self.keys is not None and self.keys.has_keys())

    def authenticate(self, presented: str | None) -> Caller | None:
        """The caller ``presented`` identifies, or ``None`` for a missing, unknown or revoked key."""
        if presented is None:
            return None
        if self.api_key is not None and key_matches(presented, self.api_key):
            return Caller("key:" + _digest(self.api_key).hex()[:12], True)
        found = self.keys.lookup(presented) if self.keys is not None else None
        return Caller(found.client, found.admin) if found is not None else None

    def blocked(self, peer: str) -> float:
        """Seconds ``peer`` must wait before a key it sends is checked again (``0.0``: now)."""
        return self.failures.blocked(peer)

    def failed(self, peer: str) -> None:
        """Count one wrong key from ``peer``."""
        self.failures.acquire(peer)


class ApiKeyMiddleware:
    """Identify the caller and, when keys are in use, refuse requests without a valid one.

    A request without a valid key gets HTTP 401 (JSON, with
    ``WWW-Authenticate``); a browser asking for a browse page is sent to
    ``/login`` instead. A client address that sent too many wrong keys gets
    HTTP 429 with ``Retry-After`` for every request carrying a key.

    Args:
        app: The ASGI app.
        auth: The key checks.
    """

    def __init__(self, app: ASGIApp, auth: Authenticator) -> None:
        self.app = app
        self.auth = auth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        peer = peer_of(scope)
        state["client"], state["admin"] = peer, True
        if not self.auth.required():
            await self.app(scope, receive, send)
            return
        state["admin"] = False
        presented = presented_key(Headers(scope=scope))
        if presented is not None:
            if wait := self.auth.blocked(peer):
                body = json.dumps({"detail": "too many wrong API keys from this address; try again later"})
                await _respond(send, 429, body.encode(), [
                    (b"content-type", b"application/json"), (b"retry-after", str(int(wait)).encode()),
                ])
                return
            caller = self.auth.authenticate(presented)
            if caller is not None:
                state["client"], state["admin"] = caller
                await self.app(scope, receive, send)
                return
            self.auth.failed(peer)
        path = scope.get("path", "")
        if path in PUBLIC_PATHS:
            await self.app(scope, receive, send)
            return
        if scope.get("method") == "GET" and (path == "/" or path.startswith("/browse")):
            target = path + ("?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else "")
            await _respond(send, 303, b"", [(b"location", f"/login?next={quote(target, safe='')}".encode())])
            return
        detail = "missing API key" if presented is None else "wrong API key"
        body = json.dumps({"detail": f"{detail}: send it as 'X-API-Key: <key>' or 'Authorization: Bearer <key>'"})
        await _respond(send, 401, body.encode(), [
            (b"content-type", b"application/json"),
            (b"www-authenticate", b'Bearer realm="reportgen"'),
        ])


async def _respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [*headers, (b"content-length", str(len(body)).encode())],
    })
    await send({"type": "http.response.body", "body": body})


class RateLimiter:
    """A token bucket per client: ``per_minute`` requests a minute, bursts up to as many.

    Args:
        per_minute: Sustained rate and bucket size.
        clock: Monotonic clock in seconds (tests pass a fake).
    """

    #: Buckets kept before full (idle) ones are forgotten.
    MAX_CLIENTS = 10_000

    def __init__(self, per_minute: int, clock=time.monotonic) -> None:  # noqa: ANN001
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def acquire(self, client: str) -> float:
        """Take one token for ``client``.

        Returns:
            ``0.0`` when the request may go ahead (a token was taken), else
            the whole seconds to wait before one is available (for ``Retry-After``).
        """
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.get(client, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[client] = (tokens - 1.0, now)
                self._forget_idle(now)
                return 0.0
            self._buckets[client] = (tokens, now)
            return float(max(1, math.ceil((1.0 - tokens) / self.rate)))

    def blocked(self, client: str) -> float:
        """Like :meth:`acquire` without taking a token: ``0.0`` when one is available, else the seconds to wait."""
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.get(client, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
        return 0.0 if tokens >= 1.0 else float(max(1, math.ceil((1.0 - tokens) / self.rate)))

    def _forget_idle(self, now: float) -> None:
        if len(self._buckets) <= self.MAX_CLIENTS:
            return
        for client, (tokens, last) in list(self._buckets.items()):
            if tokens + (now - last) * self.rate >= self.capacity:
                del self._buckets[client]
