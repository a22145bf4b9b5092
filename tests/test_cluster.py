"""The distributed deployment against real servers: PostgreSQL, Redis, 2 API replicas and Celery workers as
processes (the tests' fake search, no network beyond 127.0.0.1), and the faults the issue names.

Every report's ``messages.jsonl`` must show no task answered 200 twice, whatever was killed.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import httpx
import psycopg
import pytest

from reportgen.acp import read_messages
from reportgen.broker import Broker
from reportgen.cluster import Cluster
from reportgen.config import Settings

from api_kit import TOPIC, sse_events as _sse

HERE = Path(__file__).parent
LEASE_S = 3.0


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, postgres_server, redis_server):
    """2 API replicas and 2 workers on a fresh database; short leases and a fast reconciler."""
    import redis

    redis.Redis.from_url(redis_server.url).flushall()
    root = tmp_path_factory.mktemp("cluster")
    database = postgres_server.create_database()
    env = {"REPORTGEN_LEASE_S": str(LEASE_S), "REPORTGEN_RECONCILE_S": "1", "REPORTGEN_SHUTDOWN_GRACE_S": "5",
           "REPORTGEN_MAX_JOBS_PER_CLIENT": "100", "REPORTGEN_RATE_LIMIT": "1000", "REPORTGEN_PLUGINS": "",
           "FAKE_SEARCH_DELAY": "0.15", "PYTHONUNBUFFERED": "1"}
    group = Cluster(root, database, redis_server.url, env=env,
                    api_command=[sys.executable, str(HERE / "serve_fake.py")],
                    worker_command=[sys.executable, str(HERE / "worker_fake.py")])
    group.database = database  # type: ignore[attr-defined]
    group.postgres = postgres_server  # type: ignore[attr-defined]
    group.redis = redis_server  # type: ignore[attr-defined]
    try:
        for _ in range(2):
            group.start_worker()
        group.start_api()
        group.start_api()
        yield group
    finally:
        group.stop()


def _job(cluster: Cluster, job_id: str) -> dict:
    with psycopg.connect(cluster.database) as conn:  # type: ignore[attr-defined]
        cur = conn.execute("SELECT status, runs, lease_owner, tasks_done, tasks_total, error FROM jobs WHERE id = %s",
                           (job_id,))
        row = cur.fetchone()
    assert row is not None
    return dict(zip(["status", "runs", "lease_owner", "tasks_done", "tasks_total", "error"], row, strict=True))


async def _until(check, timeout: float = 60.0, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        await asyncio.sleep(step)
    raise AssertionError(f"timed out after {timeout} s")




def _no_task_answered_twice(cluster: Cluster, job_id: str) -> list:
    messages = read_messages(cluster.out_dir / job_id / "messages.jsonl")
    ok = Counter(m.task_id for m in messages if m.type == "AGENT_RESPONSE" and m.status_code == 200)
    assert ok and max(ok.values()) == 1, ok
    return messages


async def _post(url: str, sections: int = 3) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=30, trust_env=False) as http:
        response = await http.post("/reports", json={"topic": TOPIC, "sections": sections})
        assert response.status_code == 202, response.text
        return str(response.json()["id"])


async def test_a_report_requested_from_one_replica_is_followed_to_the_end_on_the_other(cluster):
    (_, first), (_, second) = cluster.apis
    job_id = await _post(first)
    ids, statuses = [], []
    async with httpx.AsyncClient(base_url=second, timeout=60, trust_env=False) as http:
        async with http.stream("GET", f"/reports/{job_id}/events") as response:
            async for event in _sse(response):
                if event["event"] == "acp":
                    ids.append(int(event["id"]))
                else:
                    statuses.append(json.loads(event["data"])["status"])
        assert statuses[-1] == "completed" and "working" in statuses
        pdf = await http.get(f"/reports/{job_id}/report.pdf")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    lines = (cluster.out_dir / job_id / "messages.jsonl").read_text().splitlines()
    assert ids == list(range(1, len(lines) + 1))  # live on the other replica: nothing lost, nothing twice
    _no_task_answered_twice(cluster, job_id)
    assert _job(cluster, job_id)["runs"] == 1


async def test_a_cancel_asked_of_one_replica_reaches_the_worker(cluster):
    (_, first), (_, second) = cluster.apis
    job_id = await _post(first, sections=5)
    await _until(lambda: (j := _job(cluster, job_id))["tasks_done"] >= 2 and j["lease_owner"])
    async with httpx.AsyncClient(base_url=second, timeout=30, trust_env=False) as http:
        assert (await http.delete(f"/reports/{job_id}")).status_code == 202
    # A worker held the lease, so no API replica could cancel the job itself: the worker saw the flag.
    job = await _until(lambda: (j := _job(cluster, job_id))["status"] == "canceled" and j)
    assert job["lease_owner"] is None and "cancel" in job["error"]


async def test_two_workers_handed_the_same_job_run_it_once(cluster):
    (_, first), _ = cluster.apis
    broker = Broker(Settings(broker_url=cluster.redis.url))  # type: ignore[attr-defined]
    job_id = await _post(first)
    for _ in range(3):  # three more messages for the same job: both workers get one
        broker.enqueue(job_id)
    broker.close()
    await _until(lambda: _job(cluster, job_id)["status"] == "completed")
    assert _job(cluster, job_id)["runs"] == 1  # the lease let one worker run it; the others did nothing
    _no_task_answered_twice(cluster, job_id)


async def test_a_worker_killed_mid_report_leaves_it_to_another_that_resumes(cluster):
    (_, first), _ = cluster.apis
    job_id = await _post(first, sections=5)
    job = await _until(lambda: (j := _job(cluster, job_id))["tasks_done"] >= 3 and j["lease_owner"] and j)
    pid = int(job["lease_owner"].split(":")[1])
    victim = next(w for w in cluster.workers if w.pid == pid)
    cluster.kill(victim)  # SIGKILL, mid-report
    cluster.workers.remove(victim)
    done = await _until(lambda: (j := _job(cluster, job_id))["status"] == "completed" and j, timeout=90)
    assert done["runs"] == 2
    messages = _no_task_answered_twice(cluster, job_id)  # finished tasks were not redone...
    assert sum(m.type == "STATUS_UPDATE" and m.status == "reused" for m in messages) >= 3  # ...but reused
    cluster.start_worker()


async def test_a_worker_stopped_with_sigterm_hands_its_report_over_at_a_task_boundary(cluster):
    (_, first), _ = cluster.apis
    job_id = await _post(first, sections=5)
    job = await _until(lambda: (j := _job(cluster, job_id))["tasks_done"] >= 3 and j["lease_owner"] and j)
    victim = next(w for w in cluster.workers if w.pid == int(job["lease_owner"].split(":")[1]))
    cluster.kill(victim, signal.SIGTERM)  # returns once it exited: soon, not at the end of the report
    cluster.workers.remove(victim)
    assert _job(cluster, job_id)["status"] == "working"  # not finished by the stopping worker
    done = await _until(lambda: (j := _job(cluster, job_id))["status"] == "completed" and j, timeout=90)
    assert done["runs"] == 2
    messages = _no_task_answered_twice(cluster, job_id)
    assert any(m.type == "STATUS_UPDATE" and m.status == "interrupted" for m in messages)
    cluster.start_worker()


async def test_jobs_waiting_when_redis_restarts_empty_are_queued_again(cluster):
    (_, first), _ = cluster.apis
    workers = list(cluster.workers)
    for proc in workers:  # nobody takes the messages: they wait in Redis
        cluster.kill(proc)
        cluster.workers.remove(proc)
    jobs = [await _post(first, sections=2) for _ in range(3)]
    cluster.redis.stop()  # type: ignore[attr-defined]
    cluster.redis.start()  # type: ignore[attr-defined]  # empty: the three messages are gone
    for _ in range(2):
        cluster.start_worker()
    for job_id in jobs:  # the reconciler queued them again
        await _until(lambda job_id=job_id: _job(cluster, job_id)["status"] == "completed", timeout=90)
        assert _job(cluster, job_id)["runs"] == 1
        _no_task_answered_twice(cluster, job_id)


async def test_postgres_restarted_mid_run_the_job_still_ends_cleanly(cluster):
    (_, first), (_, second) = cluster.apis
    job_id = await _post(first, sections=5)
    await _until(lambda: _job(cluster, job_id)["tasks_done"] >= 2)
    cluster.postgres.stop()  # type: ignore[attr-defined]
    await asyncio.sleep(1)
    cluster.postgres.start()  # type: ignore[attr-defined]
    job = await _until(lambda: (j := _job(cluster, job_id))["status"] in ("completed", "failed") and j, timeout=90)
    assert job["status"] == "completed" or job["error"], job  # resumed, or failed with a reason
    _no_task_answered_twice(cluster, job_id)
    async with httpx.AsyncClient(base_url=second, timeout=60, trust_env=False) as http:
        events = [e async for e in _sse(await http.send(http.build_request("GET", f"/reports/{job_id}/events"),
                                                        stream=True))]
    lines = (cluster.out_dir / job_id / "messages.jsonl").read_text().splitlines()
    assert [int(e["id"]) for e in events if e["event"] == "acp"] == list(range(1, len(lines) + 1))  # no gap


async def test_a_client_whose_replica_is_killed_reconnects_to_the_other_and_misses_nothing(cluster):
    (victim, first), (_, second) = cluster.apis
    job_id = await _post(first, sections=5)
    ids: list[int] = []
    async with httpx.AsyncClient(base_url=first, timeout=60, trust_env=False) as http:
        with pytest.raises(httpx.HTTPError):
            async with http.stream("GET", f"/reports/{job_id}/events") as response:
                async for event in _sse(response):
                    if event["event"] == "acp":
                        ids.append(int(event["id"]))
                    if len(ids) == 8:
                        cluster.kill(victim)  # the replica dies mid-stream
    assert len(ids) >= 8
    statuses = []
    async with httpx.AsyncClient(base_url=second, timeout=60, trust_env=False) as http:
        async with http.stream("GET", f"/reports/{job_id}/events",
                               headers={"Last-Event-ID": str(ids[-1])}) as response:
            async for event in _sse(response):
                if event["event"] == "acp":
                    ids.append(int(event["id"]))
                else:
                    statuses.append(json.loads(event["data"])["status"])
    assert statuses[-1] == "completed"
    lines = (cluster.out_dir / job_id / "messages.jsonl").read_text().splitlines()
    assert ids == list(range(1, len(lines) + 1))  # no event lost or duplicated across the reconnect
    _no_task_answered_twice(cluster, job_id)
