"""Users and keys: keys stored hashed, each user sees only their own reports, events, files, reviews and A2A
tasks (another's is 404, like a missing one), admins see all, caps and rate limits per user, wrong keys throttled,
the Host header checked, forwarding headers only from trusted proxies."""

from __future__ import annotations

import sqlite3

import httpx
import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from reportgen.api import create_app
from reportgen.api.app import allowed_hosts
from reportgen.api.security import Authenticator
from reportgen.cli import app as cli
from reportgen.config import LOOPBACK_HOSTS, Settings
from reportgen.errors import InputError
from reportgen.keys import KeyStore, key_digest

from api_kit import TOPIC, client, make_settings, wait_until
from fakes import FakeSearch

LEGACY = "the-single-admin-key"


def _keyed_app(tmp_path, **overrides):
    """The app with users alice and bob and the admin root; returns ``(app, {name: headers})``."""
    settings = make_settings(tmp_path, **overrides)
    keys = KeyStore(settings.jobs_db)
    made = {name: keys.create(name, admin=name == "root") for name in ("alice", "bob", "root")}
    keys.close()
    app = create_app(settings, search=FakeSearch(), backoff_scale=0)
    return app, {name: {"X-API-Key": key} for name, key in made.items()}


def test_keys_are_stored_hashed_and_one_live_key_per_user(tmp_path):
    store = KeyStore(tmp_path / "jobs.sqlite")
    key = store.create("alice")
    assert key.startswith("rgk_") and len(key) >= 40
    found = store.lookup(key)
    assert found is not None and found.name == "alice" and not found.admin and found.client == "user:alice"
    assert store.lookup(key + "x") is None and store.lookup("") is None
    with pytest.raises(InputError, match="already has a key"):
        store.create("alice")
    for bad in ("", "Alice", "a b", "-x", "x" * 65, "ali\x00ce", "élise"):
        with pytest.raises(InputError, match="user name"):
            store.create(bad)
    assert store.revoke("alice") and not store.revoke("alice") and store.lookup(key) is None
    again = store.create("alice", admin=True)
    assert store.lookup(again).admin and store.has_keys()
    assert [k.name for k in store.list()] == ["alice"] and len(store.list(revoked=True)) == 2
    store.close()
    raw = (tmp_path / "jobs.sqlite").read_bytes()
    assert key.encode() not in raw and again.encode() not in raw  # only digests are written
    with sqlite3.connect(tmp_path / "jobs.sqlite") as db:
        digests = {row[0] for row in db.execute("SELECT digest FROM api_keys")}
    assert digests == {key_digest(key), key_digest(again)}


def test_the_keys_commands_create_list_and_revoke(reportgen_home):
    runner = CliRunner()
    made = runner.invoke(cli, ["keys", "create", "alice"])
    assert made.exit_code == 0, made.output
    key = made.stdout.strip()
    assert key.startswith("rgk_") and "not shown again" in made.stderr
    assert runner.invoke(cli, ["keys", "create", "root", "--admin"]).exit_code == 0
    listed = runner.invoke(cli, ["keys", "list"])
    assert listed.exit_code == 0 and key not in listed.stdout
    lines = listed.stdout.splitlines()
    assert lines[0].startswith("alice\tuser\trgk_") and lines[1].startswith("root\tadmin\t")
    again = runner.invoke(cli, ["keys", "create", "alice"])
    assert again.exit_code == 1 and "already has a key" in again.stderr
    bad = runner.invoke(cli, ["keys", "create", "Not A Name"])
    assert bad.exit_code == 1 and bad.stderr.startswith("error: user name")
    assert runner.invoke(cli, ["keys", "revoke", "alice"]).exit_code == 0
    missing = runner.invoke(cli, ["keys", "revoke", "alice"])
    assert missing.exit_code == 1 and "no live key" in missing.stderr
    assert "revoked" in runner.invoke(cli, ["keys", "list", "--revoked"]).stdout
    store = KeyStore(reportgen_home / "jobs.sqlite")
    assert store.lookup(key) is None
    store.close()


async def test_a_user_sees_and_touches_only_their_own_reports(tmp_path):
    app, h = _keyed_app(tmp_path)
    async with client(app) as http:
        mine = (await http.post("/reports", json={"topic": TOPIC, "review": True}, headers=h["alice"])).json()
        rid = mine["id"]
        theirs = (await http.post("/reports", json={"topic": "Wind power", "review": True},
                                  headers=h["bob"])).json()
        missing = await http.get("/reports/no-such-report", headers=h["bob"])
        assert missing.status_code == 404
        attempts = [
            ("GET", f"/reports/{rid}", None), ("GET", f"/reports/{rid}/events", None),
            ("GET", f"/reports/{rid}/report.pdf", None), ("GET", f"/reports/{rid}/report.html", None),
            ("GET", f"/reports/{rid}/report.json", None), ("GET", f"/reports/{rid}/messages.jsonl", None),
            ("GET", f"/reports/{rid}/plan", None), ("PUT", f"/reports/{rid}/plan", {"sections": [{"title": "X"}]}),
            ("POST", f"/reports/{rid}/review", {"action": "approve"}), ("DELETE", f"/reports/{rid}", None),
        ]
        for method, path, body in attempts:
            answer = await http.request(method, path, headers=h["bob"], json=body)
            assert answer.status_code == 404, (method, path, answer.text)
            assert answer.json() == {"detail": f"no report {rid!r}"}  # the words of a missing report
        for name, ids in (("alice", {rid}), ("bob", {theirs["id"]}), ("root", {rid, theirs["id"]})):
            listed = (await http.get("/reports", headers=h[name])).json()
            assert {item["id"] for item in listed["items"]} == ids and listed["total"] == len(ids), name
        job = await wait_until(lambda: _status(http, rid, h["alice"], "input_required"))
        assert job["id"] == rid
        assert (await http.get(f"/reports/{rid}/plan", headers=h["alice"])).status_code == 200
        assert (await http.get(f"/reports/{rid}/plan", headers=h["root"])).status_code == 200  # admin sees all
        # Bob's attempts changed nothing: alice's report still waits for her review.
        assert (await http.get(f"/reports/{rid}", headers=h["alice"])).json()["status"] == "input_required"
        canceled = await http.delete(f"/reports/{rid}", headers=h["root"])  # an admin touches any
        assert canceled.status_code == 202
        events = await http.get(f"/reports/{rid}/events", headers=h["alice"])  # ends: the job was canceled
        assert events.status_code == 200 and '"status": "canceled"' in events.text
        assert (await http.get(f"/reports/{rid}/events", headers=h["bob"])).status_code == 404
        assert (await http.delete(f"/reports/{theirs['id']}", headers=h["alice"])).status_code == 404
        assert (await http.get(f"/reports/{theirs['id']}", headers=h["bob"])).json()["status"] != "canceled"
        assert (await http.delete(f"/reports/{theirs['id']}", headers=h["bob"])).status_code == 202


async def _status(http: httpx.AsyncClient, rid: str, headers: dict, status: str) -> dict | None:
    job = (await http.get(f"/reports/{rid}", headers=headers)).json()
    return job if job["status"] == status else None


async def test_files_of_a_finished_report_are_its_users_only(finished, tmp_path, reportgen_home):
    with sqlite3.connect(reportgen_home / "jobs.sqlite") as db:  # the finished report becomes alice's
        db.execute("UPDATE jobs SET client = 'user:alice'")
    app, h = _keyed_app(tmp_path)
    async with client(app, lifespan=False) as http:
        for name in ("report.pdf", "report.html", "report.json", "messages.jsonl", "blueprint.json"):
            path = f"/reports/{finished}/{name}"
            assert (await http.get(path, headers=h["alice"])).status_code == 200, name
            assert (await http.get(path, headers=h["root"])).status_code == 200, name
            assert (await http.get(path, headers=h["bob"])).status_code == 404, name
        stream = await http.get(f"/reports/{finished}/events", headers=h["alice"])
        assert stream.status_code == 200 and "event: acp" in stream.text
        assert (await http.delete(f"/reports/{finished}", headers=h["bob"])).status_code == 404
        assert (await http.get(f"/reports/{finished}", headers=h["alice"])).status_code == 200


async def test_the_browse_pages_show_a_user_only_their_own(finished, tmp_path, reportgen_home):
    with sqlite3.connect(reportgen_home / "jobs.sqlite") as db:
        db.execute("UPDATE jobs SET client = 'user:alice'")
    app, h = _keyed_app(tmp_path)
    async with client(app, lifespan=False) as http:
        assert finished in (await http.get("/browse", headers=h["alice"])).text
        assert finished in (await http.get("/browse", headers=h["root"])).text
        assert finished not in (await http.get("/browse", headers=h["bob"])).text
        assert (await http.get(f"/browse/{finished}", headers=h["alice"])).status_code == 200
        assert (await http.get(f"/browse/{finished}", headers=h["bob"])).status_code == 404
        for action in ("cancel", "delete", "review"):
            answer = await http.post(f"/browse/{finished}/{action}", headers=h["bob"], data={"action": "approve"})
            assert answer.status_code == 404, action
        assert (await http.get(f"/reports/{finished}/report.pdf", headers=h["alice"])).status_code == 200


def _rpc(method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}


async def test_a2a_tasks_belong_to_their_user(tmp_path):
    app, h = _keyed_app(tmp_path)
    version = {"A2A-Version": "1.0"}
    async with client(app) as http:
        sent = (await http.post("/a2a", headers={**h["alice"], **version}, json=_rpc("SendMessage", {
            "message": {"messageId": "u-1", "role": "ROLE_USER",
                        "parts": [{"text": TOPIC}, {"data": {"review": True, "sections": 4}}]},
            "configuration": {"returnImmediately": True}}))).json()
        task_id = sent["result"]["task"]["id"]

        async def get(who: str) -> dict:
            return (await http.post("/a2a", headers={**h[who], **version},
                                    json=_rpc("GetTask", {"id": task_id}))).json()

        assert (await get("alice"))["result"]["id"] == task_id
        assert (await get("root"))["result"]["id"] == task_id  # an admin reaches any task
        assert (await get("bob"))["error"]["code"] == -32001  # TaskNotFound, as for a missing task
        canceled = (await http.post("/a2a", headers={**h["bob"], **version},
                                    json=_rpc("CancelTask", {"id": task_id}))).json()
        assert canceled["error"]["code"] == -32001
        hook = "https://hooks.invalid/x"  # refused before anything is stored or resolved
        for method, params in (("SubscribeToTask", {"id": task_id}),
                               ("CreateTaskPushNotificationConfig", {"taskId": task_id, "url": hook}),
                               ("ListTaskPushNotificationConfigs", {"taskId": task_id})):
            refused = (await http.post("/a2a", headers={**h["bob"], **version}, json=_rpc(method, params))).json()
            assert refused["error"]["code"] == -32001, method
        listed = (await http.post("/a2a", headers={**h["bob"], **version}, json=_rpc("ListTasks", {}))).json()
        assert all(t["id"] != task_id for t in listed["result"].get("tasks", []))
        answer = (await http.post("/a2a", headers={**h["bob"], **version}, json=_rpc("SendMessage", {
            "message": {"messageId": "u-2", "role": "ROLE_USER", "taskId": task_id, "parts": [{"text": "approve"}]},
            "configuration": {"returnImmediately": True}}))).json()
        assert answer["error"]["code"] == -32001  # bob cannot answer alice's review
        mine = (await http.post("/a2a", headers={**h["alice"], **version}, json=_rpc("ListTasks", {}))).json()
        assert [t["id"] for t in mine["result"]["tasks"]] == [task_id]
        jobs = (await http.get("/reports", headers=h["alice"])).json()["items"]
        assert len(jobs) == 1 and (await http.get(f"/reports/{jobs[0]['id']}", headers=h["bob"])).status_code == 404
        # The task's report is alice's too; the admin's cancel reaches it through A2A.
        root_cancel = (await http.post("/a2a", headers={**h["root"], **version},
                                       json=_rpc("CancelTask", {"id": task_id}))).json()
        assert root_cancel["result"]["status"]["state"] == "TASK_STATE_CANCELED"
        assert (await get("alice"))["result"]["status"]["state"] == "TASK_STATE_CANCELED"  # still alice's


async def test_caps_and_rate_limits_count_by_user_not_by_address(tmp_path):
    app, h = _keyed_app(tmp_path, max_jobs_per_client=2, rate_limit=1000)
    async with client(app) as http:
        for _ in range(2):
            assert (await http.post("/reports", json={"topic": TOPIC, "review": True},
                                    headers=h["alice"])).status_code == 202
        full = await http.post("/reports", json={"topic": TOPIC, "review": True}, headers=h["alice"])
        assert full.status_code == 429 and "Retry-After" in full.headers
        assert (await http.post("/reports", json={"topic": TOPIC, "review": True},
                                headers=h["bob"])).status_code == 202  # same address, another user
    app, h = _keyed_app(tmp_path / "rate", home=tmp_path / "rate" / "home", rate_limit=3)
    async with client(app, lifespan=False) as http:
        unknown = {"topic": TOPIC, "corpus": "nope"}  # passes the cap, takes a token, then 422
        assert [(await http.post("/reports", json=unknown, headers=h["alice"])).status_code
                for _ in range(4)] == [422, 422, 422, 429]
        assert (await http.post("/reports", json=unknown, headers=h["bob"])).status_code == 422


async def test_the_single_key_is_an_admin_and_revoked_keys_stop_at_once(tmp_path):
    app, h = _keyed_app(tmp_path, api_key=LEGACY)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "review": True}, headers=h["alice"])).json()
        assert (await http.get(f"/reports/{job['id']}", headers={"X-API-Key": LEGACY})).status_code == 200
        assert (await http.get("/reports", headers={"X-API-Key": LEGACY})).json()["total"] == 1
        assert (await http.get("/reports")).status_code == 401
        store = KeyStore(app.state.settings.jobs_db)
        store.revoke("alice")
        assert (await http.get("/reports", headers=h["alice"])).status_code == 401
        renewed = {"X-API-Key": store.create("alice")}
        store.close()
        assert (await http.get(f"/reports/{job['id']}", headers=renewed)).status_code == 200  # her reports stay
        card = (await http.get("/.well-known/agent-card.json")).json()
        assert card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["name"] == "X-API-Key"


async def test_user_keys_alone_make_the_server_keyed(tmp_path):
    app, h = _keyed_app(tmp_path)
    async with client(app, lifespan=False) as http:
        assert (await http.get("/reports")).status_code == 401
        assert (await http.get("/browse")).status_code == 303
        assert (await http.get("/.well-known/agent.json")).json()["securitySchemes"]["apiKey"]["name"] == "X-API-Key"
        login = await http.post("/login", data={"key": h["bob"]["X-API-Key"], "next": "/browse"})
        assert login.status_code == 303
        assert (await http.get("/browse")).status_code == 200  # the cookie carries bob's key


async def test_wrong_keys_are_throttled_per_address(tmp_path):
    app, h = _keyed_app(tmp_path, auth_failures_per_minute=3)
    async with client(app, lifespan=False) as http:
        assert [(await http.get("/reports", headers={"X-API-Key": f"guess-{i}"})).status_code
                for i in range(3)] == [401, 401, 401]
        throttled = await http.get("/reports", headers={"X-API-Key": "guess-3"})
        assert throttled.status_code == 429 and int(throttled.headers["Retry-After"]) >= 1
        right = await http.get("/reports", headers=h["alice"])
        assert right.status_code == 429  # the right key too: a guesser learns nothing while throttled
        login = await http.post("/login", data={"key": h["alice"]["X-API-Key"], "next": "/browse"})
        assert login.status_code == 429 and "Retry-After" in login.headers
        assert (await http.get("/.well-known/agent.json")).status_code == 200  # no key, no throttle
    other = httpx.ASGITransport(app=app, client=("127.0.0.9", 4000))
    async with httpx.AsyncClient(transport=other, base_url="http://testserver") as http:
        assert (await http.get("/reports", headers=h["alice"])).status_code == 200  # another address


def test_the_wrong_key_throttle_refills():
    now = [0.0]
    auth = Authenticator("k", None, failures_per_minute=2, clock=lambda: now[0])
    auth.failed("ip:a")
    auth.failed("ip:a")
    assert auth.blocked("ip:a") == 30.0 and auth.blocked("ip:b") == 0.0
    now[0] = 30.0
    assert auth.blocked("ip:a") == 0.0
    assert auth.authenticate("k") is not None and auth.authenticate("x") is None and auth.authenticate(None) is None


async def test_a_foreign_host_gets_400(tmp_path):
    app = create_app(make_settings(tmp_path, allowed_hosts=list(LOOPBACK_HOSTS)), search=FakeSearch())
    async with client(app, lifespan=False) as http:
        for host in ("evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.2", "", "[::2]"):
            answer = await http.get("/reports", headers={"Host": host})
            assert answer.status_code == 400, host
        for host in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
            assert (await http.get("/reports", headers={"Host": host})).status_code == 200, host
        made = await http.post("/reports", json={"topic": TOPIC}, headers={"Host": "attacker.example"})
        assert made.status_code == 400 and app.state.worker.store.count() == 0  # DNS rebinding creates nothing


def test_allowed_hosts_come_from_the_setting_and_the_public_url(monkeypatch):
    monkeypatch.setenv("REPORTGEN_ALLOWED_HOSTS", "reports.example.com, *.corp.example")
    assert Settings().allowed_hosts == ["reports.example.com", "*.corp.example"]
    monkeypatch.delenv("REPORTGEN_ALLOWED_HOSTS")
    assert Settings().allowed_hosts == ["localhost", "127.0.0.1", "[::1]"]
    assert allowed_hosts(Settings(public_url="https://Reports.Example.org:8443/x"))[-1] == "reports.example.org"
    assert allowed_hosts(Settings(public_url="http://[2001:db8::1]:80"))[-1] == "[2001:db8::1]"
    assert allowed_hosts(Settings(host="192.168.1.5"))[-1] == "192.168.1.5"  # the one address serve binds
    assert allowed_hosts(Settings(host="0.0.0.0")) == ["localhost", "127.0.0.1", "[::1]"]
    for bad in ("a*.example.com", "*example.com", "x.*.com"):
        with pytest.raises(ValidationError, match="wildcard"):
            Settings(allowed_hosts=bad)
    with pytest.raises(ValidationError, match="not an IP address"):
        Settings(trusted_proxies="proxy.example")
    assert Settings(trusted_proxies="10.0.0.0/8, 127.0.0.1").trusted_proxies == ["10.0.0.0/8", "127.0.0.1"]


async def test_forwarded_for_is_believed_only_from_trusted_proxies(tmp_path):
    app = create_app(make_settings(tmp_path, trusted_proxies=["127.0.0.1"], max_jobs_per_client=1000),
                     search=FakeSearch())
    store = app.state.worker.store
    forged = {"X-Forwarded-For": "203.0.113.7", "Forwarded": "for=198.51.100.1"}
    for peer, expected in ((("127.0.0.1", 1), "ip:203.0.113.7"), (("127.0.0.2", 1), "ip:127.0.0.2")):
        transport = httpx.ASGITransport(app=app, client=peer)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            job = (await http.post("/reports", json={"topic": TOPIC}, headers=forged)).json()
            assert store.get(job["id"]).client == expected, peer
    untrusting = create_app(make_settings(tmp_path / "b"), search=FakeSearch())
    async with client(untrusting, lifespan=False) as http:
        job = (await http.post("/reports", json={"topic": TOPIC}, headers=forged)).json()
        assert untrusting.state.worker.store.get(job["id"]).client == "ip:127.0.0.1"
