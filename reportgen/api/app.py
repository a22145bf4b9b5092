"""The app factory: REST API, SSE, agent cards, the A2A endpoint and the browse pages on one FastAPI app."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.middleware.trustedhost import TrustedHostMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from reportgen.api import browse, reports
from reportgen.api.a2a import mount_a2a
from reportgen.api.card import a2a_agent_card, agent_card
from reportgen.api.security import ApiKeyMiddleware, Authenticator, RateLimiter
from reportgen.config import Settings, get_settings
from reportgen.keys import KeyStore
from reportgen.store import JobStore
from reportgen.worker import Worker

__all__ = ["create_app"]

DESCRIPTION = """\
Request cited, charted reports on a topic and follow them live.

* `POST /reports` queues a report (202) — `GET /reports/{id}` tells its status
  and progress — `GET /reports/{id}/events` streams it (Server-Sent Events) —
  `GET /reports/{id}/report.pdf|.html|.json` fetches the results —
  `DELETE /reports/{id}` cancels or deletes it.
* With `"review": true` the job stops at `input_required`: `GET /reports/{id}/plan`
  reads the plan, `PUT /reports/{id}/plan` replaces it, `POST /reports/{id}/review`
  approves it or gives guidance.
* `GET /.well-known/agent-card.json` is the A2A 1.0 agent card; the A2A
  JSON-RPC endpoint (1.0 and 0.3) is `POST /a2a`; `/.well-known/agent.json` is
  the legacy card in the 0.3 form.
* When the server has keys (`REPORTGEN_API_KEY`, or users' keys made with
  `reportgen keys create`), send yours as `X-API-Key: <key>` or
  `Authorization: Bearer <key>`. A user sees only their own reports and
  tasks (another's report id is 404); an admin sees all.
"""


def _safe(value: object) -> str:
    """A location part or message that is always valid JSON text (no lone surrogates)."""
    return str(value).encode("utf-8", "replace").decode("utf-8")


async def _invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """422 for every invalid request, naming each problem without echoing the input.

    The default handler echoes the offending input back, and some input
    cannot be written as JSON (``1e400`` is parsed as infinity, a lone
    surrogate is not UTF-8): that made a 500 of a 422.
    """
    assert isinstance(exc, RequestValidationError)
    errors = [{"loc": [_safe(part) for part in e.get("loc", ())], "msg": _safe(e.get("msg", "")),
               "type": _safe(e.get("type", ""))} for e in exc.errors()]
    return JSONResponse({"detail": errors}, status_code=422)


def create_app(
    settings: Settings | None = None,
    *,
    search: Any = None,
    backoff_scale: float = 1.0,
    allow_private_push: bool = False,
) -> FastAPI:
    """Build the report service.

    The worker starts with the app (its lifespan) and resumes every job that
    was unfinished when the service last stopped.

    Middleware, outermost first: the ``Host`` check (``Settings.allowed_hosts``
    and the host of ``public_url``; others get 400), the forwarding headers
    of ``Settings.trusted_proxies`` only (uvicorn's own middleware, added
    only when proxies are listed), the A2A content-type check, then the key
    check (:class:`~reportgen.api.security.ApiKeyMiddleware`).

    Args:
        settings: Settings; default :func:`get_settings`.
        search: A search backend to use for every report instead of the
            configured corpora (tests pass a fake).
        backoff_scale: Multiplier on retry delays (0 in tests).
        allow_private_push: Let A2A push webhooks call loopback, private and
            link-local addresses (refused by default: SSRF defence).

    Returns:
        The ASGI app.
    """
    from reportgen import __version__

    settings = settings or get_settings()
    store = JobStore(settings.jobs_db)
    worker = Worker(settings, store, search=search, backoff_scale=backoff_scale)
    limiter = RateLimiter(settings.rate_limit)
    api_key = settings.api_key.get_secret_value() if settings.api_key else ""
    keys = KeyStore(settings.jobs_db)
    auth = Authenticator(api_key, keys, settings.auth_failures_per_minute)
    configured_url = settings.public_url.rstrip("/") if settings.public_url else None
    handler_holder: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await worker.start()
        try:
            yield
        finally:
            await worker.stop()
            await handler_holder["a2a"].close()
            store.close()
            keys.close()

    app = FastAPI(
        title="reportgen",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        max_body_size=settings.max_body_bytes,
    )
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.state.settings = settings
    app.state.worker = worker
    app.state.limiter = limiter
    app.state.auth = auth
    app.add_middleware(ApiKeyMiddleware, auth=auth)

    def base_url(request: Request) -> str:
        return configured_url or str(request.base_url).rstrip("/")

    @app.get("/.well-known/agent.json", tags=["agent"], summary="The legacy agent card (A2A 0.3)")
    async def get_agent_card(request: Request) -> JSONResponse:
        """The card at its pre-1.0 place, in the 0.3 form (`protocolVersion` 0.3.0, `url` the JSON-RPC
        endpoint, which serves 0.3 requests), plus the `generate-report` skill's input schema, the REST
        endpoints, corpora and templates. Needs no API key."""
        return JSONResponse(agent_card(settings, base_url(request), worker.templates(),
                                       keyed=auth.required()))

    @app.get("/.well-known/agent-card.json", tags=["agent"], summary="The A2A agent card (a2a-sdk)")
    async def get_a2a_agent_card(request: Request) -> JSONResponse:
        """The official A2A `AgentCard`, where A2A clients look; its interface is `POST /a2a`.
        Needs no API key."""
        return JSONResponse(agent_card_to_dict(a2a_agent_card(settings, base_url(request), keyed=auth.required())))

    app.include_router(reports.router)
    app.include_router(browse.router)
    handler_holder["a2a"] = mount_a2a(
        app, worker, limiter, configured_url or f"http://{settings.host}:{settings.port}",
        allow_private_push=allow_private_push,
    )
    if settings.trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(settings), www_redirect=False)
    return app


def allowed_hosts(settings: Settings) -> list[str]:
    """The ``Host`` names the service answers to.

    ``Settings.allowed_hosts``, the host of ``public_url``, and the address
    ``reportgen serve`` binds when it is one address (not ``0.0.0.0`` / ``::``):
    a server on ``192.168.1.5`` answers ``http://192.168.1.5:8000/``.

    Args:
        settings: The settings.

    Returns:
        Lower-case host names or ``*.domain`` patterns (Starlette's
        ``TrustedHostMiddleware`` form; IPv6 literals in brackets).
    """
    from urllib.parse import urlsplit

    hosts = list(settings.allowed_hosts)
    names = [urlsplit(settings.public_url).hostname if settings.public_url else None]
    if settings.host not in ("0.0.0.0", "::", ""):
        names.append(settings.host.strip("[]").lower())
    for name in names:
        if name:
            hosts.append(f"[{name}]" if ":" in name else name)  # an IPv6 literal keeps its brackets in Host
    return list(dict.fromkeys(hosts))
