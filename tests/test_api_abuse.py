"""Hostile callers: path traversal, oversized bodies, huge topics, wrong keys, floods, forged forms."""

from __future__ import annotations

import hmac
from urllib.parse import unquote

import httpx
import pytest

from reportgen.api.security import RateLimiter

from api_kit import TOPIC, client, make_app

KEY = "s3cret-key-for-tests"

TRAVERSALS = [
    "..", "...", "%2e%2e", "..%2f..%2fetc%2fpasswd", "..%2F..%2F..%2Fetc", "a%2f..%2f..%2fb",
    "%2fetc%2fpasswd", "..%5c..%5cwindows", "x%00y", "ABC", "-abc", "a_b", "a.b", "a" * 65,
    "%c0%ae%c0%ae", "report%20id", "%252e%252e", "abc%0a", "abc%0d%0aSet-Cookie:x=1",
]


async def _raw(app, method: str, raw_path: str) -> tuple[int, bytes]:
    """Call the ASGI app with a path exactly as a server would pass it (no client-side
    normalisation of ``..``; percent-escapes decoded in ``path``, kept in ``raw_path``)."""
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": unquote(raw_path), "raw_path": raw_path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.parametrize("report_id", TRAVERSALS)
async def test_ids_that_could_leave_the_outputs_folder_are_refused(tmp_path, report_id):
    (tmp_path / "secret.txt").write_text("root:x:0:0")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "report.pdf").write_text("root:x:0:0")
    app = make_app(tmp_path)
    for suffix in ("", "/events", "/report.pdf", "/report.html", "/report.json"):
        for prefix in ("/reports/", "/reports/x/../", "/browse/"):
            status, body = await _raw(app, "GET", f"{prefix}{report_id}{suffix}")
            assert status in (404, 422), (prefix, suffix, status)
            assert b"root:x" not in body
    status, _ = await _raw(app, "DELETE", f"/reports/{report_id}")
    assert status in (404, 405, 422)


def test_the_worker_refuses_bad_ids_before_touching_the_disk(tmp_path):
    worker = make_app(tmp_path).state.worker
    for bad in ("..", "../x", "/etc", "a/b", "A", ""):
        with pytest.raises(ValueError):
            worker.report_dir(bad)
    assert worker.report_dir("fine-123").parent == (tmp_path / "out").resolve()


async def test_oversized_bodies_get_413(tmp_path):
    app = make_app(tmp_path, max_body_bytes=4096)
    async with client(app, lifespan=False) as http:
        big = {"topic": TOPIC, "padding": "x" * 10_000}
        assert (await http.post("/reports", json=big)).status_code == 413

        async def chunks():  # no Content-Length: the cap is counted as the body arrives
            for _ in range(10):
                yield b" " * 1024

        response = await http.post("/reports", content=chunks(), headers={"content-type": "application/json"})
        assert response.status_code == 413
        assert (await http.post("/a2a", content=b"[" + b"1," * 5000 + b"1]")).status_code == 413
        assert (await http.get("/reports")).json()["total"] == 0


async def test_a_10000_character_topic_is_422(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        response = await http.post("/reports", json={"topic": "x" * 10_000})
        assert response.status_code == 422
        assert "500" in response.text  # says what the limit is
        assert (await http.post("/reports", json={"topic": "x" * 500})).status_code == 202
        assert (await http.get("/reports")).json()["total"] == 1


async def test_with_an_api_key_every_endpoint_but_the_cards_needs_it(tmp_path, monkeypatch):
    calls = []
    real = hmac.compare_digest
    monkeypatch.setattr("reportgen.api.security.hmac.compare_digest", lambda a, b: calls.append(1) or real(a, b))
    app = make_app(tmp_path, api_key=KEY, auth_failures_per_minute=1000)  # 50 wrong keys, none throttled
    async with client(app, lifespan=False) as http:
        job = (await http.post("/reports", json={"topic": TOPIC}, headers={"X-API-Key": KEY})).json()
        endpoints = [
            ("GET", "/reports"), ("POST", "/reports"), ("GET", f"/reports/{job['id']}"),
            ("GET", f"/reports/{job['id']}/events"), ("GET", f"/reports/{job['id']}/report.pdf"),
            ("DELETE", f"/reports/{job['id']}"), ("GET", "/openapi.json"), ("GET", "/docs"),
            ("POST", "/a2a"), ("POST", "/browse/new"),
        ]
        for headers in ({}, {"X-API-Key": "wrong"}, {"X-API-Key": KEY + "x"}, {"Authorization": "Bearer nope"},
                        {"Authorization": f"Basic {KEY}"}, {"Cookie": "reportgen_key=wrong"}):
            for method, path in endpoints:
                response = await http.request(method, path, headers=headers, json={"topic": TOPIC})
                assert response.status_code == 401, (method, path, headers)
                assert response.headers["www-authenticate"].startswith("Bearer")
        assert calls, "the key is compared with hmac.compare_digest"
        browse = await http.get("/browse")
        assert browse.status_code == 303 and browse.headers["location"] == "/login?next=%2Fbrowse"
        for path in ("/.well-known/agent.json", "/.well-known/agent-card.json", "/login",
                     "/browse/static/browse.css"):
            assert (await http.get(path)).status_code == 200, path
        card = (await http.get("/.well-known/agent.json")).json()
        assert card["securitySchemes"]["apiKey"] == {"type": "apiKey", "in": "header", "name": "X-API-Key"}
        assert KEY not in str(card)
        assert (await http.get("/reports", headers={"Authorization": f"Bearer {KEY}"})).status_code == 200
        assert (await http.get(f"/reports/{job['id']}", headers={"X-API-Key": KEY})).status_code == 200


async def test_the_login_form_sets_a_strict_cookie(tmp_path):
    app = make_app(tmp_path, api_key=KEY)
    async with client(app, lifespan=False) as http:
        wrong = await http.post("/login", data={"key": "nope", "next": "/browse"})
        assert wrong.status_code == 401 and "reportgen_key" not in wrong.headers.get("set-cookie", "")
        right = await http.post("/login", data={"key": KEY, "next": "//evil.example/x"})
        assert right.status_code == 303 and right.headers["location"] == "/browse"  # never off-site
        cookie = right.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert (await http.get("/browse")).status_code == 200  # the client kept the cookie


async def test_a_flood_of_creates_is_rate_limited_per_client(tmp_path):
    app = make_app(tmp_path, rate_limit=5, max_jobs_per_client=1000)
    async with client(app, lifespan=False) as http:
        codes = []
        for n in range(40):
            response = await http.post("/reports", json={"topic": f"{TOPIC} {n}"})
            codes.append(response.status_code)
            if response.status_code == 429:
                assert int(response.headers["retry-after"]) >= 1
        assert codes.count(202) == 5 and codes.count(429) == 35
        assert (await http.get("/reports")).json()["total"] == 5
        replay = await http.post("/reports", json={"topic": f"{TOPIC} 0"}, headers={"Idempotency-Key": "k"})
        assert replay.status_code == 429  # a new key is a new request
    other = httpx.ASGITransport(app=app, client=("10.1.2.3", 1234))
    async with httpx.AsyncClient(transport=other, base_url="http://testserver") as http:
        assert (await http.post("/reports", json={"topic": TOPIC})).status_code == 202  # its own bucket


async def test_per_client_cap_on_unfinished_jobs(tmp_path):
    app = make_app(tmp_path, max_jobs_per_client=2)
    async with client(app, lifespan=False) as http:
        first = [(await http.post("/reports", json={"topic": f"{TOPIC} {n}"})) for n in range(2)]
        assert [r.status_code for r in first] == [202, 202]
        third = await http.post("/reports", json={"topic": "one too many"})
        assert third.status_code == 429 and int(third.headers["retry-after"]) > 0
        await http.delete(f"/reports/{first[0].json()['id']}")  # a canceled job no longer counts
        assert (await http.post("/reports", json={"topic": "now it fits"})).status_code == 202


def test_the_token_bucket_refills():
    now = [0.0]
    limiter = RateLimiter(6, clock=lambda: now[0])  # one token every 10 s
    assert [limiter.acquire("a") for _ in range(6)] == [0.0] * 6
    assert limiter.acquire("a") == 10.0
    now[0] = 5.0
    assert limiter.acquire("a") == 5.0
    now[0] = 10.0
    assert limiter.acquire("a") == 0.0 and limiter.acquire("b") == 0.0


async def test_cross_site_form_posts_are_refused(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        forged = await http.post("/browse/new", data={"topic": TOPIC}, headers={"Origin": "https://evil.example"})
        assert forged.status_code == 403
        same = await http.post("/browse/new", data={"topic": TOPIC}, headers={"Origin": "http://testserver"})
        assert same.status_code == 303
        assert (await http.get("/reports")).json()["total"] == 1


async def test_a_bad_idempotency_key_is_422(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        for key in ("x" * 256, "has space"):
            response = await http.post("/reports", json={"topic": TOPIC}, headers={"Idempotency-Key": key})
            assert response.status_code == 422
