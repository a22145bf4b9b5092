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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shutil
import threading
import unicodedata
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from reportgen.acp import MessageLog, StatusUpdate
from reportgen.blueprint.model import Blueprint
from reportgen.config import MAX_TOPIC_CHARS, RunOptions, Settings, clean_topic, resolve_language
from reportgen.errors import InputError, RenderError, ReportgenError, RunCanceled
from reportgen.review import ReviewRequired
from reportgen.store import Idempotent, Job, JobStatus, JobStore

__all__ = [
    "ID_PATTERN", "JobEvents", "NAME_PATTERN", "REVIEW_SWEEP_S", "ReportRequest", "ReviewStateError", "THEME_PATTERN",
    "Worker", "valid_id",
]

#: Seconds between two looks for unattended reviews whose timeout passed.
REVIEW_SWEEP_S = 5.0


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
    sections: StrictInt = Field(5, ge=1, le=12, description="Body sections wanted.")
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
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._followers: dict[str, set[asyncio.Event]] = {}
        self._lock = threading.Lock()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver wake-ups on ``loop`` (the loop the followers wait on)."""
        self._loop = loop

    def notify(self, job_id: str) -> None:
        """Wake everyone following ``job_id``; callable from any thread."""
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
    task: asyncio.Task[None]
    cancel: asyncio.Event


class Worker:
    """Runs report jobs in the background.

    Args:
        settings: Settings (``out_dir``, ``max_jobs``, caps, corpora, templates).
        store: The job store.
        search: A search backend used for every job instead of the configured
            corpora (tests inject a fake here).
        backoff_scale: Multiplier on retry delays (0 in tests).
    """

    def __init__(
        self,
        settings: Settings,
        store: JobStore,
        *,
        search: Any = None,
        backoff_scale: float = 1.0,
    ) -> None:
        self.settings = settings
        self.store = store
        self.search = search
        self.backoff_scale = backoff_scale
        self.out_dir = Path(settings.out_dir).resolve()
        self.events = JobEvents()
        self._queue: asyncio.Queue[str] | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._running: dict[str, _Running] = {}
        self._stopping = False
        self._sweeper: asyncio.Task[None] | None = None
        self._warm_up: asyncio.Future[None] | None = None

    # -- lifecycle -----------------------------------------------------------

    async def start(self) -> None:
        """Start the runners and queue every unfinished job, oldest first (resume).

        The pipeline's modules, the language detector and the agent registry
        start loading in a thread: loading them takes seconds, which the
        first requests would otherwise spend blocking the event loop
        (``submit`` imports the pipeline, ``check`` detects a topic's
        language, the file endpoints list the exporters). Start does not
        wait for them, so the service listens at once; :meth:`ready` does.
        """
        self._warm_up = asyncio.ensure_future(asyncio.to_thread(_warm_up, self.settings))
        self.events.bind(asyncio.get_running_loop())
        self._stopping = False
        self._queue = asyncio.Queue()
        for job in self.store.unfinished():
            self._queue.put_nowait(job.id)
        self._runners = [
            asyncio.create_task(self._runner(), name=f"reportgen-worker-{i}")
            for i in range(self.settings.max_jobs)
        ]
        self._sweeper = asyncio.create_task(self._sweep_reviews(), name="reportgen-review-timeouts")

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
        if running:
            await asyncio.wait([r.task for r in running], timeout=self.settings.shutdown_grace_s)
        tasks = [*self._runners, *([self._sweeper] if self._sweeper else [])]
        for runner in tasks:
            runner.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._sweeper = None
        self._runners = []
        self._queue = None

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
        if isinstance(job, Job) and self._queue is not None:
            self._queue.put_nowait(job.id)
        return job

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
        else:
            waiting = job.status is JobStatus.INPUT_REQUIRED and job.review_answer is None
            self.store.finish(job_id, JobStatus.CANCELED, error_code=RunCanceled.code,
                              error="canceled while waiting for plan review" if waiting
                              else "canceled before it started")
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
        if self._queue is not None:
            self._queue.put_nowait(job_id)
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
            job = self.store.get(job_id)
            if job is None or job.status.terminal or job_id in self._running or self._stopping:
                continue
            if job.status is JobStatus.INPUT_REQUIRED and job.review_answer is None:
                continue  # waits for its review
            if job.cancel_requested:
                self.store.finish(job_id, JobStatus.CANCELED, error_code=RunCanceled.code,
                                  error="canceled before it started")
                self.events.notify(job_id)
                continue
            cancel = asyncio.Event()
            task = asyncio.create_task(self._run(job, cancel), name=f"reportgen-job-{job_id}")
            self._running[job_id] = _Running(task, cancel)
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                task.cancel()  # hard stop: the job stays `working` and resumes on the next start
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                raise
            finally:
                self._running.pop(job_id, None)
                self.events.notify(job_id)

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

    async def _run(self, job: Job, cancel: asyncio.Event) -> None:
        await self.ready()  # a job resumed at start must not import the pipeline beside the warm-up
        from reportgen.run import generate_report

        log = MessageLog(self.report_dir(job.id) / "messages.jsonl")
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
                on_message=lambda _message: self.events.notify(job.id),
                cancel=cancel, search=self.search, backoff_scale=self.backoff_scale,
                review=bool(job.options.get("review")), review_answer=job.review_answer,
            )
        except ReviewRequired as exc:
            if self.store.get(job.id) is not None and not (self.store.get(job.id) or job).cancel_requested:
                self.store.wait_for_review(job.id, exc.blueprint, self._review_deadline(job))
            else:
                self.store.finish(job.id, JobStatus.CANCELED, error_code=RunCanceled.code,
                                  error="canceled while waiting for plan review")
        except RunCanceled as exc:
            current = self.store.get(job.id)
            if self._stopping and current is not None and not current.cancel_requested:
                log.append(StatusUpdate(
                    task_id="run", status="interrupted",
                    detail="the service is stopping; this report resumes when it starts again",
                ))
                return
            self.store.finish(job.id, JobStatus.CANCELED, error_code=exc.code, error=str(exc))
        except ReportgenError as exc:
            self.store.finish(job.id, JobStatus.FAILED, error_code=exc.code, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug must fail the job, not the worker
            logger.exception("report job %s crashed", job.id)
            self.store.finish(job.id, JobStatus.FAILED, error_code="internal",
                              error=f"internal error ({type(exc).__name__})")
        else:
            current = self.store.get(job.id)
            if current is not None and current.cancel_requested:  # asked for during coordinate/render
                self.store.finish(job.id, JobStatus.CANCELED, error_code=RunCanceled.code,
                                  error="canceled while the report was being rendered; its files are not offered")
                return
            pages = await asyncio.to_thread(_pdf_pages, result.files["report.pdf"])
            self.store.finish(
                job.id, JobStatus.COMPLETED, title=result.report.title, lang=result.report.lang,
                pages=pages, timings=result.timings,
            )
        finally:
            self.events.notify(job.id)

    def _progress(self, job_id: str, blueprint: Blueprint) -> None:
        done = sum(t.status.finished for t in blueprint.tasks)
        self.store.set_progress(job_id, done, len(blueprint.tasks))
        self.events.notify(job_id)


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
