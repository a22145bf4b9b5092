"""The report graph's node functions and the run-scoped :class:`Pipeline` context."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypedDict

from langgraph.runtime import Runtime

from reportgen.acp import StatusUpdate
from reportgen.agents.nodes import TaskGraph
from reportgen.agents.runtime import RunContext
from reportgen.blueprint.model import Blueprint
from reportgen.blueprint.model_planner import plan_with_model
from reportgen.blueprint.planner import plan_extractive
from reportgen.config import RunOptions, Settings
from reportgen.coordinate import coordinate
from reportgen.dispatch import Dispatcher
from reportgen.report import Limitation, Report

if TYPE_CHECKING:
    from reportgen.agents.registry import Registry

__all__ = [
    "BLUEPRINT_SAVE_INTERVAL_S",
    "BlueprintSaver",
    "Pipeline",
    "brains_used",
    "ReportState",
    "SAVE_COST_FACTOR",
    "coordinate_node",
    "dispatch_node",
    "plan_node",
    "render_node",
]

#: Least time between two writes of ``blueprint.json`` during dispatch, in seconds.
BLUEPRINT_SAVE_INTERVAL_S = 0.5
#: The interval between two ``blueprint.json`` saves is at least this many times the last save's duration.
SAVE_COST_FACTOR = 20.0



class ReportState(TypedDict, total=False):
    """Checkpointed state of the report graph.

    Attributes:
        report_id: The report id (also the checkpoint thread id).
        blueprint: The execution blueprint (``Blueprint.model_dump(mode="json")``).
        outputs: ``{task_id: {output: value}}`` of the tasks that succeeded.
        report: The coordinated report (``Report.model_dump(mode="json")``).
        files: Written output files by name.
        timings: Seconds per stage (``plan``, ``dispatch``, ``research``,
            ``charts``, ``write``, ``coordinate``, ``json``, ``html``, ``pdf``);
            ``research`` / ``charts`` / ``write`` are the summed times of the
            research (and other gathering), chart and writing tasks (they
            overlap in wall time).
        review: The plan review, one line per answer (the appendix shows it).
        sources: With plan review: the documents each section's search finds, by section id.
    """

    report_id: str
    blueprint: dict[str, Any]
    outputs: dict[str, dict[str, Any]]
    report: dict[str, Any]
    files: dict[str, str]
    timings: dict[str, float]
    review: list[str]
    sources: dict[str, list[dict[str, str]]]


@dataclass
class Pipeline:
    """Run-scoped objects of one report run (not checkpointed; rebuilt on resume).

    Attributes:
        options: What the run was asked for.
        report_id: The report id.
        out_dir: The report's folder, ``<out>/<report-id>``.
        run: Context handed to every agent (search, message log, budgets).
        task_graph: The compiled task graph (sharing the checkpointer).
        corpora: Display names of the corpora searched.
        limitations: Run-wide limitations known before dispatch (unreadable files).
        max_concurrency: Most tasks in flight at once.
        on_blueprint: Called whenever task states change (progress display).
        agents: The run's agents by name, brains bound (blueprint validation,
            the brains recorded in ``report.json``).
        registry: The agent registry (the planner's choice of agents).
        template_dir: User templates overriding the built-in ones.
        cancel: When set, dispatch starts no new task and the run stops with
            :class:`~reportgen.errors.RunCanceled` at the next task boundary.
        settings: The run's settings (model pricing for the cost estimate).
        review: Stop after planning until a reviewer answers (:mod:`reportgen.review`).
    """

    options: RunOptions
    report_id: str
    out_dir: Path
    run: RunContext
    task_graph: TaskGraph
    corpora: list[str]
    limitations: list[Limitation] = field(default_factory=list)
    max_concurrency: int = 8
    on_blueprint: Callable[[Blueprint], None] | None = None
    agents: Mapping[str, Any] = field(default_factory=dict)
    registry: Registry | None = None
    template_dir: Path | None = None
    cancel: asyncio.Event | None = None
    settings: Settings | None = None
    review: bool = False
    _saver: "BlueprintSaver | None" = field(default=None, repr=False)

    def save_blueprint(self, blueprint: Blueprint, *, force: bool = False) -> None:
        """Notify the progress display and save ``blueprint.json`` (throttled, see :class:`BlueprintSaver`)."""
        if self._saver is None:
            self._saver = BlueprintSaver(self.out_dir / "blueprint.json")
        self._saver(blueprint, force=force)
        if self.on_blueprint:
            self.on_blueprint(blueprint)


class BlueprintSaver:
    """Writes ``blueprint.json`` at most every ``interval_s`` seconds, and always when forced.

    Rewriting the whole file on every task event made the per-task cost grow
    with the blueprint (``make bench``); the file is a view for people (the
    checkpoints are what resume uses), so a short lag is harmless. A save
    costs time proportional to the blueprint, so the interval also stretches
    to :data:`SAVE_COST_FACTOR` times the last save's duration: saving never
    takes more than about 5 % of the run, whatever its size (issue 15: the
    per-task cost stays flat from 50 to 800 tasks).

    Args:
        path: The ``blueprint.json`` file (its folder is created on first save).
        interval_s: Least time between two writes, in seconds.
    """

    def __init__(self, path: Path, interval_s: float = BLUEPRINT_SAVE_INTERVAL_S) -> None:
        self.path = Path(path)
        self.interval_s = interval_s
        self._saved_at = float("-inf")
        self._cost_s = 0.0

    def __call__(self, blueprint: Blueprint, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._saved_at >= max(self.interval_s, SAVE_COST_FACTOR * self._cost_s):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            blueprint.save(self.path)
            self._saved_at = time.monotonic()
            self._cost_s = self._saved_at - now


def _timed(state: ReportState, **stages: float) -> dict[str, float]:
    return {**(state.get("timings") or {}), **{k: round(v, 4) for k, v in stages.items()}}


#: The stage timing a task's kind counts towards (``ReportState.timings``); other kinds count as research.
_STAGE_OF_KIND = {"chart": "charts", "write": "write", "introduction": "write", "conclusion": "write"}


def _kinds(agents: Mapping[str, Any]) -> dict[str, list[str]]:
    """Task kinds of each agent, for :meth:`Blueprint.validate_dag`."""
    return {name: list(getattr(agent, "kinds", ()) or ()) for name, agent in agents.items()}


def brains_used(p: Pipeline) -> dict[str, dict[str, Any]]:
    """Which brain and model each agent (and the planner) used, for ``report.json``."""
    llm = p.run.llm
    planner_model = llm.model_name("planner") if llm is not None and llm.has_model("planner") else None
    out: dict[str, dict[str, Any]] = {
        "planner": {"brain": "planner.model" if planner_model else "planner.extractive",
                    "mode": "model" if planner_model else "extractive", "model": planner_model, "role": "planner"},
    }
    for name, agent in p.agents.items():
        describe = getattr(agent, "describe", None)
        if describe is not None:
            out[name] = describe()
    return out


def plan_node(state: ReportState, runtime: Runtime[Pipeline]) -> dict[str, Any]:
    """Plan the report and validate the execution blueprint.

    Raises:
        NoSourcesError: The corpora know nothing of the topic.
        BlueprintError: The compiled blueprint is invalid.
    """
    p = runtime.context
    started = time.perf_counter()
    if p.run.llm is not None and p.run.llm.has_model("planner"):
        blueprint = plan_with_model(p.report_id, p.options, p.run.llm, p.run.search, p.run.log, registry=p.registry)
    else:
        blueprint = plan_extractive(p.report_id, p.options, p.run.search, registry=p.registry)
    blueprint.validate_dag(_kinds(p.agents))
    p.save_blueprint(blueprint, force=True)
    p.run.log.append(
        StatusUpdate(task_id="plan", agent="planner", status="done",
                     detail=f"{len(blueprint.tasks)} tasks planned")
    )
    if p.review:  # the reviewer sees what each section's search finds
        from reportgen.review import preview_sources

        found = {"sources": preview_sources(blueprint, p.run.search)}
    else:
        found = {}
    return {
        "blueprint": blueprint.model_dump(mode="json"),
        "outputs": {},
        "timings": _timed(state, plan=time.perf_counter() - started),
        **found,
    }


async def dispatch_node(state: ReportState, runtime: Runtime[Pipeline]) -> dict[str, Any]:
    """Run every task of the blueprint, resuming finished ones from their checkpoints."""
    p = runtime.context
    started = time.perf_counter()
    blueprint = Blueprint.model_validate(state["blueprint"])
    dispatcher = Dispatcher(
        blueprint, p.task_graph, p.run, max_concurrency=p.max_concurrency,
        on_change=p.save_blueprint, cancel=p.cancel, agents=_kinds(p.agents),
    )
    try:
        outputs = await dispatcher.run(state.get("outputs") or {})
    finally:
        p.save_blueprint(blueprint, force=True)
    per_agent = {"research": 0.0, "charts": 0.0, "write": 0.0}
    for task in blueprint.tasks:
        if task.duration_s is not None:
            per_agent[_STAGE_OF_KIND.get(task.kind, "research")] += task.duration_s
    return {
        "blueprint": blueprint.model_dump(mode="json"),
        "outputs": outputs,
        "timings": _timed(state, dispatch=time.perf_counter() - started, **per_agent),
    }


def coordinate_node(state: ReportState, runtime: Runtime[Pipeline]) -> dict[str, Any]:
    """Assemble sections, figures, citations and limitations into the report.

    Raises:
        RunError: Nothing useful could be produced.
    """
    p = runtime.context
    started = time.perf_counter()
    blueprint = Blueprint.model_validate(state["blueprint"])
    llm = p.run.llm
    report = coordinate(
        blueprint, state["outputs"], lang=p.options.lang, corpora=p.corpora,
        extra_limitations=p.limitations,
        model=llm.describe() if llm is not None else None,
        usage=llm.usage.as_dict(p.settings or llm.settings) if llm is not None else None,
        brains=brains_used(p),
    )
    return {
        "report": report.model_dump(mode="json"),
        "timings": _timed(state, coordinate=time.perf_counter() - started),
    }


def render_node(state: ReportState, runtime: Runtime[Pipeline]) -> dict[str, Any]:
    """Write the report files (JSON, HTML, PDF, Markdown, DOCX), each atomically.

    Raises:
        RenderError: The HTML or PDF could not be produced.
    """
    from reportgen.render import output_files, write_report_files  # Jinja, WeasyPrint...: this stage only
    from reportgen.render.appendix import PLAN_REVIEW

    p = runtime.context
    report = Report.model_validate(state["report"])
    exporters = list(p.registry.exporters.values()) if p.registry is not None else None
    reviewed = PLAN_REVIEW.set(tuple(state.get("review") or ()))  # the appendix shows the plan review
    try:
        stages = write_report_files(
            report, p.out_dir, template_dir=p.template_dir or p.options.template_dir,
            template=p.options.template, appendix=p.options.appendix,
            blueprint=Blueprint.model_validate(state["blueprint"]), exporters=exporters,
        )
    finally:
        PLAN_REVIEW.reset(reviewed)
    p.run.log.append(StatusUpdate(task_id="render", agent="renderer", status="done",
                                  detail=", ".join(sorted(stages)) + " written"))
    return {
        "files": {name: str(p.out_dir / name) for name in output_files(exporters or [])},
        "timings": _timed(state, **stages),
    }

