"""Report jobs on Celery workers (``REPORTGEN_BROKER_URL=redis://...``), and live wake-ups through Redis.

The API side records a job in the database and sends one Celery message
(:meth:`Broker.enqueue`); ``reportgen worker`` processes, on any machine that
reaches the database and the broker, take messages one at a time and call
:meth:`reportgen.worker.Worker.run_job`. What makes that safe:

* **Late acknowledgement** (``acks_late``): a message is acknowledged only
  after its report ended, so a worker killed mid-report leaves its message
  unacknowledged and the broker hands it out again (kombu's Redis transport
  restores it after ``visibility_timeout``; ``reject_on_worker_lost`` does
  the same at once when a prefork child dies).
* **The lease** in the job row (:meth:`~reportgen.store.JobStore.acquire_lease`):
  a redelivered or duplicate message for a job another live worker runs does
  nothing, so one job never runs in two workers at once; the run resumes
  from the LangGraph checkpoints, so a finished task is never redone.
* **The reconciler** (:func:`reconcile`, every ``reconcile_s`` in every
  worker): a job the database says is queued or running, that no live lease
  holds and no message in the broker names (Redis restarted empty, a worker
  killed before its lease ran out), is queued again.
* **Cancellation** is the job's ``cancel_requested`` flag, which the running
  job's lease heartbeat reads (:mod:`reportgen.worker`).

Live events: every change of a job is published on the Redis channel
:data:`CHANNEL` (its id); every API replica subscribes and wakes its SSE
streams, which read the events themselves from the database.

Celery's own settings follow its "Tasks → Retry / acks_late" guide and the
Redis transport notes (``visibility_timeout``, ``worker_prefetch_multiplier=1``
so a worker never holds messages it does not run).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from reportgen.config import Settings

__all__ = ["CHANNEL", "QUEUE", "TASK", "Broker", "celery_app", "reconcile", "run_worker"]

logger = logging.getLogger(__name__)

#: The Celery queue of report jobs (a Redis list of that name).
QUEUE = "reportgen"

#: The Celery task that runs one job.
TASK = "reportgen.run_report"

#: The Redis pub/sub channel of job changes (message: the job id).
CHANNEL = "reportgen:jobs"


def celery_app(settings: Settings) -> Any:
    """The Celery app on ``settings.broker_url``, configured for report jobs.

    Args:
        settings: ``broker_url`` (required) and ``visibility_timeout_s``.

    Returns:
        A :class:`celery.Celery` app (not the default app).

    Raises:
        ValueError: ``broker_url`` is not set.
    """
    from celery import Celery

    if not settings.broker_url:
        raise ValueError("REPORTGEN_BROKER_URL is not set (e.g. redis://127.0.0.1:6379/0)")
    app = Celery("reportgen", broker=settings.broker_url, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        task_default_queue=QUEUE,
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        broker_transport_options={"visibility_timeout": settings.visibility_timeout_s},
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,
        task_publish_retry=True,
        task_publish_retry_policy={"max_retries": 3, "interval_start": 0.2, "interval_step": 0.5,
                                   "interval_max": 2},
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        worker_enable_remote_control=False,
    )
    return app


class Broker:
    """The broker as the service uses it: queue a job, publish and follow job changes, list queued jobs.

    Args:
        settings: ``broker_url`` and the Celery settings of :func:`celery_app`.
    """

    def __init__(self, settings: Settings) -> None:
        import redis

        self.settings = settings
        self.app = celery_app(settings)
        assert settings.broker_url
        self.redis = redis.Redis.from_url(settings.broker_url, socket_timeout=5, socket_connect_timeout=5)
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()

    def enqueue(self, job_id: str) -> None:
        """Send one message for ``job_id`` (its task id starts with the job id: see :meth:`queued_jobs`).

        Raises:
            kombu.exceptions.OperationalError: The broker cannot be reached (after a few quick retries).
        """
        self.app.send_task(TASK, args=[job_id], task_id=f"{job_id}.{uuid.uuid4().hex[:12]}", queue=QUEUE)

    def publish(self, job_id: str) -> None:
        """Tell every API replica that ``job_id`` changed (best effort: they also poll)."""
        import redis

        try:
            self.redis.publish(CHANNEL, job_id)
        except redis.RedisError as exc:
            logger.debug("could not publish a change of %s (%s)", job_id, exc)

    def listen(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(job_id)`` for every published change, from a daemon thread, until :meth:`unlisten`.

        The subscription is made again after a lost connection (a restarted
        Redis): changes published meanwhile are missed, which the SSE
        streams' polling covers.
        """
        self._stop.clear()
        self._listener = threading.Thread(target=self._listen, args=(callback,), name="reportgen-pubsub",
                                          daemon=True)
        self._listener.start()

    def _listen(self, callback: Callable[[str], None]) -> None:
        import redis

        while not self._stop.is_set():
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message and message.get("type") == "message":
                        data = message["data"]
                        callback(data.decode() if isinstance(data, bytes) else str(data))
                pubsub.close()
            except (redis.RedisError, OSError) as exc:
                logger.debug("pub/sub connection lost (%s); subscribing again", exc)
                self._stop.wait(1.0)

    def unlisten(self) -> None:
        """Stop following changes (waits for the listener thread, at most 5 s)."""
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
            self._listener = None

    def queued_jobs(self, *, fresher_than_s: float) -> set[str]:
        """The job ids the broker holds a message for: waiting in the queue, or taken by a live worker.

        Reads kombu's Redis layout: the queue is a list named :data:`QUEUE`;
        a taken, unacknowledged message is in the ``unacked`` hash, with the
        time it was taken in the ``unacked_index`` sorted set. A message
        taken more than ``fresher_than_s`` ago counts as lost (its worker's
        lease would have been renewed otherwise; the caller checks leases).

        Args:
            fresher_than_s: Age in seconds beyond which a taken message does not count.

        Raises:
            redis.RedisError: The broker cannot be reached.
        """
        ids: set[str] = set()
        client: Any = self.redis  # redis-py's sync/async union return types
        for raw in client.lrange(QUEUE, 0, -1):
            ids.update(_job_of(raw))
        cutoff = time.time() - fresher_than_s
        fresh = {tag for tag in client.zrangebyscore("unacked_index", cutoff, "+inf")}
        for tag, raw in client.hgetall("unacked").items():
            if tag in fresh:
                with contextlib.suppress(ValueError, TypeError, IndexError):
                    ids.update(_job_of(json.dumps(json.loads(raw)[0])))
        return ids

    def close(self) -> None:
        """Stop listening and close the connections."""
        self.unlisten()
        self.redis.close()


def _job_of(raw: bytes | str) -> set[str]:
    """The job id a kombu message names (its task id is ``<job id>.<random>``)."""
    try:
        message = json.loads(raw)
        task_id = str(message["headers"]["id"])
    except (ValueError, KeyError, TypeError):
        return set()
    return {task_id.rsplit(".", 1)[0]}


def reconcile(worker: Any, broker: Broker) -> list[str]:
    """Queue again every job the database says is waiting or running but nobody holds.

    A job is queued again when no live lease holds it, it was last queued
    more than ``reconcile_s`` ago (or never), and no message in the broker
    names it (:meth:`Broker.queued_jobs`). A duplicate message that this
    may make in a race is harmless: the lease lets one run, and a finished
    job's message does nothing.

    Args:
        worker: The :class:`~reportgen.worker.Worker` whose store and queue are used.
        broker: The broker.

    Returns:
        The ids queued again.
    """
    settings = worker.settings
    candidates = worker.store.orphaned(datetime.now(timezone.utc) - timedelta(seconds=settings.reconcile_s))
    if not candidates:
        return []
    held = broker.queued_jobs(fresher_than_s=settings.lease_s)
    requeued = []
    for job in candidates:
        if job.id in held:
            continue
        logger.warning("job %s (%s) has no live worker and no message in the broker: queuing it again",
                       job.id, job.status.value)
        worker._enqueue(job.id)
        requeued.append(job.id)
    return requeued


class _Reconciler(threading.Thread):
    """Runs :func:`reconcile` every ``reconcile_s`` seconds until stopped (errors are logged and retried)."""

    def __init__(self, worker: Any, broker: Broker) -> None:
        super().__init__(name="reportgen-reconciler", daemon=True)
        self.worker, self.broker = worker, broker
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.worker.settings.reconcile_s):
            try:
                reconcile(self.worker, self.broker)
            except Exception as exc:  # noqa: BLE001 - the database or the broker is away: next round
                logger.warning("reconciler round failed (%s)", exc)


#: The worker of this process, for the Celery task (set by :func:`run_worker`).
_PROCESS: dict[str, Any] = {}

def _register(app: Any) -> Any:
    @app.task(name=TASK, bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
              max_retries=None)
    def run_report(task: Any, job_id: str) -> None:
        from reportgen.store import database_errors

        worker = _PROCESS["worker"]
        try:
            asyncio.run(worker.run_job(job_id))
        except database_errors() as exc:
            # The database went away mid-run: nothing is recorded as failed; the
            # job runs again (resuming from its checkpoints) once it is back.
            delay = min(30, 2 ** min(task.request.retries, 5))
            logger.warning("job %s: database unreachable (%s); trying again in %s s", job_id, exc, delay)
            raise task.retry(exc=exc, countdown=delay) from None

    return run_report


def run_worker(
    settings: Settings,
    *,
    concurrency: int = 1,
    name: str | None = None,
    search: Any = None,
    backoff_scale: float = 1.0,
    loglevel: str = "INFO",
) -> None:
    """Run a Celery worker for report jobs in this process until it is stopped (what ``reportgen worker`` does).

    Args:
        settings: ``broker_url`` and ``database_url`` name what every API replica uses too.
        concurrency: Reports run at once: 1 runs them in this process
            (Celery's ``solo`` pool; SIGTERM stops a running report at its next
            task boundary and leaves it to another worker); more forks that many
            children (``prefork``; SIGTERM waits for their reports to end).
        name: The Celery node name (default ``reportgen-<pid>@<host>``).
        search: A search backend for every job instead of the configured
            corpora (the tests' fake).
        backoff_scale: Multiplier on retry delays (0 in tests).
        loglevel: Celery's log level.

    Raises:
        ValueError: ``broker_url`` is not set.
    """
    import os

    from celery import signals

    from reportgen.store import JobStore
    from reportgen.worker import Worker

    broker = Broker(settings)
    store = JobStore(settings.database)
    worker = Worker(settings, store, search=search, backoff_scale=backoff_scale, broker=broker)
    _PROCESS["worker"] = worker
    _register(broker.app)

    @signals.worker_process_init.connect(weak=False)
    def _after_fork(**_kwargs: Any) -> None:  # a forked child must not share the parent's connections
        store._engine.dispose(close=False)
        worker.owner = f"{worker.owner.rsplit(':', 2)[0]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    @signals.worker_shutting_down.connect(weak=False)
    def _shutting_down(**_kwargs: Any) -> None:  # SIGTERM: running reports stop at a task boundary
        worker.interrupt()

    reconciler = _Reconciler(worker, broker)
    reconciler.start()
    pool = "solo" if concurrency <= 1 else "prefork"
    argv = ["worker", f"--loglevel={loglevel}", "-Q", QUEUE, f"--pool={pool}", f"--concurrency={max(1, concurrency)}",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-n", name or f"reportgen-{os.getpid()}@%h"]
    try:
        broker.app.worker_main(argv)
    finally:
        reconciler.stopped.set()
        broker.close()
        store.close()
