"""The report service's background worker: a queue of jobs, a concurrency cap, resume on start.

The worker runs up to ``Settings.max_jobs`` reports at once through the same
:func:`~reportgen.run.generate_report` the CLI calls; more jobs wait in a FIFO
queue. The job's id *is* the report id, so a job that was ``submitted`` or
``working`` when the service stopped is simply run again with the same id when
it starts: LangGraph's SQLite checkpointer then reuses every finished task
(see :mod:`reportgen.dispatch`) instead of running it again.

Stopping is graceful: each running report is asked to stop at its next task
boundary (the ``cancel`` event of :func:`generate_report`), so tasks in flight
finish and are checkpointed; the job stays ``working`` and resumes on the next
start. Only what is still running after ``Settings.shutdown_grace_s`` is
interrupted hard (its in-flight tasks then run again on resume).

Whoever follows a job (an SSE stream, an A2A task) waits on :class:`JobEvents`,
which the pipeline's callbacks wake from any thread.

Plan review (``review: true``): the run stops after planning
(:class:`~reportgen.review.ReviewRequired`), the job goes ``input_required``
with its plan in the store, and :meth:`Worker.review` queues it again with the
reviewer's answer. The unattended-review policy is the request's
``review_timeout_s``: ``None`` (the default) keeps waiting for ever (a restart
included); a number of seconds approves the plan as proposed once that long
has passed without an answer (the review message then names the client
``timeout``).

Leases: every run first takes the job's lease in the database
(:meth:`~reportgen.store.JobStore.acquire_lease`) and renews it every third of
``Settings.lease_s`` while it runs; the same heartbeat reads the job's cancel
flag, so a cancel asked of any API replica reaches the worker running the job.
A run whose lease renewals fail for half of ``lease_s`` stops at once
(fencing, :meth:`Worker._heartbeat`): another worker may take the job when
the lease runs out, and the two must never answer the same task.
With ``REPORTGEN_BROKER_URL`` the API process runs no job itself: it records
the job and hands it to the broker (:mod:`reportgen.broker`); Celery workers
call :meth:`Worker.run_job`.

Every ACP message a run logs goes to ``messages.jsonl``, and each line of
the file to the job's event log in the database
(:meth:`~reportgen.store.JobStore.log_events`), numbered as the line is,
which the SSE streams of every replica replay. The file is the source: lines
a worker could not copy while the database was away (or before it lost the
job) are copied, in their place, by whoever logs the job's next line.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import shutil
import socket
import threading
import time
import unicodedata
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from reportgen.acp import MessageLog, StatusUpdate
from reportgen.acp.messages import log_lines
from reportgen.blueprint.model import Blueprint
from reportgen.config import MAX_TOPIC_CHARS, RunOptions, Settings, clean_topic, resolve_language
from reportgen.errors import InputError, RenderError, ReportgenError, RunCanceled
from reportgen.review import ReviewRequired
from reportgen.store import Idempotent, Job, JobStatus, JobStore, database_errors

__all__ = [
    "CANCEL_POLL_S", "ID_PATTERN", "JobEvents", "NAME_PATTERN", "REVIEW_SWEEP_S", "ReportRequest",
    "ReviewStateError", "THEME_PATTERN", "Worker", "valid_id",
]

#: Seconds between two looks for unattended reviews whose timeout passed.
REVIEW_SWEEP_S = 5.0

#: Longest time between two looks of a running job at its cancel flag (the lease heartbeat), seconds.
CANCEL_POLL_S = 2.0


class ReviewStateError(InputError):
    """The job is not waiting for review (already answered, running, finished)."""

    code = "not_waiting_for_review"


logger = logging.getLogger(__name__)

#: A report id the service accepts in a URL: what :func:`~reportgen.run.new_report_id`
#: makes (lower-case ASCII letters, digits and ``-``), at most 64 characters.
#: Nothing else can name a folder, so no id ever leads outside the outputs directory.
ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,63}$"

#: A corpus name in a request (a key of ``Settings.corpora``).
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"

#: A template (theme) name: ``report``, ``brief`` or one of ``Settings.template_dir``.
THEME_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"

_ID_RE = re.compile(ID_PATTERN)


def valid_id(report_id: str) -> bool:
    """Tell whether ``report_id`` matches :data:`ID_PATTERN`."""
    return bool(_ID_RE.fullmatch(report_id))


class ReportRequest(BaseModel):
    """What a client asks for: the body of ``POST /reports`` (and of an A2A message).

    Corpora and templates are named, never given as paths: the server maps
    corpus names to folders (``REPORTGEN_CORPORA``) and offers the built-in
    themes plus those of its ``REPORTGEN_TEMPLATE_DIR``.
    """

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"topic": "Renewable energy", "lang": "en", "sections": 4}]},
    )

    topic: str = Field(
        min_length=1, max_length=MAX_TOPIC_CHARS,
        description=f"What the report is about, in any script, 1-{MAX_TOPIC_CHARS} characters.",
    )
    lang: str | None = Field(
        None, pattern=r"^[a-z]{2,3}$",
        description="Report language (ISO 639-1; default the topic's). Without a language model and with the "
                    "encyclopedia: en, es or fr (its editions).",
    )
    sections: StrictInt | None = Field(
        None, ge=1, le=12,
        description="Body sections wanted; default from the request's wording: 8 for a comprehensive or "
                    "detailed report, 3 for a short one, else 6.",
    )
    corpus: str | None = Field(
        None, pattern=NAME_PATTERN, max_length=64,
        description="Name of a document corpus the server offers (see GET /.well-known/agent.json).",
    )
    wiki: StrictBool = Field(True, description="Search the offline encyclopedia too.")
    template: str = Field(
        "report", pattern=THEME_PATTERN, max_length=40,
        description="Report template (theme) by name: 'report', 'brief' or one the server offers.",
    )
    appendix: StrictBool = Field(True, description="End with the appendix showing how the report was made.")
    guidance: str | None = Field(
        None, max_length=2000, description="Guidance for the planner model (audience, length); needs a model.",
    )
    review: StrictBool = Field(False, description="Stop after planning (status input_required) until the plan is "
                                            "approved, edited or given guidance.")
    review_timeout_s: float | None = Field(
        None, ge=60, le=30 * 86400, allow_inf_nan=False,
        description="Unattended-review policy: approve the plan as proposed after this many seconds without "
                    "an answer; null (default) keeps waiting.",
    )

    @field_validator("topic")
    @classmethod
    def _clean_topic(cls, value: str) -> str:
        if any(unicodedata.category(ch) == "Cs" for ch in value):
            raise ValueError("the topic holds a lone surrogate (not valid Unicode text)")
        if "\x00" in value:
            raise ValueError("the topic holds a NUL character")
        return clean_topic(value)

    @field_validator("guidance")
    @classmethod
    def _clean_guidance(cls, value: str | None) -> str | None:
        from reportgen.review import clean_text

        return None if value is None else clean_text(value, field="guidance", limit=2000)


class JobEvents:
    """Wakes the followers of a job when it changes; :meth:`notify` is thread-safe.

    The pipeline calls back from the event loop and from LangGraph's worker
    threads (its synchronous nodes); every wake-up is handed to the loop the
    worker runs on.

    Args:
        publish: Also called with the job id on every :meth:`notify` (the
            broker's pub/sub, so followers on other replicas wake too).
    """

    def __init__(self, publish: Callable[[str], None] | None = None) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._followers: dict[str, set[asyncio.Event]] = {}
        self._lock = threading.Lock()
        self._publish = publish

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver wake-ups on ``loop`` (the loop the followers wait on)."""
        self._loop = loop

    def notify(self, job_id: str) -> None:
        """Wake everyone following ``job_id`` here and, with a broker, on every replica; callable from any thread."""
        self.wake_local(job_id)
        if self._publish is not None:
            self._publish(job_id)

    def wake_local(self, job_id: str) -> None:
        """Wake the followers of ``job_id`` in this process only (what a pub/sub message does)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(job_id)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._wake, job_id)

    def _wake(self, job_id: str) -> None:
        with self._lock:
            followers = list(self._followers.get(job_id, ()))
        for event in followers:
            event.set()

    @contextlib.contextmanager
    def follow(self, job_id: str) -> Iterator[asyncio.Event]:
        """An event set whenever ``job_id`` changes; clear it before each look."""
        event = asyncio.Event()
        with self._lock:
            self._followers.setdefault(job_id, set()).add(event)
        try:
            yield event
        finally:
            with self._lock:
                followers = self._followers.get(job_id)
                if followers is not None:
                    followers.discard(event)
                    if not followers:
                        del self._followers[job_id]


@dataclass
class _Running:
    cancel: asyncio.Event
    task: asyncio.Task[None] | None = None
    lost: bool = False  # the lease went to another worker: stop without recording anything


class Worker:
    """Runs report jobs in the background.

    Args:
        settings: Settings (``out_dir``, ``max_jobs``, caps, corpora, templates).
        store: The job store.
        search: A search backend used for every job instead of the configured
            corpora (tests inject a fake here).
        backoff_scale: Multiplier on retry delays (0 in tests).
        broker: A :class:`reportgen.broker.Broker`: jobs are handed to it
            instead of run here (the API side), and wake-ups are published
            through it (both sides).
    """

    def __init__(
        self,
        settings: Settings,
        store: JobStore,
        *,
        search: Any = None,
        backoff_scale: float = 1.0,
        broker: Any = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.search = search
        self.backoff_scale = backoff_scale
        self.broker = broker
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.out_dir = Path(settings.out_dir).resolve()
        self.events = JobEvents(broker.publish if broker is not None else None)
        from reportgen.storage import open_storage

        self.storage = open_storage(settings)
        self._queue: asyncio.Queue[str] | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._running: dict[str, _Running] = {}
        self._stopping = False
        self._sweeper: asyncio.Task[None] | None = None
        self._warm_up: asyncio.Future[None] | None = None
        # per job: (byte offset, line number) of messages.jsonl up to which its event log is known complete
        self._logged: dict[str, tuple[int, int]] = {}
        self._behind: set[str] = set()  # jobs whose last copy to the event log failed (the database was away)
        self._log_lock = threading.Lock()
        # the lease heartbeats' database calls (_lease_call): threads of their own, one per job that may run here
        self._lease_pool = ThreadPoolExecutor(max_workers=max(1, settings.max_jobs),
                                              thread_name_prefix="reportgen-lease")

    # -- lifecycle -----------------------------------------------------------

    async def start(self) -> None:
        """Start the runners and queue every unfinished job, oldest first (resume).

        The pipeline's modules, the language detector and the agent registry
        start loading in a thread: loading them takes seconds, which the
        first requests would otherwise spend blocking the event loop
        (``submit`` imports the pipeline, ``check`` detects a topic's
        language, the file endpoints list the exporters). Start does not
        wait for them, so the service listens at once; :meth:`ready` does.

        With a broker no runner starts here: the job queue is the broker's,
        and this process only follows jobs (their wake-ups arrive by pub/sub).
        """
        self._warm_up = asyncio.ensure_future(asyncio.to_thread(_warm_up, self.settings))
        self.events.bind(asyncio.get_running_loop())
        self._stopping = False
        self._sweeper = asyncio.create_task(self._sweep_reviews(), name="reportgen-review-timeouts")
        if self.broker is not None:
            self.broker.listen(self.events.wake_local)
            return
        self._queue = asyncio.Queue()
        for job in self.store.unfinished():
            self._queue.put_nowait(job.id)
        self._runners = [
            asyncio.create_task(self._runner(), name=f"reportgen-worker-{i}")
            for i in range(self.settings.max_jobs)
        ]

    async def ready(self) -> None:
        """Wait (without blocking the loop) for the start-up warm-up; call before :meth:`submit` in a request.

        Were a request to import the pipeline while the warm-up thread is
        importing it, the event loop would wait on Python's import lock.
        """
        if self._warm_up is not None:
            with contextlib.suppress(Exception):  # a failed warm-up only means a slower first request
                await asyncio.shield(self._warm_up)

    async def stop(self) -> None:
        """Stop: running reports stop at a task boundary (and resume on the next start)."""
        self._stopping = True
        running = list(self._running.values())
        for run in running:
            run.cancel.set()
        in_flight = [r.task for r in running if r.task is not None]
        if in_flight:
            await asyncio.wait(in_flight, timeout=self.settings.shutdown_grace_s)
        tasks = [*self._runners, *([self._sweeper] if self._sweeper else [])]
        for runner in tasks:
            runner.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.broker is not None:
            self.broker.unlisten()
        self._sweeper = None
        self._runners = []
        self._queue = None

    def interrupt(self) -> None:
        """Stop every job running here at its next task boundary; each stays ``working`` and resumes elsewhere.

        What a Celery worker does on a warm shutdown (SIGTERM): the runs end
        soon, their leases are given back and their messages acknowledged,
        and the reconciler of the other workers queues them again. Safe to
        call from a signal handler or another thread.
        """
        self._stopping = True
        loop = self.events._loop
        for run in list(self._running.values()):
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(run.cancel.set)

    # -- requests --------------------------------------------------------------

    def check(self, request: ReportRequest) -> ReportRequest:
        """Check a request against what this server offers.

        Returns:
            The request with its language resolved by the rule the CLI uses
            too (:func:`~reportgen.config.resolve_language`).

        Raises:
            InputError: Unknown corpus or template name, no corpus at all, or
                a language the encyclopedia lacks when no model is configured.
        """
        if request.corpus is not None and request.corpus not in self.settings.corpora:
            offered = ", ".join(sorted(self.settings.corpora)) or "none"
            raise InputError(f"unknown corpus {request.corpus!r}; this server offers: {offered}")
        if request.template not in (themes := self.templates()):
            raise InputError(f"unknown template {request.template!r}; this server offers: {', '.join(themes)}")
        if not request.wiki and request.corpus is None:
            raise InputError("wiki=false needs a corpus to search")
        lang = resolve_language(request.topic, request.lang, encyclopedia=request.wiki,
                                model=self.settings.llm_configured)
        return request.model_copy(update={"lang": lang})

    def templates(self) -> list[str]:
        """The template (theme) names this server offers."""
        from reportgen.render import available_templates

        try:
            return available_templates(self.settings.template_dir)
        except RenderError:  # a misconfigured REPORTGEN_TEMPLATE_DIR: the built-ins still work
            logger.warning("REPORTGEN_TEMPLATE_DIR %s is unusable", self.settings.template_dir)
            return available_templates(None)

    def admission_delay(self, client: str) -> float | None:
        """Seconds ``client`` should wait before submitting, or ``None`` when it may now.

        A client may have ``Settings.max_jobs_per_client`` unfinished jobs.
        """
        if self.store.active_count(client) < self.settings.max_jobs_per_client:
            return None
        return 10.0

    def submit(
        self,
        request: ReportRequest,
        client: str,
        *,
        idempotency: tuple[str, str] | None = None,
    ) -> Job | Idempotent:
        """Record a job and queue it.

        Args:
            request: The checked request (see :meth:`check`).
            client: Who asked.
            idempotency: ``(Idempotency-Key, request hash)``, if one was sent.

        Returns:
            The new ``submitted`` job, or the :class:`Idempotent` record of the
            job that key already created.

        Raises:
            InputError: The request names something this server does not offer.
        """
        from reportgen.run import new_report_id

        request = self.check(request)
        options = request.model_dump(exclude={"topic"})
        job = self.store.create(
            new_report_id(request.topic, self.out_dir), request.topic, options, client,
            idempotency=idempotency,
        )
        if isinstance(job, Job):
            self._enqueue(job.id)
        return job

    def _enqueue(self, job_id: str) -> None:
        """Hand the job to the in-process queue or to the broker.

        A broker that cannot be reached loses nothing: the job is recorded
        ``submitted``, and the reconciler of the workers queues it once the
        broker is back (:func:`reportgen.broker.reconcile`).
        """
        if self.broker is None:
            if self._queue is not None:
                self._queue.put_nowait(job_id)
            return
        try:
            self.broker.enqueue(job_id)
        except Exception as exc:  # noqa: BLE001 - the reconciler queues it later
            logger.warning("job %s is recorded but not queued yet (%s); the reconciler will queue it", job_id, exc)
            return
        self.store.mark_queued(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Cancel a job: a queued or waiting one at once, a running one at its next task boundary.

        A running job whose research is over (coordinating or rendering)
        still ends ``canceled``: the worker marks it so when the run returns,
        whatever it wrote. A cancel is therefore never silently ignored.

        Returns:
            The job as it is now (``None`` when there is none).
        """
        job = self.store.get(job_id)
        if job is None or job.status.terminal:
            return job
        self.store.request_cancel(job_id)
        running = self._running.get(job_id)
        if running is not None:
            running.cancel.set()
        else:  # unless a worker elsewhere holds its lease: that worker sees the flag at its next heartbeat
            waiting = job.status is JobStatus.INPUT_REQUIRED and job.review_answer is None
            self.store.cancel_if_idle(job_id, "canceled while waiting for plan review" if waiting
                                      else "canceled before it started", code=RunCanceled.code)
        self.events.notify(job_id)
        return self.store.get(job_id)

    def plan(self, job_id: str) -> dict[str, Any] | None:
        """The job's plan (proposed while it waits for review, reviewed afterwards), as a readable view.

        Returns:
            :func:`reportgen.review.plan_view` of the stored plan, or ``None`` when there is none yet.
        """
        from reportgen.review import plan_view

        job = self.store.get(job_id)
        if job is None or job.plan is None:
            return None
        return plan_view(job.plan)

    def review(self, job_id: str, answer: Any) -> Job:
        """Answer the plan review of a job waiting in ``input_required``; the job is queued again.

        Args:
            job_id: The job.
            answer: A :class:`~reportgen.review.ReviewAnswer`.

        Returns:
            The job, ``submitted`` again.

        Raises:
            ReviewStateError: The job is not waiting for review.
            PlanError: The edited plan is not valid (unknown agent, cycle, empty section, ...).
        """
        from reportgen.agents.registry import load_registry
        from reportgen.review import apply_answer

        job = self.store.get(job_id)
        if job is None or job.status is not JobStatus.INPUT_REQUIRED or job.plan is None or job.review_answer:
            state = "missing" if job is None else job.status.value
            raise ReviewStateError(f"report {job_id} is not waiting for plan review (it is {state})")
        plan, applied = apply_answer(job.plan, answer, load_registry(self.settings).kinds())
        record = {**applied.model_dump(mode="json"), "run_blueprint": plan}
        if not self.store.answer_review(job_id, record, plan):
            raise ReviewStateError(f"report {job_id} was answered or canceled meanwhile")
        self._enqueue(job_id)
        self.events.notify(job_id)
        current = self.store.get(job_id)
        assert current is not None
        return current

    async def _sweep_reviews(self) -> None:
        """Approve unattended reviews whose ``review_timeout_s`` passed (the documented policy)."""
        from reportgen.review import ReviewAnswer

        while True:
            for job in self.store.reviews_due(datetime.now(timezone.utc)):
                with contextlib.suppress(ReportgenError):
                    self.review(job.id, ReviewAnswer(action="approve", client="timeout"))
            await asyncio.sleep(REVIEW_SWEEP_S)

    def delete(self, job_id: str) -> bool:
        """Delete a finished job and its report folder.

        Returns:
            ``False`` when there is no such job.

        Raises:
            ValueError: The job is not finished, or its id is not a valid id.
        """
        job = self.store.get(job_id)
        if job is None:
            return False
        if not job.status.terminal:
            raise ValueError(f"job {job_id} is {job.status.value}; cancel it first")
        folder = self.report_dir(job_id)
        if folder.is_dir():
            shutil.rmtree(folder)
        self.storage.delete(job_id)
        self.store.delete(job_id)
        self.events.notify(job_id)
        return True

    def report_dir(self, job_id: str) -> Path:
        """The folder of report ``job_id``: a direct child of the outputs directory.

        :data:`ID_PATTERN` admits no ``/``, ``\\``, ``.`` or empty id, so the
        path can name nothing but a folder right inside ``out_dir``.

        Raises:
            ValueError: ``job_id`` is not a valid id.
        """
        if not valid_id(job_id):
            raise ValueError(f"invalid report id {job_id!r}")
        return self.out_dir / job_id

    def files(self, job_id: str, names: list[str]) -> Path:
        """The folder of a completed report, with the files of ``names`` this replica can have.

        With object storage (``REPORTGEN_STORAGE_URL``) the files this
        replica lacks are downloaded into its outputs folder first (a cache).

        Args:
            job_id: A completed job's id.
            names: File names inside the report folder (``report.pdf``, ...).

        Raises:
            ValueError: ``job_id`` is not a valid id.
        """
        folder = self.report_dir(job_id)
        self.storage.fetch(job_id, folder, names)
        return folder

    async def watch(self, job_id: str, *, poll_s: float = 1.0) -> AsyncIterator[Job]:
        """Yield the job each time its status or progress changes, until it ends.

        Args:
            job_id: The job.
            poll_s: Look again at least this often (seconds), even unwoken.
        """
        with self.events.follow(job_id) as wake:
            last: tuple[Any, ...] | None = None
            while True:
                wake.clear()
                job = self.store.get(job_id)
                if job is None:
                    return
                key = (job.status, job.tasks_done, job.tasks_total, job.review_answer is None)
                if key != last:
                    last = key
                    yield job
                if job.status.terminal or (job.status is JobStatus.INPUT_REQUIRED and job.review_answer is None):
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), poll_s)

    # -- running ---------------------------------------------------------------

    async def _runner(self) -> None:
        assert self._queue is not None
        queue = self._queue
        while True:
            job_id = await queue.get()
            try:
                await self.run_job(job_id)
            except database_errors() as exc:  # the job stays unfinished: it runs again on the next start
                logger.warning("job %s stopped: the database is unreachable (%s)", job_id, exc)

    async def run_job(self, job_id: str) -> bool:
        """Run one job here if nobody else runs it: take its lease, run it, give the lease back.

        What the in-process runners and the Celery task (:mod:`reportgen.broker`)
        both call. A job finished, waiting for its review, or leased by a live
        worker elsewhere is left alone (a duplicate or redelivered message
        does nothing); one canceled before it started is marked so. While it
        runs, a heartbeat renews the lease and reads the cancel flag.

        Args:
            job_id: The job.

        Returns:
            ``True`` when it ran here (to any end), ``False`` when it was left alone.
        """
        self.events.bind(asyncio.get_running_loop())
        job = self.store.get(job_id)
        if job is None or job.status.terminal or job_id in self._running or self._stopping:
            return False
        if job.status is JobStatus.INPUT_REQUIRED and job.review_answer is None:
            return False  # waits for its review
        if not self.store.acquire_lease(job_id, self.owner, self.settings.lease_s):
            return False  # another worker runs it now
        job = self.store.get(job_id)  # as it is now that it is ours
        if job is None or job.status.terminal:
            return False
        if job.cancel_requested:
            self.store.finish(job_id, JobStatus.CANCELED, error_code=RunCanceled.code,
                              error="canceled before it started")
            self.events.notify(job_id)
            return False
        run = _Running(cancel=asyncio.Event())
        task = asyncio.create_task(self._run(job, run), name=f"reportgen-job-{job_id}")
        run.task = task
        self._running[job_id] = run
        beat = asyncio.create_task(self._heartbeat(job_id, run), name=f"reportgen-lease-{job_id}")
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if run.lost and not (current is not None and current.cancelling()):
                pass  # the heartbeat stopped the run (its lease was lost): the lease holder records its end
            else:
                task.cancel()  # hard stop: the job stays `working` and resumes on the next start
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                raise
        finally:
            beat.cancel()  # not awaited: a suppressed CancelledError there would swallow this task's own cancel
            self._running.pop(job_id, None)
            if run.lost and self.broker is None and not self._stopping:
                # Nobody else queues it here: its next run takes the lease back as soon as the
                # database answers (the lease is still this worker's, or has run out), or finds
                # another worker holding it and leaves it alone.
                self._enqueue(job_id)
            self._flush_events(job_id)
            with self._log_lock:
                self._logged.pop(job_id, None)  # the next run here finds its place again
                self._behind.discard(job_id)  # what is left goes in with the next run's lines, whoever runs it
            try:
                self.store.release_lease(job_id, self.owner)
            except Exception as exc:  # noqa: BLE001 - the database is away: the lease just runs out
                logger.warning("could not release the lease of job %s (%s)", job_id, exc)
            self.events.notify(job_id)
        return True

    async def _heartbeat(self, job_id: str, run: _Running) -> None:
        """Renew the job's lease and pass a cancel on, every third of ``lease_s`` (at most
        :data:`CANCEL_POLL_S`); stop the run at once when the lease is lost or may be.

        Fencing: the lease runs ``lease_s`` from the last renewal the database
        confirmed. When renewals fail (the database is away, or does not answer
        within a beat) and half of that has passed since the last one that did
        not, another worker may soon take the job, so the run stops here before
        it could: two workers never run the same task and log its answer twice.
        The stop is hard (the run's tasks in flight are cancelled,
        :func:`reportgen.dispatch._stop`); what was checkpointed is reused by
        whoever runs the job next. Only a failed renewal counts: a beat that
        comes late (a busy event loop) renews as usual, and if another worker
        took the lease meanwhile the renewal says so. The database calls run
        on threads of their own, never queued behind the pipeline's.
        """
        lease_s = self.settings.lease_s
        every = min(lease_s / 3, CANCEL_POLL_S)
        renewed = time.monotonic()  # run_job took the lease just before
        while True:
            await asyncio.sleep(every)
            asked = time.monotonic()
            try:
                held = await asyncio.wait_for(self._lease_call(self.store.renew_lease, job_id, self.owner, lease_s),
                                              every)
                if held:
                    renewed = asked
                job = await asyncio.wait_for(self._lease_call(self.store.get, job_id), every)
            except Exception as exc:  # noqa: BLE001 - the database is away: try again until the fence
                logger.warning("lease heartbeat of job %s failed (%s)", job_id, exc or type(exc).__name__)
                if time.monotonic() - renewed >= lease_s / 2:
                    logger.warning("job %s: the lease could not be renewed for %.1f s; stopping here", job_id,
                                   time.monotonic() - renewed)
                    self._lose(run)
                    return
                continue
            if job_id in self._behind:
                await asyncio.to_thread(self._flush_events, job_id)
            if not held:
                logger.warning("job %s: lease lost to another worker; stopping here", job_id)
                self._lose(run)
                return
            if job is not None and job.cancel_requested:
                run.cancel.set()

    async def _lease_call(self, call: Callable[..., Any], *args: Any) -> Any:
        """``call(*args)`` on the lease threads (:attr:`_lease_pool`): a renewal never waits behind the
        pipeline's own threads (agents' tools, rendering) in the default executor."""
        return await asyncio.get_running_loop().run_in_executor(self._lease_pool, functools.partial(call, *args))

    @staticmethod
    def _lose(run: _Running) -> None:
        """Stop a run whose lease is (or may be) another worker's: at once, recording nothing."""
        run.lost = True
        run.cancel.set()
        if run.task is not None:
            run.task.cancel()

    def _run_options(self, job: Job) -> RunOptions:
        request = self.check(ReportRequest(topic=job.topic, **job.options))
        return RunOptions(
            topic=request.topic, lang=request.lang or "en", sections=request.sections,
            corpus_dirs=[self.settings.corpora[request.corpus]] if request.corpus else [],
            use_wiki=request.wiki, template=request.template, appendix=request.appendix,
            guidance=request.guidance,
        )

    def _review_deadline(self, job: Job) -> datetime | None:
        timeout = job.options.get("review_timeout_s")
        return datetime.now(timezone.utc) + timedelta(seconds=float(timeout)) if timeout else None

    async def _run(self, job: Job, run: _Running) -> None:
        await self.ready()  # a job resumed at start must not import the pipeline beside the warm-up
        from reportgen.run import generate_report

        cancel = run.cancel
        await asyncio.to_thread(self._restore_log, job.id)
        log = MessageLog(self.report_dir(job.id) / "messages.jsonl")
        log.subscribe(lambda message: self._message(job.id, message))
        if job.runs:
            log.append(StatusUpdate(
                task_id="run", status="resumed",
                detail="the service started again; finished tasks are reused from their checkpoints",
            ))
        self.store.mark_working(job.id)
        self.events.notify(job.id)
        try:
            result = await generate_report(
                self._run_options(job), settings=self.settings, out_dir=self.out_dir, report_id=job.id,
                on_blueprint=lambda bp: self._progress(job.id, bp),
                on_message=lambda message: self._message(job.id, message),
                cancel=cancel, search=self.search, backoff_scale=self.backoff_scale,
                review=bool(job.options.get("review")), review_answer=job.review_answer,
            )
        except ReviewRequired as exc:
            if self.store.get(job.id) is not None and not (self.store.get(job.id) or job).cancel_requested:
                self.store.wait_for_review(job.id, exc.blueprint, self._review_deadline(job))
            else:
                self._finish(job.id, JobStatus.CANCELED, error_code=RunCanceled.code,
                                  error="canceled while waiting for plan review")
        except RunCanceled as exc:
            current = self.store.get(job.id)
            if run.lost:
                return  # another worker runs it now: it records the end
            if self._stopping and current is not None and not current.cancel_requested:
                log.append(StatusUpdate(
                    task_id="run", status="interrupted",
                    detail="the service is stopping; this report resumes when it starts again",
                ))
                return
            self._finish(job.id, JobStatus.CANCELED, error_code=exc.code, error=str(exc))
        except ReportgenError as exc:
            self._finish(job.id, JobStatus.FAILED, error_code=exc.code, error=str(exc))
        except database_errors():
            raise  # the database went away: not a failure of the report; it runs again from its checkpoints
        except Exception as exc:  # noqa: BLE001 - a bug must fail the job, not the worker
            logger.exception("report job %s crashed", job.id)
            self._finish(job.id, JobStatus.FAILED, error_code="internal",
                              error=f"internal error ({type(exc).__name__})")
        else:
            current = self.store.get(job.id)
            if current is not None and current.cancel_requested:  # asked for during coordinate/render
                self._finish(job.id, JobStatus.CANCELED, error_code=RunCanceled.code,
                                  error="canceled while the report was being rendered; its files are not offered")
                return
            pages = await asyncio.to_thread(_pdf_pages, result.files["report.pdf"])
            try:
                await asyncio.to_thread(self.storage.publish, job.id, self.report_dir(job.id))
            except Exception as exc:  # noqa: BLE001 - the report exists, but no replica could serve it
                logger.exception("report %s: files not stored", job.id)
                self._finish(job.id, JobStatus.FAILED, error_code="storage",
                             error=f"the report's files could not be stored ({type(exc).__name__}: {exc})")
                return
            self._finish(
                job.id, JobStatus.COMPLETED, title=result.report.title, lang=result.report.lang,
                pages=pages, timings=result.timings,
            )
        finally:
            self.events.notify(job.id)

    def _progress(self, job_id: str, blueprint: Blueprint) -> None:
        done = sum(t.status.finished for t in blueprint.tasks)
        try:
            self.store.set_progress(job_id, done, len(blueprint.tasks))
        except Exception as exc:  # noqa: BLE001 - a progress figure never stops a report
            logger.warning("progress of job %s not recorded (%s)", job_id, exc)
        self.events.notify(job_id)

    def _message(self, job_id: str, message: BaseModel) -> None:
        """A message was logged to the job's ``messages.jsonl``: copy it to the event log (what SSE
        replays) and wake the job's followers.

        While the database cannot be reached the lines wait in the file and
        go in with the next one that can (or when the run ends, or with the
        next run's first line wherever it runs), so the event log stays the
        same as ``messages.jsonl``, line for line.
        """
        self._flush_events(job_id)
        self.events.notify(job_id)

    def _finish(self, job_id: str, status: JobStatus, **fields: Any) -> None:
        """:meth:`JobStore.finish`, once every line of the job's log is in the database (a stream ends at the end)."""
        self._flush_events(job_id, strict=True)  # the database is away: its error, and the job is tried again
        self.store.finish(job_id, status, **fields)

    def _flush_events(self, job_id: str, *, strict: bool = False) -> None:
        """Copy the lines of the job's ``messages.jsonl`` its event log lacks (:meth:`JobStore.log_events`).

        Args:
            job_id: The job.
            strict: Raise the database's error instead of leaving the lines for the next call.
        """
        path = self.report_dir(job_id) / "messages.jsonl"
        with self._log_lock:
            try:
                mark = self._logged.get(job_id)
                if mark is None:
                    mark = self._logged[job_id] = _line_offset(path, self.store.events_logged(job_id))
                lines, offset, line = log_lines(path, *mark)
                if lines:
                    self.store.log_events(job_id, lines)
                self._logged[job_id] = (offset, line)
                self._behind.discard(job_id)
            except Exception as exc:  # noqa: BLE001 - kept for the next try; messages.jsonl has them
                self._behind.add(job_id)
                logger.warning("events of job %s wait for the database (%s)", job_id, exc)
                if strict:
                    raise

    def _restore_log(self, job_id: str) -> None:
        """Before a run: give ``messages.jsonl`` the lines the event log has and it lacks.

        A job resumed on a machine that does not share the outputs folder
        (object storage) would otherwise number its lines from 1 again; with
        the log's lines first, it goes on where the event log stopped. A line
        torn by a kill (not in the log) comes back as an empty line, so the
        numbers stay. The lines the file has and the log lacks go in now.
        """
        path = self.report_dir(job_id) / "messages.jsonl"
        logged = self.store.events_logged(job_id)
        _, _, have = log_lines(path)
        if have < logged:
            missing = dict(self.store.events_after(job_id, have, limit=logged - have))
            path.parent.mkdir(parents=True, exist_ok=True)
            torn = path.exists() and path.stat().st_size > 0 and not _ends_a_line(path)
            with open(path, "a", encoding="utf-8") as fh:
                if torn:  # a killed writer's half line: it keeps its number, empty of the log's line
                    fh.write("\n")
                    have += 1
                fh.write("".join(missing.get(n, "") + "\n" for n in range(have + 1, logged + 1)))
        self._flush_events(job_id)


def _ends_a_line(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def _line_offset(path: Path, lines: int) -> tuple[int, int]:
    """Where the first ``lines`` lines of a log file end: ``(byte offset, line number)`` for
    :func:`~reportgen.acp.messages.log_lines` (the file's end, when it has fewer)."""
    if lines <= 0:
        return 0, 0
    offset = line = 0
    try:
        with open(path, "rb") as fh:
            for raw in fh:
                if not raw.endswith(b"\n"):
                    break
                offset += len(raw)
                line += 1
                if line == lines:
                    break
    except FileNotFoundError:
        pass
    return offset, line


def _warm_up(settings: Settings) -> None:
    """Load what the first requests need and keep cached: the pipeline's modules (``submit``
    imports :mod:`reportgen.run`, about 3 s of imports), both language identifiers
    :func:`~reportgen.config.resolve_language` uses, and the agent registry."""
    import reportgen.run  # noqa: F401
    from reportgen.agents.registry import load_registry
    from reportgen.config import LANGUAGES
    from reportgen.i18n import detect_language

    detect_language("renewable energy")
    detect_language("renewable energy", LANGUAGES)
    try:
        load_registry(settings)
    except ReportgenError:  # a broken agent folder or plugin: the first run reports it
        pass


def _pdf_pages(path: Path) -> int | None:
    from pypdf import PdfReader

    try:
        return len(PdfReader(path).pages)
    except Exception:  # noqa: BLE001 - a page count is a nicety, never a failure
        return None
