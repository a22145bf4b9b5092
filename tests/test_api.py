"""The REST API through httpx against the ASGI app: request, follow, fetch, cancel, delete."""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reportgen.api import create_app
from reportgen.cli import app as cli

from api_kit import TOPIC, SlowSearch, client, make_app, make_settings, wait_until
from fakes import ENERGY_DOCS


def _sse(text: str) -> list[dict[str, str]]:
    """Parse an SSE body into events ({'event', 'id', 'data'}); comments dropped."""
    events = []
    for block in re.split(r"\r?\n\r?\n", text):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = fields.get(name, "") + value.removeprefix(" ")
        if "data" in fields:
            events.append(fields)
    return events


async def test_request_follow_and_fetch_a_report(tmp_path):
    app = make_app(tmp_path)
    async with client(app) as http:
        created = await http.post("/reports", json={"topic": f"  {TOPIC} ", "sections": 4})
        assert created.status_code == 202
        job = created.json()
        assert job["status"] == "submitted" and job["topic"] == TOPIC
        assert created.headers["location"] == f"/reports/{job['id']}"
        assert re.fullmatch(r"renewable-energy-[0-9a-f]{6}", job["id"])

        stream = await http.get(f"/reports/{job['id']}/events")  # the job ends, so the stream does
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = _sse(stream.text)
        statuses = [json.loads(e["data"])["status"] for e in events if e["event"] == "status"]
        assert statuses[0] == "submitted" and statuses[-1] == "completed" and "working" in statuses
        acp = [e for e in events if e["event"] == "acp"]
        folder = tmp_path / "out" / job["id"]
        lines = (folder / "messages.jsonl").read_text().splitlines()
        assert [int(e["id"]) for e in acp] == list(range(1, len(lines) + 1))  # every message, in order
        assert [json.loads(e["data"]) for e in acp] == [json.loads(line) for line in lines]
        assert events[-1]["event"] == "status"

        done = (await http.get(f"/reports/{job['id']}")).json()
        assert done["status"] == "completed" and done["error"] is None and done["runs"] == 1
        assert done["progress"]["tasks_done"] == done["progress"]["tasks_total"] > 0
        assert done["blueprint"]["tasks"] == done["progress"]["tasks_total"]
        assert sum(done["blueprint"]["by_status"].values()) == done["blueprint"]["tasks"]
        assert {"plan", "dispatch", "pdf"} <= set(done["timings"]) and done["pages"] >= 1
        assert done["title"] and done["finished_at"] >= done["started_at"] >= done["created_at"]
        assert done["links"]["pdf"] == f"/reports/{job['id']}/report.pdf"

        pdf = await http.get(done["links"]["pdf"])
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert pdf.headers["content-type"] == "application/pdf"
        assert pdf.headers["content-disposition"].startswith("attachment")
        assert pdf.content == (folder / "report.pdf").read_bytes()
        html = await http.get(done["links"]["html"])
        assert html.headers["content-type"].startswith("text/html")
        assert "sandbox" in html.headers["content-security-policy"]
        report = (await http.get(done["links"]["json"])).json()
        assert report["id"] == job["id"] and report["sections"]


async def test_reconnecting_with_last_event_id_gets_only_what_was_missed(tmp_path, finished):
    app = make_app(tmp_path)
    async with client(app) as http:
        full = [e for e in _sse((await http.get(f"/reports/{finished}/events")).text) if e["event"] == "acp"]
        rest = _sse((await http.get(f"/reports/{finished}/events", headers={"Last-Event-ID": "7"})).text)
        assert [e["id"] for e in rest if e["event"] == "acp"] == [e["id"] for e in full[7:]]
        assert json.loads(rest[-1]["data"])["status"] == "completed"
        garbage = _sse((await http.get(f"/reports/{finished}/events", headers={"Last-Event-ID": "x"})).text)
        assert len([e for e in garbage if e["event"] == "acp"]) == len(full)  # unreadable id: from the start
        end = _sse((await http.get(f"/reports/{finished}/events", headers={"Last-Event-ID": "999999"})).text)
        assert [e["event"] for e in end] == ["status"]


async def test_the_list_is_paged_newest_first(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:  # no worker: the jobs just wait
        ids = [(await http.post("/reports", json={"topic": f"Topic {n}"})).json()["id"] for n in range(3)]
        page = (await http.get("/reports", params={"limit": 2})).json()
        assert [j["id"] for j in page["items"]] == ids[:0:-1] and page["total"] == 3
        assert page["next"] == "/reports?limit=2&offset=2"
        last = (await http.get(page["next"])).json()
        assert [j["id"] for j in last["items"]] == [ids[0]] and last["next"] is None
        assert (await http.get("/reports", params={"limit": 0})).status_code == 422


async def test_idempotency_key_returns_the_same_job(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        body = {"topic": TOPIC, "sections": 4}
        first = await http.post("/reports", json=body, headers={"Idempotency-Key": "order-42"})
        again = await http.post("/reports", json=body, headers={"Idempotency-Key": "order-42"})
        assert first.status_code == again.status_code == 202
        assert first.json()["id"] == again.json()["id"] and again.headers["idempotent-replayed"] == "true"
        assert (await http.get("/reports")).json()["total"] == 1
        other = await http.post("/reports", json={**body, "sections": 5}, headers={"Idempotency-Key": "order-42"})
        assert other.status_code == 409
        fresh = await http.post("/reports", json=body, headers={"Idempotency-Key": "order-43"})
        assert fresh.json()["id"] != first.json()["id"]


@pytest.mark.parametrize("body", [
    {"topic": "   "},
    {"topic": ""},
    {"sections": 4},
    {"topic": TOPIC, "lang": "de"},
    {"topic": TOPIC, "sections": 0},
    {"topic": TOPIC, "sections": 13},
    {"topic": TOPIC, "corpus": "/etc"},
    {"topic": TOPIC, "corpus": "../notes"},
    {"topic": TOPIC, "corpus": "notes"},  # not offered by this server
    {"topic": TOPIC, "template": "fancy"},
    {"topic": TOPIC, "wiki": False},
    {"topic": TOPIC, "corpus_dirs": ["/etc"]},  # no raw paths, no unknown fields
])
async def test_bad_requests_are_422_and_create_nothing(tmp_path, body):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        response = await http.post("/reports", json=body)
        assert response.status_code == 422, response.text
        assert (await http.get("/reports")).json()["total"] == 0


async def test_a_corpus_is_named_by_the_server_never_given_as_a_path(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for doc in ENERGY_DOCS:
        (docs / f"{doc['title'].replace(' ', '-').lower()}.md").write_text(f"# {doc['title']}\n\n{doc['text']}\n")
    app = create_app(make_settings(tmp_path, corpora={"energy": docs}), backoff_scale=0)  # the real search
    async with client(app) as http:
        card = (await http.get("/.well-known/agent.json")).json()
        assert card["corpora"] == ["energy"] and str(docs) not in json.dumps(card)
        job = (await http.post("/reports", json={"topic": TOPIC, "corpus": "energy", "wiki": False,
                                                 "sections": 4})).json()
        await http.get(f"/reports/{job['id']}/events")
        done = (await http.get(f"/reports/{job['id']}")).json()
        assert done["status"] == "completed", done["error"]
        report = (await http.get(done["links"]["json"])).json()
        assert all(ref["url"].startswith("file://") for ref in report["references"])


async def test_a_report_that_cannot_be_written_fails_with_its_error_code(tmp_path):
    app = make_app(tmp_path)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": "Quantum chromodynamics of dragons"})).json()
        await http.get(f"/reports/{job['id']}/events")
        failed = (await http.get(f"/reports/{job['id']}")).json()
        assert failed["status"] == "failed" and failed["error"]["code"] == "no_sources"
        assert (await http.get(f"/reports/{job['id']}/report.pdf")).status_code == 409


async def test_cancel_a_queued_job(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:  # no worker: the job stays queued
        queued = (await http.post("/reports", json={"topic": "Wind power", "sections": 4})).json()
        canceled = await http.delete(f"/reports/{queued['id']}")
        assert canceled.status_code == 202
        assert canceled.json()["status"] == "canceled" and canceled.json()["error"]["code"] == "canceled"
        assert (await http.delete(f"/reports/{queued['id']}")).status_code == 204  # now it is finished
    assert not (tmp_path / "out" / queued["id"]).exists()  # it never started


async def test_delete_a_finished_report_and_its_files(tmp_path, finished):
    app = make_app(tmp_path)
    folder = tmp_path / "out" / finished
    assert (folder / "report.pdf").exists()
    async with client(app) as http:
        assert (await http.get(f"/reports/{finished}")).json()["status"] == "completed"
        assert (await http.delete(f"/reports/{finished}")).status_code == 204
        assert not folder.exists()
        assert (await http.get(f"/reports/{finished}")).status_code == 404
        assert (await http.get(f"/reports/{finished}/report.pdf")).status_code == 404
        assert (await http.delete(f"/reports/{finished}")).status_code == 404


@pytest.mark.parametrize("browse", [False, True])
async def test_a_delete_does_not_hold_up_the_server(tmp_path, finished, browse):
    """A delete removes a folder and writes the store: done on the event loop, it held every other request up
    (a browser test had waited 60 s for its answer in a loaded suite). Here the deletion waits until another
    request has been answered, which it could never be if the delete ran on the loop."""
    import threading

    app = make_app(tmp_path)
    answered = threading.Event()
    async with client(app) as http:
        worker = app.state.worker
        real = worker.delete

        def slow_delete(report_id: str) -> bool:
            assert answered.wait(timeout=10), "the server answered nothing while the delete ran"
            return real(report_id)

        async def other() -> None:
            await asyncio.sleep(0.05)
            assert (await http.get("/reports")).status_code == 200
            answered.set()

        worker.delete = slow_delete
        call = (http.post(f"/browse/{finished}/delete", headers={"origin": "http://testserver"}) if browse
                else http.delete(f"/reports/{finished}"))
        response, _ = await asyncio.gather(call, other())
        assert response.status_code == (303 if browse else 204), response.text[:300]
        assert not (tmp_path / "out" / finished).exists()


async def test_the_agent_card(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        card = (await http.get("/.well-known/agent.json")).json()
        assert card["name"] == "reportgen" and card["version"] and card["url"] == "http://testserver/a2a"
        assert card["protocolVersion"] == "0.3.0" and card["preferredTransport"] == "JSONRPC"  # the legacy form
        assert card["capabilities"]["streaming"] is True and card["capabilities"]["pushNotifications"] is True
        skill, *agents = card["skills"]
        assert skill["id"] == "generate-report"
        assert [a["id"] for a in agents] == ["agent-browser", "agent-data", "agent-plot", "agent-writer"]
        assert agents[0]["inputSchema"]["required"] == ["query"]
        schema = skill["inputSchema"]
        assert schema["required"] == ["topic"] and schema["properties"]["topic"]["maxLength"] == 500
        assert set(schema["properties"]) == {"topic", "lang", "sections", "corpus", "wiki", "template",
                                             "appendix", "guidance", "review", "review_timeout_s"}
        assert {"brief", "report"} <= set(card["templates"]) and card["corpora"] == []
        assert card["endpoints"]["a2a"] == "http://testserver/a2a"
        a2a = (await http.get("/.well-known/agent-card.json")).json()
        assert a2a["supportedInterfaces"][0]["url"] == "http://testserver/a2a"
        assert [i["protocolVersion"] for i in a2a["supportedInterfaces"]] == ["1.0"]
        assert "url" not in a2a and "protocolVersion" not in a2a  # 1.0 only: the 0.3 fields are the legacy card's
        assert a2a["capabilities"]["streaming"] is True and a2a["skills"][0]["id"] == "generate-report"
        assert [s["id"] for s in a2a["skills"][1:]] == [a["id"] for a in agents]


async def test_openapi_documents_every_endpoint(tmp_path):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        schema = (await http.get("/openapi.json")).json()
    paths = schema["paths"]
    assert set(paths["/reports"]) == {"get", "post"}
    assert set(paths["/reports/{report_id}"]) == {"get", "delete"}
    for suffix in ("events", "report.html", "report.pdf", "report.json"):
        assert "get" in paths[f"/reports/{{report_id}}/{suffix}"]
    assert {"/.well-known/agent.json", "/.well-known/agent-card.json", "/a2a"} <= set(paths)
    assert {"401", "409", "413", "422", "429"} <= set(paths["/reports"]["post"]["responses"])
    assert "text/event-stream" in paths["/reports/{report_id}/events"]["get"]["responses"]["200"]["content"]



@pytest.mark.parametrize("name", ["reportgen.api", "reportgen.store", "reportgen.worker"] + [
    f"reportgen.api.{m}" for m in ("a2a", "app", "browse", "card", "events", "reports", "schemas", "security")])
def test_public_surface_is_explicit_and_sorted(name):
    module = importlib.import_module(name)
    assert module.__all__ == sorted(module.__all__)
    assert all(hasattr(module, member) for member in module.__all__)


async def test_the_worker_runs_at_most_max_jobs_at_once(tmp_path):
    app = make_app(tmp_path, search=SlowSearch(0.2), max_jobs=1, max_concurrency=1)
    async with client(app) as http:
        first = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()
        second = (await http.post("/reports", json={"topic": "Wind power", "sections": 4})).json()

        async def first_working():
            return (await http.get(f"/reports/{first['id']}")).json()["status"] == "working"

        await wait_until(first_working)
        await asyncio.sleep(0.3)
        assert (await http.get(f"/reports/{second['id']}")).json()["status"] == "submitted"
        for job in (second, first):  # end quickly: the queued one at once, the running one at a boundary
            assert (await http.delete(f"/reports/{job['id']}")).status_code == 202
        await http.get(f"/reports/{first['id']}/events")
        assert (await http.get(f"/reports/{first['id']}")).json()["status"] == "canceled"


def test_serve_binds_loopback_by_default(monkeypatch):
    calls = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: calls.append(kwargs))
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 0, result.output
    assert (calls[-1]["host"], calls[-1]["port"]) == ("127.0.0.1", 8000)
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "9001"])
    assert (calls[-1]["host"], calls[-1]["port"]) == ("0.0.0.0", 9001)
    assert "without REPORTGEN_API_KEY" in result.stderr
    assert CliRunner().invoke(cli, ["serve", "--port", "70000"]).exit_code == 2


def test_langgraph_json_names_the_report_graph():
    config = json.loads((Path(__file__).parents[1] / "langgraph.json").read_text())
    module, _, attribute = config["graphs"]["report"].partition(":")
    assert module == "./reportgen/api/langgraph_entry.py"
    graph = getattr(importlib.import_module("reportgen.api.langgraph_entry"), attribute)
    assert {"plan", "dispatch", "coordinate", "render"} <= set(graph.get_graph().nodes)


async def test_a_report_made_before_the_event_log_replays_from_its_file(tmp_path, finished, reportgen_home):
    import sqlite3

    db = sqlite3.connect(reportgen_home / "jobs.sqlite")
    db.execute("DELETE FROM job_events")  # as a database migrated from before the event log has it
    db.commit()
    db.close()
    app = make_app(tmp_path)
    async with client(app) as http:
        events = _sse((await http.get(f"/reports/{finished}/events")).text)
        again = _sse((await http.get(f"/reports/{finished}/events", headers={"Last-Event-ID": "3"})).text)
    lines = (tmp_path / "out" / finished / "messages.jsonl").read_text().splitlines()
    assert [int(e["id"]) for e in events if e["event"] == "acp"] == list(range(1, len(lines) + 1))
    assert [int(e["id"]) for e in again if e["event"] == "acp"] == list(range(4, len(lines) + 1))  # imported once
