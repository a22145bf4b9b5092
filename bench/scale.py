"""Scale: a batch of model-mode reports on 1 and on 3 Celery workers (issue 13).

Real PostgreSQL and Redis (:mod:`reportgen.cluster`, from Debian's packages,
in a temp dir), one API replica and 1 or 3 ``reportgen worker`` processes
(the test suite's helpers: the fake search, so no corpus index is built), and
the test suite's scripted OpenAI-compatible endpoint answering every call
after a seeded 1–4 s (:class:`bench.model_child.Responder`: the work is
waiting on the model, as it is with a real one). :data:`REPORTS` reports are
requested at once (no appendix: the work is the model's, not the PDF
engine's). The workers are ready and warm before the first request: each
has made one unmeasured report (its first pays the lazy imports of the
renderer and the graph), so the figures are the steady state. Measured, for
each worker count:

* the batch's makespan (first request to last report completed), and the
  throughput ratio: makespan on 1 worker / makespan on 3 (target: at least
  2.5×, issue 13);
* queue wait per report (requested → first started by a worker), p50 / p99;
* ``GET /reports/{id}`` latency on the API replica while the batch runs, p99
  (a client polling every :data:`STATUS_POLL_S`).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.rows import Row, Target

__all__ = ["REPORTS", "STATUS_POLL_S", "percentile", "run"]

ROOT = Path(__file__).resolve().parent.parent

#: Reports in the batch (a multiple of 3, so 3 workers get the same number each).
REPORTS = 6

#: Sections per report.
SECTIONS = 2

#: Seconds between two status requests of the polling client.
STATUS_POLL_S = 0.05


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values``, by linear interpolation (numpy's default rule)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _wait_ready(log: Path, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if log.exists() and " ready." in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"a worker did not get ready; see {log}")


def _finish_all(http: httpx.Client, ids: list[str], timeout_s: float = 900) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        states = [http.get(f"/reports/{i}").json()["status"] for i in ids]
        if all(s in ("completed", "failed", "canceled") for s in states):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the reports did not finish in {timeout_s:g} s: {states}")
        time.sleep(0.25)


def _warm_up(url: str, workers: int) -> None:
    """One unmeasured report per idle worker (each takes one message: prefetch 1, one job at a time)."""
    with httpx.Client(base_url=url, timeout=30, trust_env=False) as http:
        ids = []
        for n in range(workers):
            response = http.post("/reports", json={"topic": f"Renewable energy, warm-up {n + 1}", "sections": SECTIONS,
                                                   "appendix": False})
            response.raise_for_status()
            ids.append(response.json()["id"])
        _finish_all(http, ids)


def _batch(workers: int, root: Path, database: str, broker: str, env: dict[str, str]) -> dict[str, Any]:
    from reportgen.cluster import Cluster
    from reportgen.store import JobStore

    tests = ROOT / "tests"
    cluster = Cluster(root, database, broker, env=env,
                      api_command=[sys.executable, str(tests / "serve_fake.py")],
                      worker_command=[sys.executable, str(tests / "worker_fake.py")])
    try:
        for _ in range(workers):
            cluster.start_worker()
        url = cluster.start_api()
        for n in range(1, workers + 1):
            _wait_ready(root / f"worker-{n}.log")
        _warm_up(url, workers)
        status_ms: list[float] = []
        ids: list[str] = []
        stop = threading.Event()

        def poll() -> None:
            with httpx.Client(base_url=url, timeout=30, trust_env=False) as http:
                n = 0
                while not stop.is_set():
                    if ids:
                        started = time.perf_counter()
                        http.get(f"/reports/{ids[n % len(ids)]}").raise_for_status()
                        status_ms.append((time.perf_counter() - started) * 1000)
                        n += 1
                    stop.wait(STATUS_POLL_S)

        poller = threading.Thread(target=poll, name="bench-status-poller", daemon=True)
        poller.start()
        began = time.time()
        with httpx.Client(base_url=url, timeout=30, trust_env=False) as http:
            for n in range(REPORTS):
                response = http.post("/reports", json={"topic": f"Renewable energy {n + 1}", "sections": SECTIONS,
                                                       "appendix": False})
                response.raise_for_status()
                ids.append(response.json()["id"])
            _finish_all(http, ids)
        stop.set()
        poller.join(timeout=30)
        store = JobStore(database)
        jobs = [store.get(i) for i in ids]
        store.close()
    finally:
        cluster.stop()
    assert all(j is not None for j in jobs)
    failed = [j.id for j in jobs if j is not None and j.status.value != "completed"]
    if failed:
        raise RuntimeError(f"{len(failed)} of {REPORTS} reports did not complete on {workers} worker(s): {failed}")
    waits = [(j.started_at - j.created_at).total_seconds() for j in jobs if j and j.started_at]
    end = max(j.finished_at.timestamp() for j in jobs if j and j.finished_at)
    return {"workers": workers, "makespan_s": end - began, "queue_wait_s": waits, "status_ms": status_ms,
            "runs": [j.runs for j in jobs if j]}


def run(seed: int = 1) -> list[Row]:
    """Run the batch on 1 worker, then on 3, against one PostgreSQL and one Redis.

    Args:
        seed: The model latency seed.

    Returns:
        Five rows: the throughput ratio, queue wait p50 and p99 per worker
        count, and the status latency p99 on the API.

    Raises:
        RuntimeError: A server or process did not start, or a report did not complete.
    """
    import redis

    from reportgen.cluster import PostgresServer, RedisServer

    sys.path.insert(0, str(ROOT / "tests"))
    from bench.model_child import Responder

    from fakellm import FakeLLM

    work = Path(tempfile.mkdtemp(prefix="reportgen-bench-scale-"))
    try:
        postgres = PostgresServer(Path(tempfile.mkdtemp(prefix="reportgen-bench-pg-")))
    except FileNotFoundError as exc:
        return [Row(group="scale", name="3 workers vs 1", status="unavailable",
                    note=f"{exc}: run `make service-deps`")]
    broker = RedisServer(work)
    results: dict[int, dict[str, Any]] = {}
    try:
        postgres.init()
        postgres.start()
        broker.start()
        with FakeLLM() as llm:
            llm.default = Responder(seed)
            env = {k: v for k, v in os.environ.items() if not k.startswith("REPORTGEN_")}
            env.update(REPORTGEN_LLM_MODEL="fake", REPORTGEN_LLM_BASE_URL=llm.base_url, REPORTGEN_LLM_API_KEY="bench",
                       REPORTGEN_PLUGINS="", REPORTGEN_MAX_JOBS_PER_CLIENT="1000", REPORTGEN_RATE_LIMIT="100000",
                       FAKE_SEARCH_DELAY="0", FAKE_WORKER_LOGLEVEL="INFO", PYTHONPATH=str(ROOT))
            for workers in (1, 3):
                redis.Redis.from_url(broker.url).flushall()
                (work / f"w{workers}").mkdir()
                results[workers] = _batch(workers, work / f"w{workers}", postgres.create_database(), broker.url, env)
    finally:
        broker.stop()
        postgres.stop("immediate")
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(postgres.root, ignore_errors=True)
    one, three = results[1], results[3]
    ratio = one["makespan_s"] / three["makespan_s"]
    rows = [
        Row(group="scale", name=f"{REPORTS} model-mode reports: 3 workers vs 1 (batch makespan)",
            value=three["makespan_s"], unit="s", reference=one["makespan_s"], reference_name="1 worker",
            ratio=ratio, ratio_name="throughput: 1-worker makespan / 3-worker makespan",
            target=Target(">=", 2.5), note="model answers in 1–4 s (scripted); PostgreSQL + Redis + Celery",
            details={"1": one, "3": three}),
    ]
    for workers in (1, 3):
        waits = results[workers]["queue_wait_s"]
        rows.append(Row(group="scale", name=f"queue wait on {workers} worker(s): p99 (p50 as reference)",
                        value=percentile(waits, 99), unit="s", reference=percentile(waits, 50),
                        reference_name="p50", ratio=None, note=f"requested → started, {len(waits)} reports"))
    status = one["status_ms"] + three["status_ms"]
    rows.append(Row(group="scale", name="GET /reports/{id} on the API while the batches run: p99 (p50 as reference)",
                    value=percentile(status, 99), unit="ms", reference=percentile(status, 50),
                    reference_name="p50", note=f"{len(status)} requests, one every {STATUS_POLL_S:g} s",
                    details={"mean_ms": statistics.fmean(status) if status else None}))
    return rows
