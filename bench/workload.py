"""Synthetic execution blueprints, fake tools with seeded latencies, and their limits.

The scheduling and overhead benchmarks run *real* blueprints through the real
:class:`~reportgen.dispatch.Dispatcher` and task graph; only the tools are
fake. :class:`SleepAgent` (the bench's own copy of the one in ``tests/fakes.py``)
sleeps for the latency drawn for each task and records when it ran.

The shape of :func:`report_blueprint` is the extractive planner's
(``reportgen/blueprint/planner.py``): an overview search, then per section
``research → chart → write`` (the write also reads the research notes, the
chart is optional), then an introduction and a conclusion that read the
overview and every section.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportgen.acp import MessageLog
from reportgen.agents.runtime import Brain, RunContext
from reportgen.blueprint.model import Blueprint, Task, TaskInput
from reportgen.sources.models import Passage

__all__ = [
    "AGENT_NAMES",
    "NoSearch",
    "SleepAgent",
    "critical_path",
    "dependency_levels",
    "draw_latencies",
    "make_agents",
    "make_context",
    "report_blueprint",
    "sized_blueprint",
    "total_work",
]

#: The agents the task graph routes to (``reportgen.graph.build_task_graph``).
AGENT_NAMES = ("browser", "plot", "writer")

#: Base latency ranges per task kind, in seconds: tens of milliseconds, so a
#: whole scheduling run stays around a second.
BASE_LATENCY_S: Mapping[str, tuple[float, float]] = {
    "research": (0.030, 0.060),
    "chart": (0.015, 0.030),
    "write": (0.020, 0.040),
    "introduction": (0.020, 0.040),
    "conclusion": (0.020, 0.040),
}

#: Share of tasks made slow, and how much slower they are than their base.
SLOW_SHARE = 0.25
SLOW_FACTOR = (5.0, 10.0)


class NoSearch:
    """A search backend that finds nothing (the fake tools never search)."""

    name = "no corpus"

    def search(self, query: str, k: int = 10) -> list[Passage]:
        """Return no passage."""
        return []


class SleepAgent(Brain):
    """An agent whose tool sleeps for ``latency[task.id]`` seconds.

    Args:
        name: Agent name (``"browser"``, ``"plot"`` or ``"writer"``).
        latency: Seconds each task's tool call takes, by task id (0 when absent).
        record: Receives ``task_id -> (start, end)`` in :func:`time.perf_counter` seconds.
    """

    def __init__(self, name: str, latency: Mapping[str, float],
                 record: dict[str, tuple[float, float]] | None = None) -> None:
        self.name = name
        self.tool = f"sleep-{name}"
        self.latency = latency
        self.record = record if record is not None else {}

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        """Phase 1: the only parameter is the task id."""
        return {"task_id": task.id}

    def call(self, params: dict[str, Any], ctx: RunContext) -> Any:
        """Phase 2: sleep for the task's latency (in a worker thread, as real tools run)."""
        start = time.perf_counter()
        delay = self.latency.get(params["task_id"], 0.0)
        if delay > 0:
            time.sleep(delay)
        self.record[params["task_id"]] = (start, time.perf_counter())
        return params["task_id"]

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        """Phase 3: one short string per declared output."""
        return {name: f"{raw}.{name}" for name in task.outputs}


def make_agents(latency: Mapping[str, float],
                record: dict[str, tuple[float, float]] | None = None) -> dict[str, Brain]:
    """One :class:`SleepAgent` per agent name, sharing ``latency`` and ``record``."""
    record = record if record is not None else {}
    return {name: SleepAgent(name, latency, record) for name in AGENT_NAMES}


def make_context(folder: Path) -> RunContext:
    """A run context logging to ``folder/messages.jsonl`` (the real message log)."""
    return RunContext(topic="Benchmark", lang="en", search=NoSearch(),
                      log=MessageLog(Path(folder) / "messages.jsonl"), backoff_scale=0.0)


def report_blueprint(sections: int, *, extra_research: int = 0, report_id: str = "bench") -> Blueprint:
    """A report-shaped blueprint of ``3 × sections + 3 + extra_research`` tasks.

    Args:
        sections: Body sections, each ``research-n → chart-n → write-n``.
        extra_research: Additional independent research tasks that the
            introduction waits for (to reach an exact task count).
        report_id: The blueprint's report id.

    Returns:
        The blueprint: ``research-overview``, the sections, the extras,
        ``introduction`` and ``conclusion``.
    """
    tasks = [Task(id="research-overview", agent="browser", kind="research", aim="overview",
                  inputs={"query": TaskInput(value="topic")}, outputs=["notes"])]
    for n in range(1, sections + 1):
        tasks += [
            Task(id=f"research-{n}", agent="browser", kind="research", aim=f"research {n}",
                 section=f"s{n}", inputs={"query": TaskInput(value=f"theme {n}")}, outputs=["notes"]),
            Task(id=f"chart-{n}", agent="plot", kind="chart", aim=f"chart {n}", section=f"s{n}",
                 inputs={"notes": TaskInput(from_task=f"research-{n}", output="notes")},
                 outputs=["chart"]),
            Task(id=f"write-{n}", agent="writer", kind="write", aim=f"write {n}", section=f"s{n}",
                 inputs={"notes": TaskInput(from_task=f"research-{n}", output="notes"),
                         "chart": TaskInput(from_task=f"chart-{n}", output="chart", optional=True)},
                 outputs=["section"]),
        ]
    extras = [f"research-extra-{k}" for k in range(1, extra_research + 1)]
    tasks += [Task(id=tid, agent="browser", kind="research", aim="extra research",
                   inputs={"query": TaskInput(value=tid)}, outputs=["notes"]) for tid in extras]
    for kind in ("introduction", "conclusion"):
        tasks.append(Task(
            id=kind, agent="writer", kind=kind, aim=kind, section=kind,
            inputs={"notes": TaskInput(from_task="research-overview", output="notes"),
                    **{f"section_{n}": TaskInput(from_task=f"write-{n}", output="section", optional=True)
                       for n in range(1, sections + 1)}},
            depends_on=extras if kind == "introduction" else [],
            outputs=["section"],
        ))
    return Blueprint(report_id=report_id, topic="Benchmark", tasks=tasks)


def sized_blueprint(n_tasks: int, *, report_id: str = "bench") -> Blueprint:
    """A report-shaped blueprint of exactly ``n_tasks`` tasks (at least 3).

    Raises:
        ValueError: ``n_tasks`` < 3.
    """
    if n_tasks < 3:
        raise ValueError("a report blueprint has at least 3 tasks (overview, introduction, conclusion)")
    sections, extra = divmod(n_tasks - 3, 3)
    return report_blueprint(sections, extra_research=extra, report_id=report_id)


def draw_latencies(blueprint: Blueprint, seed: int) -> dict[str, float]:
    """Seeded, heterogeneous tool latencies for every task of ``blueprint``.

    Each task draws a base latency from :data:`BASE_LATENCY_S` for its kind;
    a seeded :data:`SLOW_SHARE` of the tasks is then made 5–10× slower.

    Returns:
        Seconds per task id.
    """
    rng = random.Random(seed)
    latency: dict[str, float] = {}
    for task in blueprint.tasks:
        low, high = BASE_LATENCY_S.get(task.kind, (0.020, 0.040))
        value = rng.uniform(low, high)
        if rng.random() < SLOW_SHARE:
            value *= rng.uniform(*SLOW_FACTOR)
        latency[task.id] = value
    return latency


def critical_path(blueprint: Blueprint, latency: Mapping[str, float]) -> tuple[float, list[str]]:
    """The longest dependency chain, weighted by latency: the makespan with unlimited workers.

    Args:
        blueprint: A valid (acyclic) blueprint.
        latency: Seconds per task id (0 when absent).

    Returns:
        ``(length in seconds, task ids along the path, first to last)``.
    """
    order = blueprint.validate_dag(AGENT_NAMES)
    by_id = {t.id: t for t in blueprint.tasks}
    finish: dict[str, float] = {}
    via: dict[str, str | None] = {}
    for tid in order:
        deps = by_id[tid].dependencies
        before = max(deps, key=lambda d: finish[d]) if deps else None
        finish[tid] = (finish[before] if before else 0.0) + latency.get(tid, 0.0)
        via[tid] = before
    if not finish:
        return 0.0, []
    last: str | None = max(finish, key=lambda t: finish[t])
    length = finish[last]
    path: list[str] = []
    while last is not None:
        path.append(last)
        last = via[last]
    return length, path[::-1]


def total_work(latency: Mapping[str, float]) -> float:
    """Sum of all task latencies, in seconds (the makespan on one worker)."""
    return sum(latency.values())


def dependency_levels(blueprint: Blueprint) -> list[list[Task]]:
    """Tasks grouped by depth: level 0 has no dependency, level k waits for level k-1.

    The grouping a level-by-level executor runs (``asyncio.gather`` per level).
    """
    by_id = {t.id: t for t in blueprint.tasks}
    depth: dict[str, int] = {}
    for tid in blueprint.validate_dag(AGENT_NAMES):
        deps = by_id[tid].dependencies
        depth[tid] = 1 + max(depth[d] for d in deps) if deps else 0
    levels: list[list[Task]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for task in blueprint.tasks:
        levels[depth[task.id]].append(task)
    return levels
