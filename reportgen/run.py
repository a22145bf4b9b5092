"""Running a report end to end: the API the CLI (and later the HTTP service) calls."""

from __future__ import annotations

import asyncio
import re
import secrets
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from reportgen.acp import MessageLog
from reportgen.agents.runtime import RunContext
from reportgen.blueprint.model import Blueprint, Task
from reportgen.config import RunOptions, Settings, get_settings
from reportgen.graph import AGENTS, build_report_graph, build_task_graph
from reportgen.pipeline import OUTPUT_FILES, Pipeline
from reportgen.report import Limitation, Report
from reportgen.sources import MultiSearch, open_backends

__all__ = ["RunResult", "corpus_title", "generate_report", "new_report_id"]

#: Longest topic-derived part of a report id, in characters.
SLUG_CHARS = 32


def new_report_id(topic: str, out_dir: Path | None = None) -> str:
    """Make a short, unique report id that is safe on every file system.

    The id is an ASCII slug of the topic (accents folded, other scripts
    dropped; ``"report"`` when nothing is left), cut to :data:`SLUG_CHARS`
    characters, plus 6 random hex digits: ``"renewable-energy-3f9a2c"``. It is
    never the raw user text, holds only ``[a-z0-9-]``, and is at most 39
    characters long.

    Args:
        topic: The report topic, in any script.
        out_dir: When given, ids already present there are avoided.

    Returns:
        The id.
    """
    ascii_text = unicodedata.normalize("NFKD", topic).encode("ascii", "ignore").decode()
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
    tool_hook: Callable[[str, Task], None] | None = None,
    recovery: bool = True,
    backoff_scale: float = 1.0,
    search: Any = None,
    on_message: Callable[[Any], None] | None = None,
    cancel: asyncio.Event | None = None,
    template_dir: Path | None = None,
) -> RunResult:
    """Plan, research, chart, write, coordinate and render one report.

    Args:
        options: Topic, language, sections and corpora.
        settings: Settings; default :func:`get_settings`. ``out_dir`` beats
            ``settings.out_dir``.
        out_dir: Folder that receives ``<report-id>/``.
        report_id: Resume or name this id; default a new id.
        on_blueprint: Called on every task state change (progress display).
        tool_hook: Fault-injection hook called before each tool call (tests).
        recovery: Route errors to the recovery node (``False`` = ablation).
        backoff_scale: Multiplier on retry delays (0 in tests).
        search: A search backend to use instead of the configured corpora (tests).
        on_message: Called with every ACP message as it is logged (live progress).
        cancel: Set it to stop the run at the next task boundary.
        template_dir: User templates overriding the built-in ones.

    Returns:
        The run's result; the five files are in ``out_dir / report_id``.

    Raises:
        InputError: A corpus folder is missing or empty.
        NoSourcesError: The corpora know nothing of the topic.
        RunError: No section could be written.
        RunCanceled: ``cancel`` was set before the run finished.
        RenderError: The HTML or PDF could not be written.
    """
    settings = settings or get_settings()
    hooks = _Hooks(on_blueprint, tool_hook, on_message, cancel, template_dir, recovery, backoff_scale)
    if search is not None:
        return await _run(options, settings, out_dir, report_id, search, [search.name], [], hooks)
    with open_backends(options) as sources:
        skipped = [Limitation(reason=f"{f.path}: not used ({f.reason})") for f in sources.skipped]
        corpora = [corpus_title(b.name, options) for b in sources.backends]
        multi = MultiSearch(sources.backends, name=" + ".join(b.name for b in sources.backends))
        return await _run(options, settings, out_dir, report_id, multi, corpora, skipped, hooks)


@dataclass
class _Hooks:
    on_blueprint: Callable[[Blueprint], None] | None
    tool_hook: Callable[[str, Task], None] | None
    on_message: Callable[[Any], None] | None
    cancel: asyncio.Event | None
    template_dir: Path | None
    recovery: bool
    backoff_scale: float


def corpus_title(name: str, options: RunOptions) -> str:
    """A reader-facing name of a corpus, for the report's mode note."""
    lang_names = {"en": "English", "es": "Spanish", "fr": "French"}
    if name.startswith("wikipedia-"):
        lang = name.removeprefix("wikipedia-")
        return f"Wikipedia's vital-article summaries ({lang_names.get(lang, lang)}, offline copy, CC BY-SA 4.0)"
    if name.startswith("local:"):
        return f"the documents in the folder {name.removeprefix('local:')!r}"
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
    log = MessageLog(folder / "messages.jsonl")
    if hooks.on_message is not None:
        log.subscribe(hooks.on_message)
    ctx = RunContext(
        topic=options.topic, lang=options.lang, search=search, log=log,
        task_attempts=settings.task_attempts, tool_hook=hooks.tool_hook,
        recovery=hooks.recovery, backoff_scale=hooks.backoff_scale,
    )
    settings.home.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(settings.checkpoint_db)) as saver:
        pipeline = Pipeline(
            options=options, report_id=report_id, out_dir=folder, run=ctx,
            task_graph=build_task_graph(saver), corpora=corpora, limitations=skipped,
            max_concurrency=settings.max_concurrency, on_blueprint=hooks.on_blueprint,
            agents=tuple(AGENTS), template_dir=hooks.template_dir, cancel=hooks.cancel,
        )
        graph = build_report_graph(saver)
        state = await graph.ainvoke(
            {"report_id": report_id},
            {"configurable": {"thread_id": report_id}},
            context=pipeline,
        )
    return RunResult(
        report_id=report_id,
        out_dir=folder,
        report=Report.model_validate(state["report"]),
        blueprint=Blueprint.model_validate(state["blueprint"]),
        files={name: folder / name for name in OUTPUT_FILES},
        timings=dict(state.get("timings") or {}),
    )
