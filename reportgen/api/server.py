"""How ``reportgen serve`` runs the app on uvicorn: no forwarding headers believed by uvicorn, and a request deadline.

Two of uvicorn's defaults do not suit a service that counts clients by address:

- ``proxy_headers=True`` with ``forwarded_allow_ips="127.0.0.1,::1"``
  (uvicorn 0.54 ``Config``): any local process could send a new forged
  ``X-Forwarded-For`` on each request and count as a new client each time,
  past the per-client cap and rate limit. Here uvicorn's proxy middleware is
  off; the app adds it itself, only for ``Settings.trusted_proxies``
  (:func:`reportgen.api.create_app`).
- No time limit on receiving a request: ``timeout_keep_alive`` covers only the
  idle time *between* requests and is reset by every byte received, so a
  client trickling its headers or body holds the connection for ever
  (slowloris; uvicorn has no request-receipt timeout, see the analysis in
  xorbitsai/inference#5213, which works around it the same way).
  :class:`DeadlineH11Protocol` gives every request ``Settings.request_timeout_s``
  to arrive whole, headers and body, from the connection's start or from the
  end of the previous response; a request that is late is answered ``408
  Request Timeout`` and the connection closed (a connection that sent nothing
  is just closed). Responses (SSE streams included) are
  never cut: the deadline stops once the request is in.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from reportgen.config import Settings

__all__ = ["DeadlineH11Protocol", "uvicorn_options"]

_TIMEOUT_RESPONSE = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on receiving each request (headers and body).

    Args:
        *args: Passed to :class:`uvicorn.protocols.http.h11_impl.H11Protocol`.
        request_timeout_s: Seconds a request has to arrive whole.
        **kwargs: Passed on too.
    """

    def __init__(self, *args: Any, request_timeout_s: float = 20.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_timeout_s = request_timeout_s
        self._deadline: Any = None
        self._started = False  # a byte of the current request has come

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout_s, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _receiving(self) -> bool:
        """Whether a request is still (or not yet) coming in and nothing has been answered to it."""
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            return False
        cycle = self.cycle
        return cycle is None or cycle.response_complete or not cycle.response_started

    def _late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or not self._receiving():
            return
        if self._started:  # part of a request came: say why it is closed (nothing came: just close)
            self.logger.warning("request not received within %s s; closing the connection", self.request_timeout_s)
            self.transport.write(_TIMEOUT_RESPONSE)
        self.transport.close()

    def connection_made(self, transport: Any) -> None:  # noqa: D102
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:  # noqa: D102
        self._started = self._started or bool(data)
        super().data_received(data)

    def handle_events(self) -> None:  # noqa: D102
        super().handle_events()
        if self._deadline is not None and not self._receiving():
            self._disarm()

    def on_response_complete(self) -> None:  # noqa: D102
        self._started = False
        super().on_response_complete()  # may handle a pipelined request at once
        if not self.transport.is_closing() and self._receiving():
            self._arm()  # the next request on this connection gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:  # noqa: D102
        self._disarm()
        super().connection_lost(exc)


def uvicorn_options(settings: Settings, **overrides: Any) -> dict[str, Any]:
    """The :func:`uvicorn.run` / :class:`uvicorn.Config` arguments ``reportgen serve`` (and the tests) use.

    Args:
        settings: The service's settings (``host``, ``port``, ``request_timeout_s``, ``shutdown_grace_s``).
        **overrides: Other :class:`uvicorn.Config` arguments (``log_level``, ...), or replacements.

    Returns:
        Keyword arguments: h11 with the request deadline, uvicorn's proxy
        headers off, a 5 s keep-alive (uvicorn's default), the graceful
        shutdown a little longer than the workers' grace.
    """
    values: dict[str, Any] = {
        "host": settings.host, "port": settings.port, "log_level": "info", "lifespan": "on", "ws": "none",
        "http": partial(DeadlineH11Protocol, request_timeout_s=settings.request_timeout_s),
        "proxy_headers": False, "forwarded_allow_ips": "", "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": int(settings.shutdown_grace_s) + 5,
    }
    values.update(overrides)
    return values
