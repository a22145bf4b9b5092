"""Who is calling, whether they may, and how often: API key, client identity, rate limit.

Safe defaults: the server binds 127.0.0.1 unless told otherwise
(``Settings.host``); when ``REPORTGEN_API_KEY`` is set every request but the
agent cards (and the browse login form) must carry the key, compared in
constant time. Request bodies are capped by FastAPI's own ``max_body_size``
(``Settings.max_body_size``, HTTP 413).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import threading
import time
from urllib.parse import quote

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "ApiKeyMiddleware",
    "KEY_COOKIE",
    "PUBLIC_PATHS",
    "RateLimiter",
    "client_of",
    "key_matches",
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


def client_of(scope: Scope) -> str:
    """The client a request counts against for caps and rate limits.

    With an API key configured, the (valid) key is the client:
    ``"key:<12 hex digits of its SHA-256>"``; otherwise the peer address,
    ``"ip:<address>"``. Set by :class:`ApiKeyMiddleware` in
    ``scope["state"]["client"]``.
    """
    return scope.get("state", {}).get("client") or _peer(scope)


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return f"ip:{client[0]}" if client else "ip:unknown"


class ApiKeyMiddleware:
    """Identify the client and, when a key is configured, refuse requests without it.

    A request without the right key gets HTTP 401 (JSON, with
    ``WWW-Authenticate``); a browser asking for a browse page is sent to
    ``/login`` instead.

    Args:
        app: The ASGI app.
        api_key: The key; ``None`` or empty lets every request through.
    """

    def __init__(self, app: ASGIApp, api_key: str | None) -> None:
        self.app = app
        self.api_key = api_key or None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        if self.api_key is None:
            state["client"] = _peer(scope)
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        presented = presented_key(headers)
        if key_matches(presented, self.api_key):
            state["client"] = "key:" + _digest(self.api_key).hex()[:12]
            await self.app(scope, receive, send)
            return
        state["client"] = _peer(scope)
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

    def _forget_idle(self, now: float) -> None:
        if len(self._buckets) <= self.MAX_CLIENTS:
            return
        for client, (tokens, last) in list(self._buckets.items()):
            if tokens + (now - last) * self.rate >= self.capacity:
                del self._buckets[client]
