"""The whole service on a real PostgreSQL (``REPORTGEN_DATABASE_URL``): jobs, the event log, LangGraph
checkpoints and A2A tasks all in the database, nothing in the data dir's SQLite files."""

from __future__ import annotations

import gc
import json
import uuid
from collections import Counter

import httpx
import psycopg
import pytest
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_data_part, new_text_part
from a2a.types.a2a_pb2 import GetTaskRequest, Message, Role, SendMessageRequest, TaskState

from reportgen.acp import read_messages
from reportgen.api import create_app
from reportgen.store import JobStore

from api_kit import TOPIC, SlowSearch, live, make_settings, wait_until


def _sse(text: str) -> list[dict[str, str]]:
    events = []
    for block in text.strip().split("\r\n\r\n" if "\r\n" in text else "\n\n"):
        fields = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if "data" in fields:
            events.append(fields)
    return events


async def test_a_report_and_an_a2a_task_live_in_postgres(tmp_path, postgres_server, reportgen_home):
    url = postgres_server.create_database()
    settings = make_settings(tmp_path, database_url=url, max_jobs_per_client=20)
    app = create_app(settings, search=SlowSearch(0.01), backoff_scale=0)
    with live(app) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 3})).json()
            events = _sse((await http.get(f"/reports/{job['id']}/events")).text)  # ends with the job
            assert json.loads(events[-1]["data"])["status"] == "completed"
            acp = [int(e["id"]) for e in events if e["event"] == "acp"]
            lines = (tmp_path / "out" / job["id"] / "messages.jsonl").read_text().splitlines()
            assert acp == list(range(1, len(lines) + 1))  # the database's event log is the file's, in order
            rest = _sse((await http.get(f"/reports/{job['id']}/events", headers={"Last-Event-ID": "5"})).text)
            assert [int(e["id"]) for e in rest if e["event"] == "acp"] == acp[5:]

            a2a = await create_client(server.url, client_config=ClientConfig(httpx_client=http, streaming=True))
            message = Message(role=Role.ROLE_USER, message_id=str(uuid.uuid4()),
                              parts=[new_text_part(TOPIC), new_data_part({"sections": 2})])
            task_id = None
            async for event in a2a.send_message(SendMessageRequest(message=message)):
                if event.HasField("task"):
                    task_id = event.task.id
            assert task_id
            task = await a2a.get_task(GetTaskRequest(id=task_id))
            assert task.status.state == TaskState.TASK_STATE_COMPLETED

    with psycopg.connect(url) as conn:
        jobs = conn.execute("SELECT count(*), min(status), max(status) FROM jobs").fetchone()
        threads = {r[0] for r in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}
        tasks = conn.execute("SELECT count(*) FROM tasks").fetchone()[0]
        events_n = conn.execute("SELECT count(*) FROM job_events WHERE job_id = %s", (job["id"],)).fetchone()[0]
    assert jobs == (2, "completed", "completed") and tasks == 1 and events_n == len(lines)
    assert job["id"] in threads and any(t.startswith(f"{job['id']}/") for t in threads)  # report and task graphs
    assert not (reportgen_home / "jobs.sqlite").exists() and not (reportgen_home / "checkpoints.sqlite").exists()


# The first server is stopped mid-run: a database connection of that run may outlive its store and be
# garbage-collected during this test ("psycopg.Connection … was deleted while still open"). Seen once in a
# fresh-clone run at stop 29 and not in three runs of this file alone; a known limit of stopping mid-task,
# not a failure of the resume this test checks. Its warning is collected here (gc.collect) and ignored.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
async def test_a_restarted_service_resumes_from_postgres_checkpoints(tmp_path, postgres_server):
    url = postgres_server.create_database()
    settings = make_settings(tmp_path, database_url=url, max_concurrency=2)
    with live(create_app(settings, search=SlowSearch(0.2), backoff_scale=0)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            job = (await http.post("/reports", json={"topic": TOPIC, "sections": 4})).json()

            async def some_tasks_done():
                return (await http.get(f"/reports/{job['id']}")).json()["progress"]["tasks_done"] >= 3

            await wait_until(some_tasks_done)
        server.stop()  # mid-run: the job stays `working`
    gc.collect()  # what the stopped run left behind is collected within this test (see above)
    store = JobStore(url)
    stopped = store.get(job["id"])
    store.close()
    assert stopped.status.value == "working" and stopped.lease_owner is None  # the lease was given back

    with live(create_app(settings, search=SlowSearch(0.01), backoff_scale=0)) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            await http.get(f"/reports/{job['id']}/events")
            done = (await http.get(f"/reports/{job['id']}")).json()
    assert done["status"] == "completed" and done["runs"] == 2
    messages = read_messages(tmp_path / "out" / job["id"] / "messages.jsonl")
    ok = Counter(m.task_id for m in messages if m.type == "AGENT_RESPONSE" and m.status_code == 200)
    assert ok and max(ok.values()) == 1, ok  # no task answered 200 twice
    assert sum(m.type == "STATUS_UPDATE" and m.status == "reused" for m in messages) >= 3
