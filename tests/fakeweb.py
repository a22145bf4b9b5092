"""A fixture website on 127.0.0.1, and a search stub that points at it.

The real fetch and extraction code runs against it; nothing leaves the
machine. :class:`FakeSite` is a stdlib ``ThreadingHTTPServer`` on an
ephemeral port, serving in a background thread; the ``fake_site`` fixture
starts one per test and stops it afterwards (slow handlers wake up at once
when it stops). Routes:

==========================  ==================================================
``/<file>``                 a file of ``tests/fixtures/web/`` (``.html`` as
                            text/html, ``.txt`` as text/plain): the content
                            pages in :data:`CONTENT_PAGES`, ``empty.html``
``/hostile.html``           ``tests/fixtures/hostile/script-and-handlers.html``
``/slow.html``              waits ``slow_s`` seconds before answering
``/trickle.html``           answers at once, then sends a byte every 0.1 s
``/missing.html``           404 (so does every unknown path)
``/busy.html``              429 with ``Retry-After: 7``
``/busy-date.html``         429 with an HTTP-date ``Retry-After`` 120 s ahead
``/down.html``              503 with ``Retry-After: 3``
``/huge.html``              ``huge_bytes`` of HTML, streamed without a length
``/huge-declared.html``     a ``Content-Length`` of ``huge_bytes``
``/data.bin``               application/octet-stream
``/doc.pdf``                a one-page PDF with text (application/pdf)
``/redirect/<n>``           a chain of ``n`` redirects ending at ``/solar.html``
``/loop.html``              redirects to itself
==========================  ==================================================

Every request is counted in :attr:`FakeSite.hits` (path -> count).

The ``fake_site`` fixture is registered for the whole suite (``tests/conftest.py``).
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
WEB_ROOT = FIXTURES / "web"
HOSTILE_PAGE = FIXTURES / "hostile" / "script-and-handlers.html"

#: Pages with text and numbers, in the order the stub search returns them.
CONTENT_PAGES: tuple[str, ...] = (
    "/solar.html",
    "/wind.html",
    "/renewables-2023.html",
    "/hydro.html",
    "/storage.html",
)

_TYPES = {".html": "text/html; charset=utf-8", ".txt": "text/plain; charset=utf-8"}


def tiny_pdf(text: str) -> bytes:
    """Return a minimal, valid one-page PDF showing ``text`` (ASCII, one line)."""
    safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    stream = f"BT /F1 12 Tf 72 720 Td ({safe}) Tj ET".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


PDF_TEXT = "Geothermal plants had an installed capacity of 16 GW in 2023."


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins every handler thread
    block_on_close = True
    site: FakeSite

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client hanging up mid-answer (size cap, deadline) is expected


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"  # one request per connection: simple and closed

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        site = self.server.site
        path = self.path.split("?", 1)[0]
        site._record(path, dict(self.headers.items()))
        try:
            self._route(site, path)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send(self, status: int, body: bytes = b"", content_type: str = "text/html; charset=utf-8",
              headers: dict[str, str] | None = None, length: bool = True) -> None:  # fmt: skip
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def _route(self, site: FakeSite, path: str) -> None:  # noqa: C901 - a route table
        if path == "/hostile.html":
            self._send(200, HOSTILE_PAGE.read_bytes())
        elif path == "/slow.html":
            site._stopping.wait(site.slow_s)
            self._send(200, b"<html><body><p>Too late.</p></body></html>")
        elif path == "/trickle.html":
            self._send(200, length=False)
            for _ in range(int(site.slow_s * 10)):
                if site._stopping.wait(0.1):
                    break
                self.wfile.write(b"<p>x</p>")
                self.wfile.flush()
        elif path == "/busy.html":
            self._send(429, b"slow down", "text/plain", {"Retry-After": "7"})
        elif path == "/busy-date.html":
            when = email.utils.formatdate(time.time() + 120, usegmt=True)
            self._send(429, b"slow down", "text/plain", {"Retry-After": when})
        elif path == "/down.html":
            self._send(503, b"down", "text/plain", {"Retry-After": "3"})
        elif path == "/huge.html":
            self._send(200, length=False)
            self.wfile.write(b"<html><body>")
            line = b"<p>" + b"solar wind hydro " * 60 + b"</p>\n"
            sent = 0
            while sent < site.huge_bytes and not site._stopping.is_set():
                self.wfile.write(line)
                sent += len(line)
        elif path == "/huge-declared.html":
            self._send(200, headers={"Content-Length": str(site.huge_bytes)}, length=False)
            self.wfile.write(b"<html><body><p>" + b"x" * 1000)
        elif path == "/data.bin":
            self._send(200, bytes(range(256)) * 16, "application/octet-stream")
        elif path == "/doc.pdf":
            self._send(200, tiny_pdf(PDF_TEXT), "application/pdf")
        elif path.startswith("/redirect/") and path[len("/redirect/"):].isdigit():
            left = int(path[len("/redirect/"):])
            target = f"/redirect/{left - 1}" if left > 1 else "/solar.html"
            self._send(302, headers={"Location": target})
        elif path == "/loop.html":
            self._send(302, headers={"Location": "/loop.html"})
        else:
            file = (WEB_ROOT / path.lstrip("/")).resolve()
            if (
                file.parent == WEB_ROOT.resolve()
                and file.is_file()
                and file.suffix in _TYPES
            ):
                self._send(200, file.read_bytes(), _TYPES[file.suffix])
            else:
                self._send(404, b"<html><body><p>Not found</p></body></html>")


class FakeSite:
    """The fixture website (see the module docstring for its routes).

    Args:
        slow_s: How long ``/slow.html`` waits before answering, and how long
            ``/trickle.html`` keeps trickling, in seconds.
        huge_bytes: Size of ``/huge.html`` and ``/huge-declared.html``.

    Attributes:
        base_url: ``http://127.0.0.1:<port>``.
        hits: Requests received, by path.
        requests: ``(path, headers)`` of every request, in order.
    """

    def __init__(self, *, slow_s: float = 5.0, huge_bytes: int = 6_000_000) -> None:
        self.slow_s = slow_s
        self.huge_bytes = huge_bytes
        self.hits: Counter[str] = Counter()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.site = self
        host, port = self._server.server_address[:2]
        self.base_url = f"http://{host}:{port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
            name="fake-site", daemon=True,
        )  # fmt: skip

    def _record(self, path: str, headers: dict[str, str]) -> None:
        with self._lock:
            self.hits[path] += 1
            self.requests.append((path, headers))

    def url(self, path: str) -> str:
        """Return the absolute URL of a path on the site."""
        return self.base_url + path

    def start(self) -> FakeSite:
        """Start serving in the background."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Wake slow handlers, stop serving, join every thread, close the socket."""
        self._stopping.set()
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(5)
        self._server.server_close()

    def __enter__(self) -> FakeSite:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class StubSearch:
    """A search function (the ``search_fn`` of ``WebSearch``) with a fixed answer.

    Args:
        results: ddgs-shaped result dicts (``title``, ``href``, ``body``).
        error: Raised on every call instead of answering, when given.

    Attributes:
        calls: ``(query, max_results)`` of every call.
    """

    def __init__(
        self, results: Sequence[dict[str, str]], *, error: Exception | None = None
    ) -> None:
        self.results = [dict(r) for r in results]
        self.error = error
        self.calls: list[tuple[str, int]] = []

    def __call__(self, query: str, max_results: int) -> list[dict[str, str]]:
        self.calls.append((query, max_results))
        if self.error is not None:
            raise self.error
        return [dict(r) for r in self.results[:max_results]]


def stub_search(
    site: FakeSite, paths: Sequence[str] = CONTENT_PAGES, *, error: Exception | None = None
) -> StubSearch:
    """Return a search stub whose results are pages of the fixture site.

    Args:
        site: The running site.
        paths: Paths returned, in rank order (any route, e.g. ``"/slow.html"``).
        error: Raise this on every call instead.

    Returns:
        A :class:`StubSearch` answering ddgs-shaped dicts for those URLs.
    """
    results = [
        {
            "title": path.strip("/").rsplit(".", 1)[0].replace("-", " ").title() or "Home",
            "href": site.url(path),
            "body": f"Fixture page {path}",
        }
        for path in paths
    ]
    return StubSearch(results, error=error)


@pytest.fixture
def fake_site() -> Iterator[FakeSite]:
    """A running fixture website, stopped after the test."""
    with FakeSite(slow_s=3.0, huge_bytes=300_000) as site:
        yield site
