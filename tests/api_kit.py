"""Helpers for the report-service tests: settings, a slow fake search, the app in-process or on a real port."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import shutil
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from reportgen.api import create_app
from reportgen.config import Settings, get_settings

from fakes import FakeSearch

TOPIC = "Renewable energy"


class SlowSearch(FakeSearch):
    """:class:`FakeSearch` that takes ``delay`` seconds per search (runs long enough to watch)."""

    def __init__(self, delay: float = 0.2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.delay = delay

    def search(self, query: str, k: int = 10):  # noqa: ANN201
        time.sleep(self.delay)
        return super().search(query, k)


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings in the test's data dir, reports under ``tmp_path / "out"``."""
    values: dict[str, Any] = {"home": get_settings().home, "out_dir": tmp_path / "out", "shutdown_grace_s": 10.0}
    values.update(overrides)
    return Settings(**values)


def make_app(tmp_path: Path, search: Any = None, **overrides: Any) -> FastAPI:
    """The app with a fake search (fast by default) and no retry delays."""
    return create_app(make_settings(tmp_path, **overrides), search=search or FakeSearch(), backoff_scale=0)


@contextlib.asynccontextmanager
async def client(app: FastAPI, *, lifespan: bool = True, **kwargs: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client on the ASGI app; with ``lifespan`` the worker runs too."""
    transport = httpx.ASGITransport(app=app)
    async with contextlib.AsyncExitStack() as stack:
        if lifespan:
            await stack.enter_async_context(app.router.lifespan_context(app))
        yield await stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url="http://testserver", **kwargs)
        )


async def wait_until(check: Callable[[], Any], timeout: float = 30.0, step: float = 0.05) -> Any:
    """Poll ``check`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        await asyncio.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {check}")


class LiveServer:
    """The app on a real uvicorn, 127.0.0.1 and an ephemeral port, in a thread.

    Use as a context manager; leaving it stops the server (and the worker,
    gracefully) and waits for the thread. ``**options`` are more
    :class:`uvicorn.Config` arguments (e.g. ``reportgen serve``'s, from
    :func:`reportgen.api.server.uvicorn_options`).
    """

    def __init__(self, app: FastAPI, **options: Any) -> None:
        self.app = app
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, **{
            "log_level": "warning", "lifespan": "on", "ws": "none", "http": "h11",
            "timeout_graceful_shutdown": 3, "timeout_keep_alive": 1, **options,
        })
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._serve, name=f"uvicorn-{self.port}", daemon=True)

    def _serve(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop the server and wait for it (at most 30 s)."""
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()
        assert not self.thread.is_alive(), "the server did not stop"

    def __exit__(self, *exc: object) -> None:
        if self.thread.is_alive():
            self.stop()
        else:
            self.sock.close()


@contextlib.contextmanager
def live(app: FastAPI, **options: Any) -> Iterator[LiveServer]:
    """``with live(app) as server:`` — the app served on ``server.url`` (``options``: see :class:`LiveServer`)."""
    with LiveServer(app, **options) as server:
        yield server


@pytest.fixture(scope="session")
def _finished_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One report made through the API, once per session (a data dir and an outputs folder)."""
    base = tmp_path_factory.mktemp("finished-report")
    # Session-scoped: set up before the per-test environment (conftest) that allows "testserver".
    settings = Settings(home=base / "home", out_dir=base / "out",
                        allowed_hosts=["localhost", "127.0.0.1", "[::1]", "testserver"])

    async def make() -> str:
        app = create_app(settings, search=FakeSearch(), backoff_scale=0)
        async with client(app) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()
            await http.get(f"/reports/{job['id']}/events")  # ends when the job does
            assert (await http.get(f"/reports/{job['id']}")).json()["status"] == "completed"
        return job["id"]

    return base, asyncio.run(make())


@pytest.fixture
def finished(_finished_once: tuple[Path, str], tmp_path: Path, reportgen_home: Path) -> str:
    """A completed report in this test's data dir and ``tmp_path / "out"``; returns its id.

    Import it (``from api_kit import finished, _finished_once``) to use it; build the app
    with :func:`make_app` afterwards.
    """
    base, report_id = _finished_once
    shutil.copy2(base / "home" / "jobs.sqlite", reportgen_home / "jobs.sqlite")
    shutil.copytree(base / "out", tmp_path / "out", dirs_exist_ok=True)
    return report_id


async def sse_events(response):  # noqa: ANN001, ANN201 - an httpx streaming response; an async iterator of dicts
    """Yield the server-sent events of a streaming response ({'event', 'id', 'data'}) as they arrive."""
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if not line:
            if "data" in fields:
                yield fields
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
