"""Plan review over REST: stop at input_required, read / edit / approve / guide the plan, survive a restart."""

from __future__ import annotations

import json

import pytest

from reportgen.acp import read_messages
from reportgen.api import create_app
from reportgen.store import JobStore

from api_kit import TOPIC, client, make_app, make_settings, wait_until
from fakes import FakeSearch


async def _waiting(http, report_id: str) -> dict:
    async def check():
        job = (await http.get(f"/reports/{report_id}")).json()
        return job if job["status"] == "input_required" else None

    return await wait_until(check)


async def _finished(http, report_id: str) -> dict:
    async def check():
        job = (await http.get(f"/reports/{report_id}")).json()
        return job if job["status"] in ("completed", "failed", "canceled") else None

    return await wait_until(check, timeout=60)


async def test_a_reviewed_plan_is_edited_and_the_report_follows_the_edit(tmp_path):
    app = make_app(tmp_path)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 3, "review": True})).json()
        waiting = await _waiting(http, job["id"])
        assert waiting["links"]["plan"] == f"/reports/{job['id']}/plan"
        assert waiting["links"]["review"] == f"/reports/{job['id']}/review"
        assert waiting["review_deadline"] is None  # the default policy: keep waiting
        plan = (await http.get(f"/reports/{job['id']}/plan")).json()
        sections = plan["sections"]
        assert len(sections) == 3 and all(s["id"] and s["title"] and s["search"] for s in sections)
        assert all(s["sources"] and s["sources"][0]["url"].startswith("https://") for s in sections)
        old_titles = [s["title"] for s in sections]

        # Invalid edits are refused with a 422 that names the problem, and the job keeps waiting.
        empty = [{**sections[0], "title": "   "}, *sections[1:]]
        refused = await http.put(f"/reports/{job['id']}/plan", json={"sections": empty})
        assert refused.status_code == 422 and "section title is empty" in json.dumps(refused.json())
        refused = await http.put(f"/reports/{job['id']}/plan", json={"sections": [{"id": "s9", "title": "X"}]})
        assert refused.status_code == 422 and "'s9'" in refused.json()["detail"]
        blueprint = plan["blueprint"]
        unknown = {**blueprint, "tasks": [{**blueprint["tasks"][0], "agent": "oracle"}, *blueprint["tasks"][1:]]}
        refused = await http.post(f"/reports/{job['id']}/review", json={"action": "edit", "blueprint": unknown})
        assert refused.status_code == 422 and "oracle" in refused.json()["detail"]
        first = blueprint["tasks"][0]
        cyclic = {**blueprint, "tasks": [{**first, "depends_on": ["introduction"]}, *blueprint["tasks"][1:]]}
        refused = await http.post(f"/reports/{job['id']}/review", json={"action": "edit", "blueprint": cyclic})
        assert refused.status_code == 422 and "cycle" in refused.json()["detail"]
        assert (await http.get(f"/reports/{job['id']}")).json()["status"] == "input_required"

        # Rename the first section, drop the second.
        edit = [{**sections[0], "title": "Wind turbines"}, sections[2]]
        accepted = await http.put(f"/reports/{job['id']}/plan", json={"sections": edit})
        assert accepted.status_code == 202 and accepted.json()["status"] == "submitted"
        again = await http.post(f"/reports/{job['id']}/review", json={"action": "approve"})
        assert again.status_code == 409  # answered already

        done = await _finished(http, job["id"])
        assert done["status"] == "completed", done
        report = (await http.get(f"/reports/{job['id']}/report.json")).json()
    titles = [s["title"] for s in report["sections"]]
    assert "Wind turbines" in titles and old_titles[1] not in titles and old_titles[2] in titles
    messages = read_messages(tmp_path / "out" / job["id"] / "messages.jsonl")
    review = [m for m in messages if m.type == "STATUS_UPDATE" and m.task_id == "review"]
    assert len(review) == 1 and review[0].status == "edited" and review[0].agent == "reviewer"
    assert "Wind turbines" in review[0].detail and f"removed s2 {old_titles[1]!r}" in review[0].detail
    assert "(by ip:" in review[0].detail and "UTC)" in review[0].detail
    html = (tmp_path / "out" / job["id"] / "report.html").read_text()
    appendix = html[html.index('id="appendix-review"'):]
    assert "plan edited" in appendix[:2000] and "Wind turbines" in appendix[:2000]


async def test_guidance_plans_again_and_waits_for_another_review(tmp_path):
    app = make_app(tmp_path)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 3, "review": True})).json()
        await _waiting(http, job["id"])
        guided = await http.post(f"/reports/{job['id']}/review", json={"action": "guidance", "guidance": "solar"})
        assert guided.status_code == 202
        await _waiting(http, job["id"])
        assert (await http.post(f"/reports/{job['id']}/review", json={"action": "approve"})).status_code == 202
        assert (await _finished(http, job["id"]))["status"] == "completed"
    updates = [(m.status, m.detail) for m in read_messages(tmp_path / "out" / job["id"] / "messages.jsonl")
               if m.type == "STATUS_UPDATE" and m.task_id == "review"]
    assert [s for s, _ in updates if s in ("guided", "approved")] == ["guided", "approved"]


async def test_a_job_waiting_for_review_survives_a_restart(tmp_path):
    settings = make_settings(tmp_path)
    app = create_app(settings, search=FakeSearch(), backoff_scale=0)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 3, "review": True})).json()
        await _waiting(http, job["id"])
        proposed = (await http.get(f"/reports/{job['id']}/plan")).json()
    store = JobStore(settings.jobs_db)
    assert store.get(job["id"]).status.value == "input_required"
    store.close()
    app = create_app(settings, search=FakeSearch(), backoff_scale=0)
    async with client(app) as http:
        assert (await http.get(f"/reports/{job['id']}")).json()["status"] == "input_required"
        assert (await http.get(f"/reports/{job['id']}/plan")).json() == proposed
        assert (await http.post(f"/reports/{job['id']}/review", json={"action": "approve"})).status_code == 202
        assert (await _finished(http, job["id"]))["status"] == "completed"


async def test_an_unattended_review_is_approved_after_its_timeout(tmp_path, monkeypatch):
    from datetime import datetime, timedelta, timezone

    import reportgen.worker as worker_module

    monkeypatch.setattr(worker_module, "REVIEW_SWEEP_S", 0.05)
    app = make_app(tmp_path)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 2, "review": True,
                                                 "review_timeout_s": 60})).json()
        waiting = await _waiting(http, job["id"])
        deadline = datetime.fromisoformat(waiting["review_deadline"])
        assert timedelta(seconds=50) < deadline - datetime.now(timezone.utc) <= timedelta(seconds=60)
        store = app.state.worker.store
        store.wait_for_review(job["id"], store.get(job["id"]).plan, datetime.now(timezone.utc))  # time passes
        assert (await _finished(http, job["id"]))["status"] == "completed"
    messages = read_messages(tmp_path / "out" / job["id"] / "messages.jsonl")
    assert any(m.type == "STATUS_UPDATE" and m.status == "approved" and "by timeout" in m.detail for m in messages)


async def test_a_job_waiting_for_review_is_canceled_at_once(tmp_path):
    app = make_app(tmp_path)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 2, "review": True})).json()
        await _waiting(http, job["id"])
        assert (await http.delete(f"/reports/{job['id']}")).status_code == 202
        done = (await http.get(f"/reports/{job['id']}")).json()
        assert done["status"] == "canceled" and "review" in done["error"]["message"]
        assert (await http.post(f"/reports/{job['id']}/review", json={"action": "approve"})).status_code == 409


@pytest.mark.parametrize("body", [
    '{"topic": "Solar power", "sections": 1e400}',
    '{"topic": "Solar \\ud800 power"}',
    '{"topic": "Solar\\u0000power"}',
    '{"topic": "Solar power", "sections": "5"}',
    '{"topic": "Solar power", "review": "yes"}',
    '{"topic": "Solar power", "review": true, "review_timeout_s": 1e400}',
])
async def test_bad_input_is_a_422_and_breaks_nothing(tmp_path, body):
    app = make_app(tmp_path)
    async with client(app, lifespan=False) as http:
        refused = await http.post("/reports", content=body, headers={"content-type": "application/json"})
        assert refused.status_code == 422, refused.text
        assert refused.json()["detail"][0]["loc"][0] == "body"
        listed = await http.get("/reports")
        assert listed.status_code == 200 and listed.json()["total"] == 0


async def test_a_bad_review_answer_is_a_422(tmp_path):
    app = make_app(tmp_path)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 2, "review": True})).json()
        await _waiting(http, job["id"])
        for body in ('{"action": "guidance", "guidance": "a\\u0000b"}', '{"action": "edit"}',
                     '{"sections": [{"title": "\\ud800"}]}', '{"action": "launch"}'):
            path = "plan" if body.startswith('{"sections"') else "review"
            method = http.put if path == "plan" else http.post
            answer = await method(f"/reports/{job['id']}/{path}", content=body,
                                  headers={"content-type": "application/json"})
            assert answer.status_code == 422, (body, answer.text)
        assert (await http.get(f"/reports/{job['id']}")).json()["status"] == "input_required"
