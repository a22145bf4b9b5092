"""The service as ``reportgen serve`` runs it, on a real uvicorn: forged X-Forwarded-For gets past no cap or rate
limit, slow headers and slow bodies are cut off (streams are not), and opening the corpora never blocks the loop."""

from __future__ import annotations

import asyncio
import json
import socket
import threading

import httpx
import pytest
from typer.testing import CliRunner

from reportgen.api import create_app
from reportgen.api.server import DeadlineH11Protocol, uvicorn_options
from reportgen.cli import app as cli
from reportgen.sources import Sources

from api_kit import TOPIC, SlowSearch, client, live, make_settings, wait_until
from fakes import FakeSearch

#: Seconds a request has to arrive on the test server (short, so that the slow clients are cut soon).
REQUEST_TIMEOUT_S = 1.0


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server run with ``reportgen serve``'s uvicorn options: cap 4, 10 requests a minute, 1 s deadline."""
    base = tmp_path_factory.mktemp("hardening")
    settings = make_settings(base, home=base / "home", max_jobs=1, max_jobs_per_client=4, rate_limit=10,
                             request_timeout_s=REQUEST_TIMEOUT_S,
                             allowed_hosts=["localhost", "127.0.0.1", "[::1]"])
    app = create_app(settings, search=SlowSearch(0.2), backoff_scale=0)
    options = uvicorn_options(settings, log_level="warning", timeout_graceful_shutdown=3)
    with live(app, **options) as running:
        yield running


def test_serve_runs_uvicorn_without_its_proxy_headers_and_with_the_deadline(monkeypatch):
    calls = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: calls.append(kwargs))
    assert CliRunner().invoke(cli, ["serve"]).exit_code == 0
    options = calls[-1]
    assert options["proxy_headers"] is False and options["forwarded_allow_ips"] == ""
    assert options["http"].func is DeadlineH11Protocol and options["http"].keywords == {"request_timeout_s": 20.0}


async def test_forged_forwarded_for_gets_past_neither_the_cap_nor_the_rate_limit(served):
    async with httpx.AsyncClient(base_url=served.url, timeout=30) as http:
        codes = []
        for i in range(12):
            forged = {"X-Forwarded-For": f"198.51.100.{i + 1}", "Forwarded": f"for=203.0.113.{i + 1}"}
            codes.append((await http.post("/reports", json={"topic": TOPIC, "review": True},
                                          headers=forged)).status_code)
        assert codes.count(202) == 4 and codes.count(429) == 8, codes  # the cap: 4 per client
        clients = {served.app.state.worker.store.get(job["id"]).client
                   for job in (await http.get("/reports")).json()["items"]}
        assert clients == {"ip:127.0.0.1"}
    # From another real address (a fresh cap and bucket), requests that pass the cap but ask for an
    # unknown corpus each take a token: forged addresses do not refill the bucket.
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=served.url, transport=transport, timeout=30) as http:
        codes = []
        for i in range(15):
            codes.append((await http.post("/reports", json={"topic": TOPIC, "corpus": "nope"},
                                          headers={"X-Forwarded-For": f"192.0.2.{i + 1}"})).status_code)
        assert codes == [422] * 10 + [429] * 5, codes


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (at most 30 s)."""
    sock.settimeout(30)
    chunks = []
    while chunk := sock.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks)


def test_slow_headers_and_slow_bodies_are_cut_off(served):
    host, port = "127.0.0.1", served.port
    slow = []
    for i in range(20):  # slowloris: many connections, each with half its headers
        sock = socket.create_connection((host, port))
        sock.sendall(f"GET /reports HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-{i}: ".encode())
        slow.append(sock)
    body = socket.create_connection((host, port))  # all its headers, a tenth of its body
    body.sendall(b"POST /reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"topic\": ")
    idle = socket.create_connection((host, port))  # connects and sends nothing
    for sock in [*slow, body]:
        answer = _read_all(sock)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert _read_all(idle) == b""  # closed without a word: no request had begun
    idle.close()
    with socket.create_connection((host, port)) as whole:  # a request that arrives whole is served
        whole.sendall(b"GET /.well-known/agent.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert _read_all(whole).startswith(b"HTTP/1.1 200")


def test_each_request_on_a_kept_alive_connection_has_its_own_deadline(served):
    with socket.create_connection(("127.0.0.1", served.port)) as sock:
        sock.settimeout(30)
        sock.sendall(b"GET /reports HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
        header, _, body = head.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        while len(body) < length:
            body += sock.recv(4096)
        assert header.startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /reports HTTP/1.1\r\nHost: 12")  # the next request, left half-sent
        assert _read_all(sock).startswith(b"HTTP/1.1 408")


async def test_a_stream_outlives_the_request_deadline(served):
    async with httpx.AsyncClient(base_url=served.url, timeout=60,
                                 transport=httpx.AsyncHTTPTransport(local_address="127.0.0.3")) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "review": True})).json()
        seen: list[str] = []
        async with http.stream("GET", f"/reports/{job['id']}/events") as stream:
            lines = stream.aiter_lines()
            async for line in lines:
                if line.startswith("data:"):
                    seen.append(line)
                    break
            await asyncio.sleep(REQUEST_TIMEOUT_S * 2.5)  # well past the deadline; the stream stays open
            assert (await http.delete(f"/reports/{job['id']}")).status_code == 202
            async for line in lines:
                if line.startswith("data:"):
                    seen.append(line)
        assert json.loads(seen[-1].removeprefix("data:"))["status"] == "canceled"


async def test_a_status_request_is_answered_while_the_index_is_being_built(tmp_path, monkeypatch):
    building, release, built = threading.Event(), threading.Event(), threading.Event()

    class Backend(FakeSearch):
        def close(self) -> None:
            pass

    def slow_open_backends(options, **_kwargs):  # stands in for the first index build
        building.set()
        release.wait(timeout=20)  # were it on the event loop, the loop would stall here
        built.set()
        return Sources([Backend()], [])

    monkeypatch.setattr("reportgen.run.open_backends", slow_open_backends)
    app = create_app(make_settings(tmp_path), backoff_scale=0)  # no injected search: the configured corpora
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()
        assert await asyncio.to_thread(building.wait, 30)
        status = await http.get(f"/reports/{job['id']}")
        assert status.status_code == 200 and status.json()["status"] == "working"
        assert not built.is_set()  # answered while the build was still going
        release.set()
        done = await wait_until(lambda: _finished(http, job["id"]), timeout=120)
        assert done == "completed"


async def _finished(http: httpx.AsyncClient, report_id: str) -> str | None:
    status = (await http.get(f"/reports/{report_id}")).json()["status"]
    return status if status in ("completed", "failed", "canceled") else None


async def test_requests_wait_for_the_start_up_warm_up_without_blocking_the_loop(tmp_path, monkeypatch):
    warming, release = threading.Event(), threading.Event()

    def slow_warm_up(_settings):  # stands in for the first imports of the pipeline (seconds)
        warming.set()
        release.wait(timeout=20)

    monkeypatch.setattr("reportgen.worker._warm_up", slow_warm_up)
    app = create_app(make_settings(tmp_path), search=FakeSearch(), backoff_scale=0)
    async with client(app) as http:
        assert await asyncio.to_thread(warming.wait, 30)
        post = asyncio.create_task(http.post("/reports", json={"topic": TOPIC, "review": True}))
        listed = await http.get("/reports")  # answered while the POST waits for the warm-up
        assert listed.status_code == 200 and listed.json()["total"] == 0 and not post.done()
        release.set()
        assert (await post).status_code == 202
