"""Against a real uvicorn on 127.0.0.1: live SSE and reconnect, cancel, restart, the A2A SDK client."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections import Counter

import httpx
import pytest
import sqlalchemy.exc
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_data_part, new_text_part
from a2a.types.a2a_pb2 import CancelTaskRequest, GetTaskRequest, Message, Role, SendMessageRequest, TaskState
from a2a.utils.errors import InvalidParamsError

from reportgen.acp import read_messages
from reportgen.api import create_app
from reportgen.store import JobStore

from api_kit import TOPIC, SlowSearch, client, live, make_app, make_settings, sse_events as _events, wait_until


async def test_sse_streams_live_and_a_reconnect_gets_what_it_missed(tmp_path):
    app = make_app(tmp_path, search=SlowSearch(0.15), max_concurrency=2)
    with live(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()
            seen: list[int] = []
            async with http.stream("GET", f"/reports/{job['id']}/events") as response:
                assert response.headers["content-type"].startswith("text/event-stream")
                async for event in _events(response):
                    if event.get("event") == "acp":
                        seen.append(int(event["id"]))
                    if len(seen) == 5:
                        break  # drop the connection mid-run
            status = (await http.get(f"/reports/{job['id']}")).json()["status"]
            assert status in ("submitted", "working"), "the first connection saw the run live"

            statuses = []
            headers = {"Last-Event-ID": str(seen[-1])}
            async with http.stream("GET", f"/reports/{job['id']}/events", headers=headers) as response:
                async for event in _events(response):
                    if event.get("event") == "acp":
                        seen.append(int(event["id"]))
                    else:
                        statuses.append(json.loads(event["data"])["status"])
            assert statuses[-1] == "completed"
            lines = (tmp_path / "out" / job["id"] / "messages.jsonl").read_text().splitlines()
            assert seen == list(range(1, len(lines) + 1))  # nothing lost, nothing twice


async def test_cancel_stops_a_running_report_at_a_task_boundary(tmp_path):
    app = make_app(tmp_path, search=SlowSearch(0.2), max_concurrency=1)
    with live(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()
            url = f"/reports/{job['id']}"

            async def some_tasks_done():
                state = (await http.get(url)).json()
                return state["status"] == "working" and state["progress"]["tasks_done"] >= 2

            await wait_until(some_tasks_done)
            canceled = await http.delete(url)
            assert canceled.status_code == 202
            assert canceled.json()["cancel_requested"] is True
            async with http.stream("GET", f"{url}/events") as response:
                last = [json.loads(e["data"]) async for e in _events(response) if e.get("event") == "status"][-1]
            assert last["status"] == "canceled" and last["error"]["code"] == "canceled"
            assert "task boundary" in last["error"]["message"]
            assert (await http.get(f"{url}/report.pdf")).status_code == 409
    folder = tmp_path / "out" / job["id"]
    messages = read_messages(folder / "messages.jsonl")
    assert any(m.type == "STATUS_UPDATE" and m.task_id == "run" and m.status == "canceled" for m in messages)
    assert not (folder / "report.pdf").exists()


async def test_a_restarted_server_resumes_the_job_without_redoing_finished_tasks(tmp_path):
    settings = make_settings(tmp_path, max_concurrency=1)
    with live(create_app(settings, search=SlowSearch(0.2), backoff_scale=0)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()

            async def some_tasks_done():
                return (await http.get(f"/reports/{job['id']}")).json()["progress"]["tasks_done"] >= 3

            await wait_until(some_tasks_done)
        server.stop()  # mid-run: running tasks reach a boundary, the job stays `working`
    store = JobStore(settings.jobs_db)
    stopped = store.get(job["id"])
    store.close()
    assert stopped.status.value == "working" and 3 <= stopped.tasks_done < stopped.tasks_total

    with live(create_app(settings, search=SlowSearch(0.01), backoff_scale=0)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            async with http.stream("GET", f"/reports/{job['id']}/events") as response:
                async for _ in _events(response):
                    pass
            done = (await http.get(f"/reports/{job['id']}")).json()
    assert done["status"] == "completed" and done["runs"] == 2
    messages = read_messages(tmp_path / "out" / job["id"] / "messages.jsonl")
    ok = Counter(m.task_id for m in messages if m.type == "AGENT_RESPONSE" and m.status_code == 200)
    assert ok and max(ok.values()) == 1, ok  # no task answered 200 twice
    updates = [(m.task_id, m.status) for m in messages if m.type == "STATUS_UPDATE"]
    assert ("run", "interrupted") in updates and ("run", "resumed") in updates
    assert sum(status == "reused" for _, status in updates) >= 3


async def test_lines_a_worker_could_not_copy_before_it_stopped_reach_the_stream_in_their_place(tmp_path,
                                                                                                monkeypatch):
    """The event log mirrors messages.jsonl: what a worker logged while the database was away, and
    could not copy before it stopped, goes in with the next run's lines (another process, nothing in
    memory carried over), so a stream gets every line once, numbered as in the file."""
    away = threading.Event()
    real = JobStore.log_events

    def log_events(self, job_id, lines):
        if away.is_set():
            raise sqlalchemy.exc.OperationalError("UPDATE jobs", {}, ConnectionError("the database is away"))
        return real(self, job_id, lines)

    monkeypatch.setattr(JobStore, "log_events", log_events)
    settings = make_settings(tmp_path, max_concurrency=1)
    with live(create_app(settings, search=SlowSearch(0.2), backoff_scale=0)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()
            log = tmp_path / "out" / job["id"] / "messages.jsonl"
            await wait_until(lambda: _answers(log) >= 1)
            away.set()  # the event log is away: the lines wait in the file
            await wait_until(lambda: _answers(log) >= 3)
        server.stop()  # and this worker is gone before the database came back
    store = JobStore(settings.jobs_db)
    copied = store.events_logged(job["id"])
    store.close()
    logged = len(log.read_text().splitlines())
    assert 0 < copied < logged  # some lines never reached the event log here

    away.clear()
    with live(create_app(settings, search=SlowSearch(0.01), backoff_scale=0)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            async with http.stream("GET", f"/reports/{job['id']}/events") as response:
                events = [e async for e in _events(response)]
    lines = log.read_text().splitlines()
    acp = [e for e in events if e.get("event") == "acp"]
    assert [int(e["id"]) for e in acp] == list(range(1, len(lines) + 1))  # none lost, none twice, in order
    assert [json.loads(e["data"]) for e in acp] == [json.loads(line) for line in lines]
    assert json.loads([e for e in events if e.get("event") == "status"][-1]["data"])["status"] == "completed"


def test_a_run_on_a_machine_without_the_earlier_log_goes_on_where_the_event_log_stopped(tmp_path):
    """Object storage, no shared folder: the resumed run's messages.jsonl starts with the event log's
    lines (a torn line keeps its number, empty), so its own lines are numbered after them, not from 1."""
    from reportgen.worker import Worker

    settings = make_settings(tmp_path, out_dir=tmp_path / "elsewhere")
    store = JobStore(settings.jobs_db)
    worker = Worker(settings, store)
    store.create("moved-000001", "Moved", {}, "ip:1")
    assert store.log_events("moved-000001", [(1, '{"a": 1}'), (3, '{"a": 3}')]) == 3  # line 2 was torn
    worker._restore_log("moved-000001")
    log = worker.report_dir("moved-000001") / "messages.jsonl"
    assert log.read_text().splitlines() == ['{"a": 1}', "", '{"a": 3}']
    with open(log, "a") as fh:
        fh.write('{"a": 4}\n{"a": 5}\n{"a"')  # this run's lines, the last one torn by a kill
    worker._flush_events("moved-000001")
    assert store.events_after("moved-000001", 0) == [(1, '{"a": 1}'), (3, '{"a": 3}'), (4, '{"a": 4}'),
                                                     (5, '{"a": 5}')]
    worker._restore_log("moved-000001")  # nothing is missing: the file stays as it is
    assert log.read_text().endswith('{"a": 5}\n{"a"')
    store.close()


def _answers(log) -> int:
    return sum(m.type == "AGENT_RESPONSE" for m in read_messages(log)) if log.exists() else 0


async def test_a_run_that_cannot_renew_its_lease_stops_before_another_worker_may_take_it(tmp_path, monkeypatch):
    """Fencing: with the database away, the run stops within half a lease and answers no task after that,
    so the worker that takes the job once the lease has run out is the only one answering its tasks."""
    away = threading.Event()

    def _unreachable(real):
        def call(self, *args):
            if away.is_set():
                raise sqlalchemy.exc.OperationalError("UPDATE jobs", {}, ConnectionError("the database is away"))
            return real(self, *args)
        return call

    take = JobStore.acquire_lease
    for name in ("acquire_lease", "renew_lease", "release_lease"):
        monkeypatch.setattr(JobStore, name, _unreachable(getattr(JobStore, name)))
    lease_s = 2.0
    app = make_app(tmp_path, search=SlowSearch(1.0), lease_s=lease_s, max_concurrency=1)
    async with client(app) as http:
        job_id = (await http.post("/reports", json={"topic": TOPIC, "sections": 5})).json()["id"]
        log = tmp_path / "out" / job_id / "messages.jsonl"
        await wait_until(lambda: _answers(log) >= 2)
        away.set()
        await asyncio.sleep(lease_s + 0.3)  # the lease has run out: another worker may take the job
        assert take(app.state.worker.store, job_id, "another-worker", 60)
        taken = _answers(log)
        await asyncio.sleep(2.0)
        assert _answers(log) == taken  # nothing answered beside the new lease holder
        assert (await http.get(f"/reports/{job_id}")).json()["status"] == "working"  # to be resumed, not failed


def _message(*parts) -> SendMessageRequest:
    return SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=str(uuid.uuid4()), parts=list(parts)))


async def test_the_a2a_sdk_client_gets_a_report(tmp_path):
    app = make_app(tmp_path)
    with live(app) as server:
        async with httpx.AsyncClient(timeout=30) as http:
            a2a = await create_client(server.url, client_config=ClientConfig(httpx_client=http, streaming=True))
            states, artifacts, task_id = [], [], None
            async for event in a2a.send_message(_message(new_text_part(TOPIC), new_data_part({"sections": 4}))):
                if event.HasField("task"):
                    task_id = event.task.id
                elif event.HasField("status_update"):
                    states.append(event.status_update.status.state)
                    task_id = event.status_update.task_id
                elif event.HasField("artifact_update"):
                    artifacts.append(event.artifact_update.artifact)
            assert states[0] == TaskState.TASK_STATE_WORKING and states[-1] == TaskState.TASK_STATE_COMPLETED
            assert [a.name for a in artifacts] == ["report.html", "report.pdf", "report.json"]
            assert artifacts[1].parts[0].raw.startswith(b"%PDF")
            assert artifacts[1].parts[0].media_type == "application/pdf"

            task = await a2a.get_task(GetTaskRequest(id=task_id))
            assert task.status.state == TaskState.TASK_STATE_COMPLETED and len(task.artifacts) == 3
            report_id = artifacts[0].metadata["report_id"]
            assert (await http.get(f"{server.url}/reports/{report_id}")).json()["status"] == "completed"

            with pytest.raises(InvalidParamsError, match="500"):  # InvalidParams, before anything is stored
                [e async for e in a2a.send_message(_message(new_text_part("x" * 10_000)))]
            await a2a.close()


async def test_the_a2a_sdk_client_cancels_a_report(tmp_path):
    app = make_app(tmp_path, search=SlowSearch(0.2), max_concurrency=1)
    with live(app) as server:
        async with httpx.AsyncClient(timeout=30) as http:
            a2a = await create_client(server.url, client_config=ClientConfig(httpx_client=http, streaming=True))
            task_id = None
            async for event in a2a.send_message(_message(new_text_part(TOPIC))):
                if event.HasField("status_update") and event.status_update.metadata["tasks_done"] >= 1:
                    task_id = event.status_update.task_id
                    break
            assert task_id is not None
            canceled = await a2a.cancel_task(CancelTaskRequest(id=task_id))
            assert canceled.status.state == TaskState.TASK_STATE_CANCELED
            reports = (await http.get(f"{server.url}/reports")).json()["items"]

            async def job_canceled():
                return (await http.get(f"{server.url}/reports/{reports[0]['id']}")).json()["status"] == "canceled"

            await wait_until(job_canceled)
            await a2a.close()
