"""Running a report end to end: the API the CLI (and later the HTTP service) calls."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import threading
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import aiosqlite
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.types import Command

from reportgen.acp import MessageLog, StatusUpdate
from reportgen.agents.mcp_tool import check_mcp_tools
from reportgen.agents.registry import load_registry
from reportgen.agents.runtime import RunContext
from reportgen.blueprint.model import Blueprint
from reportgen.blueprint.request import read_request
from reportgen.config import RunOptions, Settings, get_settings
from reportgen.errors import InputError, ReportgenError, RunCanceled, RunError
from reportgen.faults import FaultPlan
from reportgen.graph import build_report_graph, build_task_graph
from reportgen.i18n import labels
from reportgen.llm import LLM
from reportgen.pipeline import Pipeline
from reportgen.report import Limitation, Report
from reportgen.review import ReviewRequired
from reportgen.runs import RunLock, RunRecord, find_unfinished, load_record, save_record
from reportgen.sources import open_backends

__all__ = [
    "RunCheckpointer",
    "RunResult",
    "corpus_path",
    "corpus_title",
    "find_unfinished",
    "generate_report",
    "new_report_id",
    "open_checkpointer",
    "resume_report",
]

#: Longest topic-derived part of a report id, in characters.
SLUG_CHARS = 32


def new_report_id(topic: str, out_dir: Path | None = None) -> str:
    """Make a short, unique report id that is safe on every file system.

    The id is an ASCII slug of what the topic asks for (its instruction or
    lead-in removed, :func:`~reportgen.blueprint.request.read_request`: "Write a
    short report on volcanoes" is ``"volcanoes-…"``, where its folder had been
    named ``"write-a-short-report-on-…"``), accents folded, other scripts
    dropped (``"report"`` when nothing is left), cut to :data:`SLUG_CHARS`
    characters, plus 6 random hex digits: ``"renewable-energy-3f9a2c"``. It is
    never the raw user text, holds only ``[a-z0-9-]``, and is at most 39
    characters long.

    Args:
        topic: The report topic, in any script.
        out_dir: When given, ids already present there are avoided.

    Returns:
        The id.
    """
    request = read_request(topic)
    asked = request.title or request.subject
    ascii_text = unicodedata.normalize("NFKD", asked if asked.strip() else topic).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > SLUG_CHARS:
        slug = slug[:SLUG_CHARS].rsplit("-", 1)[0] if "-" in slug[:SLUG_CHARS] else slug[:SLUG_CHARS]
    slug = slug.strip("-") or "report"
    while True:
        report_id = f"{slug}-{secrets.token_hex(3)}"
        if out_dir is None or not (Path(out_dir) / report_id).exists():
            return report_id


@dataclass
class RunResult:
    """What a finished run produced.

    Attributes:
        report_id: The report id.
        out_dir: The report's folder.
        report: The coordinated report.
        blueprint: The blueprint with final task states.
        files: The output files by name.
        timings: Seconds per stage (see :class:`~reportgen.pipeline.ReportState`).
    """

    report_id: str
    out_dir: Path
    report: Report
    blueprint: Blueprint
    files: dict[str, Path]
    timings: dict[str, float]


async def generate_report(
    options: RunOptions,
    *,
    settings: Settings | None = None,
    out_dir: Path | None = None,
    report_id: str | None = None,
    on_blueprint: Callable[[Blueprint], None] | None = None,
    recovery: bool = True,
    backoff_scale: float = 1.0,
    search: Any = None,
    on_message: Callable[[Any], None] | None = None,
    cancel: asyncio.Event | None = None,
    template_dir: Path | None = None,
    faults: FaultPlan | None = None,
    web: Any = None,
    review: bool = False,
    review_answer: dict[str, Any] | None = None,
) -> RunResult:
    """Plan, research, chart, write, coordinate and render one report.

    Args:
        options: Topic, language, sections and corpora.
        settings: Settings; default :func:`get_settings`. ``out_dir`` beats
            ``settings.out_dir``.
        out_dir: Folder that receives ``<report-id>/``.
        report_id: Resume or name this id; default a new id.
        on_blueprint: Called on every task state change (progress display).
        recovery: Route errors to the recovery node (``False`` = ablation).
        backoff_scale: Multiplier on retry delays (0 in tests).
        search: A search backend to use instead of the configured corpora (tests).
        on_message: Called with every ACP message as it is logged (live progress).
        cancel: Set it to stop the run at the next task boundary.
        template_dir: User templates overriding the built-in ones.
        faults: Fault injection plan; default from ``REPORTGEN_FAULTS``.
        web: The web backend for the ``web`` / ``auto`` search modes
            (``REPORTGEN_SEARCH``); default a :class:`~reportgen.sources.WebSearch`
            on ddgs. Tests pass one on a local fixture site.
        review: Stop after planning for a plan review (:mod:`reportgen.review`).
        review_answer: The reviewer's answer to a run waiting for review
            (a checked :class:`~reportgen.review.ReviewAnswer` as JSON, with
            ``run_blueprint`` the blueprint to run).

    A run killed at any moment continues with :func:`resume_report` (or a new
    call with the same ``report_id``): finished tasks are reused from their
    checkpoints, not run again.

    Returns:
        The run's result; the five files are in ``out_dir / report_id``.

    Raises:
        AgentDefinitionError: An agent folder, prompt or MCP tool binding is
            wrong, or an MCP server cannot start (before any research).
        PluginError: A plugin failed to load or clashes with another.
        InputError: A corpus folder is missing or empty, or the search
            backend is not registered.
        RunLockedError: Another process is generating this report id.
        NoSourcesError: The corpora know nothing of the topic.
        RunError: No section could be written.
        RunCanceled: ``cancel`` was set before the run finished.
        ReviewRequired: The run waits for its plan review (``review``);
            call again with ``review_answer``.
        RenderError: The HTML or PDF could not be written.
    """
    settings = settings or get_settings()
    if faults is None and settings.faults:
        faults = FaultPlan.parse(settings.faults)
    hooks = _Hooks(on_blueprint, on_message, cancel, template_dir, recovery, backoff_scale, faults,
                   review, review_answer)
    if search is not None:
        return await _run(options, settings, out_dir, report_id, search, [search.name], [], hooks)
    # A broken agent folder or plugin stops here, before any research. Off the event loop: the
    # first load imports every agent's modules (seconds).
    registry = await asyncio.to_thread(load_registry, settings)
    await asyncio.to_thread(check_mcp_tools, registry.planned_agents(), min(30.0, settings.tool_timeout_s))
    mode = settings.search
    factory = registry.search_backends.get(mode)
    if factory is None:
        raise InputError(f"unknown search backend {mode!r} (REPORTGEN_SEARCH); registered: "
                         f"{', '.join(sorted(registry.search_backends))}")
    offline_options = options if mode != "web" else options.model_copy(update={"use_wiki": False})
    # Off the event loop: the first run builds the corpus indexes (seconds for the encyclopedia),
    # and a service's loop must keep answering status requests meanwhile.
    with await asyncio.to_thread(open_backends, offline_options) as sources:
        skipped = [Limitation(reason=f"{corpus_path(f.path, options.corpus_dirs)}: not used ({f.reason})")
                   for f in sources.skipped]
        corpora = [corpus_title(b.name, options) for b in sources.backends]
        if mode != "offline":
            corpora.insert(0, corpus_title("web", options))
        backend = factory(sources.backends, settings, web)
        try:
            return await _run(options, settings, out_dir, report_id, backend, corpora, skipped, hooks)
        finally:
            if web is None:
                backend.close()


@dataclass
class _Hooks:
    on_blueprint: Callable[[Blueprint], None] | None
    on_message: Callable[[Any], None] | None
    cancel: asyncio.Event | None
    template_dir: Path | None
    recovery: bool
    backoff_scale: float
    faults: FaultPlan | None
    review: bool = False
    review_answer: dict[str, Any] | None = None


def corpus_path(path: Path, folders: list[Path]) -> str:
    """A local file as the report names it: ``<corpus folder name>/<path inside it>``, never an absolute path.

    The report is read on other machines; the machine that made it and its
    user's home folder are nobody's business.

    Args:
        path: A file of one of the corpus folders.
        folders: The run's corpus folders.

    Returns:
        The POSIX path inside its folder, prefixed by the folder's name; the
        file's name alone when it is in none of them.
    """
    for folder in folders:
        try:
            return f"{Path(folder).name}/{Path(path).resolve().relative_to(Path(folder).resolve()).as_posix()}"
        except (ValueError, OSError):
            continue
    return Path(path).name


def corpus_title(name: str, options: RunOptions) -> str:
    """A reader-facing name of a corpus, in the report's language, for the mode note."""
    words = labels(options.lang)
    if name.startswith("wikipedia-"):
        lang = name.removeprefix("wikipedia-")
        return labels(lang)["corpus_wiki"]
    if name.startswith("local:"):
        return words["corpus_local"].format(name=name.removeprefix("local:"))
    if name == "web":
        return words["corpus_web"]
    return name


async def _run(
    options: RunOptions,
    settings: Settings,
    out_dir: Path | None,
    report_id: str | None,
    search: Any,
    corpora: list[str],
    skipped: list[Limitation],
    hooks: _Hooks,
) -> RunResult:
    base = Path(out_dir or settings.out_dir)
    report_id = report_id or new_report_id(options.topic, base)
    folder = base / report_id
    with RunLock(settings, report_id):
        record = RunRecord(report_id=report_id, options=options, out_dir=base.resolve(),
                           updated=datetime.now(timezone.utc))
        save_record(settings, record)
        try:
            result = await _invoke(options, settings, folder, report_id, search, corpora, skipped, hooks)
        except ReviewRequired:
            raise  # still running: it continues when the review is answered
        except RunCanceled as exc:
            record.state, record.error = "canceled", str(exc)
            raise
        except RunError as exc:
            record.state, record.error = "failed", str(exc)
            if (folder / "messages.jsonl").exists():  # say where to look, not a bare failure
                raise RunError(f"{exc}; what was tried is in {folder / 'messages.jsonl'}") from exc
            raise
        except ReportgenError as exc:
            record.state, record.error = "failed", str(exc)
            raise
        except Exception as exc:  # a bug: the record still says failed, never "running"
            record.state, record.error = "failed", f"{type(exc).__name__}: {exc}"
            raise
        else:
            record.state = "completed"
        finally:
            if record.state != "running":
                save_record(settings, record)
    return result


async def _invoke(
    options: RunOptions,
    settings: Settings,
    folder: Path,
    report_id: str,
    search: Any,
    corpora: list[str],
    skipped: list[Limitation],
    hooks: _Hooks,
) -> RunResult:
    log = MessageLog(folder / "messages.jsonl")
    if hooks.on_message is not None:
        log.subscribe(hooks.on_message)
    stop = hooks.cancel or asyncio.Event()  # set by a fatal model endpoint error too
    if hasattr(search, "reroutes"):
        search = _LoggedReroutes(search, log)
    ctx = RunContext(
        topic=read_request(options.topic, options.lang).subject, lang=options.lang, search=search, log=log,
        task_attempts=settings.task_attempts,
        recovery=hooks.recovery, backoff_scale=hooks.backoff_scale, faults=hooks.faults,
        tool_timeout_s=settings.tool_timeout_s, deadline=time.monotonic() + settings.run_deadline_s,
        llm=_model(settings, log, hooks, stop) if settings.llm_configured else None,
        executor=ThreadPoolExecutor(max_workers=settings.max_concurrency, thread_name_prefix="reportgen-tool"),
        corpus_dirs=list(options.corpus_dirs),
    )
    registry = await asyncio.to_thread(load_registry, settings)  # cached after the first load
    ctx.chart_kinds = dict(registry.chart_kinds)
    agents = registry.bind(settings, ctx.llm)
    settings.home.mkdir(parents=True, exist_ok=True)
    config: RunnableConfig = {"configurable": {"thread_id": report_id}}
    from reportgen.checkpoints import open_saver

    async with open_saver(settings) as saver, _shut_down(ctx.executor, ctx.llm, log):
        pipeline = Pipeline(
            options=options, report_id=report_id, out_dir=folder, run=ctx,
            task_graph=build_task_graph(saver, agents), corpora=corpora, limitations=skipped,
            max_concurrency=settings.max_concurrency, on_blueprint=hooks.on_blueprint,
            agents=agents, registry=registry, template_dir=hooks.template_dir, cancel=stop,
            settings=settings, review=hooks.review,
        )
        graph = build_report_graph(saver)
        snapshot = await graph.aget_state(config)
        if snapshot.interrupts:  # waiting for plan review
            if hooks.review_answer is None:
                raise ReviewRequired(report_id, snapshot.values.get("blueprint") or {}, snapshot.values.get("sources"))
            state = await graph.ainvoke(Command(resume=hooks.review_answer), config, context=pipeline)
        elif snapshot.next:  # an interrupted run: continue from the last finished stage
            log.append(StatusUpdate(task_id="run", status="resumed",
                                    detail=f"resuming at {', '.join(snapshot.next)}"))
            state = await graph.ainvoke(None, config, context=pipeline)
        elif snapshot.values.get("files"):  # finished before: nothing to do
            state = snapshot.values
        else:
            state = await graph.ainvoke({"report_id": report_id}, config, context=pipeline)
        if state.get("__interrupt__"):
            raise ReviewRequired(report_id, state.get("blueprint") or {}, state.get("sources"))
    return RunResult(
        report_id=report_id,
        out_dir=folder,
        report=Report.model_validate(state["report"]),
        blueprint=Blueprint.model_validate(state["blueprint"]),
        files={name: folder / name for name in state.get("files") or {}},
        timings=dict(state.get("timings") or {}),
    )


class _LoggedReroutes:
    """Logs every fallback of an ``auto`` search (web → offline) as an ACP reroute."""

    def __init__(self, backend: Any, log: MessageLog) -> None:
        self.backend, self.log, self.name = backend, log, backend.name
        self._seen = 0
        self._lock = threading.Lock()

    def space(self) -> Any:
        """The wrapped backend's topic space (see :func:`reportgen.sources.index.topic_space`)."""
        from reportgen.sources.index import topic_space

        return topic_space(self.backend)

    def search(self, query: str, k: int = 10) -> list[Any]:
        found: list[Any] = self.backend.search(query, k)
        with self._lock:
            new = self.backend.reroutes[self._seen:]
            self._seen += len(new)
        for note in new:
            self.log.append(StatusUpdate(task_id="search", agent="browser", status="reroute", detail=note))
        return found


@contextlib.asynccontextmanager
async def _shut_down(executor: Any, llm: LLM | None = None, log: MessageLog | None = None) -> AsyncIterator[None]:
    """Release the tool threads at the end of a run without waiting for hung ones, and close the message log.

    Model calls still in flight are stopped (:meth:`LLM.close`: their sockets
    shut, so the server stops computing), so the process can exit at once. A
    run stopped by a fatal model endpoint error raises that error, in the
    server's own words, instead of the cancellation it caused.
    """
    try:
        yield
    except ReportgenError:
        if llm is not None and llm.fatal is not None:
            raise llm.fatal from None
        raise
    finally:
        if llm is not None:
            llm.close()
        executor.shutdown(wait=False, cancel_futures=True)
        if log is not None:
            log.close()  # a hung tool's late message reopens it


def _model(settings: Settings, log: MessageLog, hooks: _Hooks, stop: asyncio.Event) -> LLM:
    """The run's model endpoint: its retries logged, a fatal error stopping new work."""
    loop = asyncio.get_running_loop()

    def retried(task_id: str, role: str, detail: str) -> None:
        log.append(StatusUpdate(task_id=task_id, agent=role, status="retry", status_code=604, detail=detail))

    return LLM(settings, run_deadline=time.monotonic() + settings.run_deadline_s, backoff_scale=hooks.backoff_scale,
               on_retry=retried, on_fatal=lambda _exc: loop.call_soon_threadsafe(stop.set))


class RunCheckpointer(AsyncSqliteSaver):
    """LangGraph's SQLite saver, told which task threads hold no checkpoint yet.

    Every task-graph run starts with a read of its thread's latest
    checkpoint. For a task of a fresh run the dispatcher already knows there
    is none (it lists this report's checkpointed threads once, under the
    run lock: no other process writes them), so that read is answered
    without a query: one database round trip fewer per task, on the single
    SQLite connection every task shares (issue 15: orchestration cost,
    makespan). A thread leaves :attr:`known_empty` with its first write, so
    a task that runs again (after an amendment) reads its state as before.

    Attributes:
        known_empty: Root thread ids known to hold no checkpoint (filled by
            :class:`~reportgen.dispatch.Dispatcher`).
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__(conn)
        self.known_empty: set[str] = set()

    async def aget_tuple(self, config: RunnableConfig) -> Any:
        """As :meth:`AsyncSqliteSaver.aget_tuple`; ``None`` without a query for a thread known to be empty."""
        configurable = config.get("configurable", {})
        if (configurable.get("thread_id") in self.known_empty and not configurable.get("checkpoint_ns")
                and not configurable.get("checkpoint_id")):
            return None
        return await super().aget_tuple(config)

    async def aput(self, config: RunnableConfig, checkpoint: Any, metadata: Any, new_versions: Any) -> RunnableConfig:
        """As :meth:`AsyncSqliteSaver.aput`; the thread is no longer known to be empty."""
        self.known_empty.discard(str(config.get("configurable", {}).get("thread_id", "")))
        return await super().aput(config, checkpoint, metadata, new_versions)


@contextlib.asynccontextmanager
async def open_checkpointer(path: Path) -> AsyncIterator[RunCheckpointer]:
    """The run's SQLite checkpointer, in WAL mode with ``synchronous=NORMAL``.

    WAL with ``synchronous=NORMAL`` never corrupts the database and loses no
    committed transaction when the *process* dies (``kill -9``); only an OS
    crash or power cut may lose the last ones (SQLite, "Write-Ahead
    Logging", section 1). It cut the per-task cost of orchestration about in
    half in ``make bench``.

    Args:
        path: The database file (created if missing).

    Yields:
        The checkpointer, closed on exit.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(_wal_file, path)
    async with aiosqlite.connect(str(path), timeout=30) as conn:
        await conn.execute("PRAGMA synchronous=NORMAL")
        yield RunCheckpointer(conn)


def _wal_file(path: Path) -> None:
    """Put the checkpoint file in WAL mode; several runs may open it at once."""
    import sqlite3

    from reportgen.store import sqlite_wal

    conn = sqlite3.connect(str(path), timeout=30)
    try:
        sqlite_wal(conn)
    finally:
        conn.close()


async def resume_report(report_id: str, *, settings: Settings | None = None, **kwargs: Any) -> RunResult:
    """Continue an interrupted run (or return a finished one) by its report id.

    The run's options and output folder come from its record in the data
    dir; finished tasks are reused from their checkpoints.

    Args:
        report_id: The id printed when the run started (its output folder name).
        settings: Settings; default :func:`get_settings`.
        **kwargs: Passed to :func:`generate_report` (progress callbacks, hooks).

    Raises:
        UnknownReportError: No run with that id is recorded.
        RunLockedError: Another process is running it now.
    """
    settings = settings or get_settings()
    record = load_record(settings, report_id)
    return await generate_report(
        record.options, settings=settings, out_dir=record.out_dir, report_id=report_id, **kwargs
    )
