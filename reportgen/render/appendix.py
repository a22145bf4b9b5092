"""The appendix that shows how a report was made, drawn from its blueprint.

Two drawings, after the ACP paper's figures 4 and 5:

* the **execution blueprint** as a graph: one box per task, in columns by
  dependency depth (a task sits one column right of its deepest
  dependency), arrows from each task to the tasks that use its output, boxes
  coloured by outcome;
* a **timeline** (Gantt chart) of the agents' work: one bar per task that
  ran, from its start to its finish, in seconds since the first start.

Outcomes: ``done``, ``degraded`` (done without some optional input),
``failed``, ``skipped``, and ``not run`` (still pending or running: a
canceled or interrupted run).

Drawing follows :mod:`reportgen.charts.draw`: matplotlib's object API only
(``Figure`` + ``FigureCanvasSVG``, never ``pyplot``), text as paths,
deterministic output, and the same module lock, because matplotlib's
rcParams are process-wide and charts are drawn from other threads.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from reportgen.blueprint.model import Blueprint, Task, TaskStatus

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType  # the Literal of rcParams keys; annotations only

__all__ = [
    "AppendixView",
    "OUTCOMES",
    "OUTCOME_COLOURS",
    "build_appendix",
    "outcome",
]

#: Task outcomes in legend order.
OUTCOMES: tuple[str, ...] = ("done", "degraded", "found_nothing", "failed", "skipped", "not_run")

#: Fill colour per outcome (colour-blind-safe hues, Okabe-Ito palette, with
#: grey for tasks that did not run).
OUTCOME_COLOURS: dict[str, str] = {
    "done": "#009E73",
    "degraded": "#E69F00",
    "found_nothing": "#56B4E9",
    "failed": "#D55E00",
    "skipped": "#999999",
    "not_run": "#D9D9D9",
}
_TEXT_ON = {"done": "#ffffff", "degraded": "#1f2328", "found_nothing": "#1f2328", "failed": "#ffffff",
            "skipped": "#ffffff", "not_run": "#1f2328"}

_WIDTH_IN = 6.4
_MAX_HEIGHT_IN = 8.6  # fits an A4 text block with its caption
_INK = "#1f2328"
_MUTED = "#6b7280"
_EDGE = "#9aa4b2"
_HASH_SALT = "reportgen-appendix"


@dataclass(frozen=True, slots=True)
class AppendixView:
    """What the appendix shows.

    Attributes:
        graph_svg: The blueprint graph (standalone SVG, ``width="100%"``).
        timeline_svg: The timeline (standalone SVG), or ``""`` when no task
            has timings.
        total: Number of tasks.
        counts: ``(outcome, n)`` for each outcome that occurs, in
            :data:`OUTCOMES` order.
        not_run: Tasks that have no bar on the timeline.
        review: The plan review, one line per answer (what changed, when,
            which client); empty when the plan was not reviewed.
    """

    graph_svg: str
    timeline_svg: str
    total: int
    counts: tuple[tuple[str, int], ...]
    not_run: int
    review: tuple[str, ...] = ()


#: The plan review of the report being rendered (set by the render stage; see :mod:`reportgen.review`).
PLAN_REVIEW: ContextVar[tuple[str, ...]] = ContextVar("reportgen_plan_review", default=())


def outcome(task: Task, blueprint: Blueprint | None = None) -> str:
    """The outcome a task is drawn with (one of :data:`OUTCOMES`).

    Args:
        task: A task with its final state.
        blueprint: Its blueprint: a failed task that only found nothing to use, the report whole without it,
            is ``"found_nothing"`` (:meth:`~reportgen.blueprint.model.Blueprint.found_nothing`), not
            ``"failed"``, and a task without an input only such a task was to give is ``"done"``, not
            ``"degraded"`` (:meth:`~reportgen.blueprint.model.Blueprint.lacks_input`). Without it, every
            failed task is ``"failed"`` and every task run without an optional input ``"degraded"``.
    """
    if task.status is TaskStatus.DONE:
        lacking = task.degraded if blueprint is None else blueprint.lacks_input(task)
        return "degraded" if lacking else "done"
    if task.status is TaskStatus.FAILED:
        return "found_nothing" if blueprint is not None and blueprint.found_nothing(task) else "failed"
    if task.status is TaskStatus.SKIPPED:
        return "skipped"
    return "not_run"


def build_appendix(blueprint: Blueprint) -> AppendixView | None:
    """Draw the blueprint graph and the timeline.

    Args:
        blueprint: The run's blueprint with final task states.

    Returns:
        The drawings and counts, or ``None`` when the blueprint has no tasks.

    Raises:
        RenderError: matplotlib produced something that is not a
            self-contained SVG (never expected).
    """
    tasks = list(blueprint.tasks)
    if not tasks:
        return None
    states = {t.id: outcome(t, blueprint) for t in tasks}
    counts = Counter(states.values())
    timed = [t for t in tasks if t.started_at is not None]
    return AppendixView(
        graph_svg=_draw_graph(tasks, states),
        timeline_svg=_draw_timeline(timed, states) if timed else "",
        total=len(tasks),
        counts=tuple((name, counts[name]) for name in OUTCOMES if counts[name]),
        not_run=len(tasks) - len(timed),
        review=PLAN_REVIEW.get(),
    )


# ---- layout ---------------------------------------------------------------------


def _ascii(text: str, limit: int = 28) -> str:
    """Labels are drawn with DejaVu Sans: keep to printable ASCII, cut long ones."""
    cleaned = re.sub(r"[^\x20-\x7e]", "?", text)
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def _columns(tasks: list[Task]) -> list[list[Task]]:
    """Tasks grouped by dependency depth, each column ordered to limit crossings."""
    by_id = {t.id: t for t in tasks}
    depth: dict[str, int] = {}

    def visit(task: Task, trail: frozenset[str]) -> int:
        if task.id in depth:
            return depth[task.id]
        parents = [by_id[d] for d in task.dependencies if d in by_id and d not in trail]
        value = 1 + max((visit(p, trail | {task.id}) for p in parents), default=-1)
        depth[task.id] = value
        return value

    for task in tasks:
        visit(task, frozenset())
    columns: list[list[Task]] = [[] for _ in range(max(depth.values()) + 1)]
    for task in tasks:
        columns[depth[task.id]].append(task)
    # Order each column by the mean position of its parents (one barycentre pass).
    position: dict[str, float] = {t.id: float(i) for i, t in enumerate(columns[0])}
    for column in columns[1:]:
        def key(item: tuple[int, Task]) -> tuple[float, int]:
            index, task = item
            rows = [position[d] for d in task.dependencies if d in position]
            return (sum(rows) / len(rows) if rows else float(index), index)

        column[:] = [task for _, task in sorted(enumerate(column), key=key)]
        position.update({t.id: float(i) for i, t in enumerate(column)})
    return columns


# ---- drawing ----------------------------------------------------------------------


def _rc() -> dict[RcKeyType, Any]:
    return {
        "svg.fonttype": "path",
        "svg.hashsalt": _HASH_SALT,
        "font.family": ["DejaVu Sans"],
        "font.size": 8,
        "text.parse_math": False,
        "axes.unicode_minus": False,
        "text.color": _INK,
    }


def _draw_graph(tasks: list[Task], states: dict[str, str]) -> str:
    import matplotlib  # with the drawing, not the module: start-up (issue 15)
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    from reportgen.charts import draw as _charts_draw

    columns = _columns(tasks)
    rows = max(len(column) for column in columns)
    row_in = min(0.3, (_MAX_HEIGHT_IN - 0.6) / rows)
    height = min(_MAX_HEIGHT_IN, max(1.8, rows * row_in + 0.6))
    n_cols = len(columns)
    box_w, box_h = 0.8, 0.62
    label_pt = max(3.5, min(7.5, row_in * 72 * 0.36, 6.4 / n_cols * 72 * 0.8 / 11))
    centre: dict[str, tuple[float, float]] = {}
    for col, column in enumerate(columns):
        offset = (rows - len(column)) / 2
        for row, task in enumerate(column):
            centre[task.id] = (float(col), offset + row)
    with _charts_draw.DRAW_LOCK, matplotlib.rc_context(_rc()):
        fig = Figure(figsize=(_WIDTH_IN, height))
        FigureCanvasSVG(fig)
        ax = fig.add_axes((0.01, 0.01, 0.98, 0.99 - 0.3 / height))
        ax.set_xlim(-0.5, n_cols - 0.5)
        ax.set_ylim(rows - 0.5, -0.5)
        ax.axis("off")
        for task in tasks:
            x1, y1 = centre[task.id]
            for dep in task.dependencies:
                if dep not in centre:
                    continue
                x0, y0 = centre[dep]
                # An edge that skips columns bends, so it does not run under
                # the boxes of the columns it crosses.
                bend = 0.0 if x1 - x0 <= 1 else (-0.25 if y1 <= y0 else 0.25)
                ax.add_patch(FancyArrowPatch(
                    (x0 + box_w / 2, y0), (x1 - box_w / 2, y1),
                    arrowstyle="-|>", mutation_scale=6, color=_EDGE, linewidth=0.6,
                    shrinkA=0, shrinkB=0.5, zorder=1, connectionstyle=f"arc3,rad={bend}",
                ))
        for task in tasks:
            x, y = centre[task.id]
            state = states[task.id]
            ax.add_patch(FancyBboxPatch(
                (x - box_w / 2, y - box_h / 2), box_w, box_h,
                boxstyle="round,pad=0,rounding_size=0.08", facecolor=OUTCOME_COLOURS[state],
                edgecolor="#ffffff", linewidth=0.6, zorder=2,
            ))
            ax.text(x, y, _ascii(task.id), ha="center", va="center", fontsize=label_pt,
                    color=_TEXT_ON[state], zorder=3, clip_on=False)
        _legend(fig, tasks, states)
        svg = _save(fig)
    return _charts_draw.finish_svg(svg, "Execution blueprint: tasks coloured by outcome")


def _draw_timeline(tasks: list[Task], states: dict[str, str]) -> str:
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    from reportgen.charts import draw as _charts_draw

    tasks = sorted(tasks, key=lambda t: (_utc(t.started_at), t.id))
    t0 = _utc(tasks[0].started_at)
    n = len(tasks)
    row_in = min(0.19, (_MAX_HEIGHT_IN - 0.9) / n)
    height = min(_MAX_HEIGHT_IN, max(1.8, n * row_in + 0.9))
    label_pt = max(3.5, min(7.5, row_in * 72 * 0.62))
    starts, lengths = [], []
    for task in tasks:
        start = (_utc(task.started_at) - t0).total_seconds()
        end = (_utc(task.finished_at) - t0).total_seconds() if task.finished_at else start
        starts.append(start)
        lengths.append(max(end - start, 0.0))
    span = max((s + w for s, w in zip(starts, lengths, strict=True)), default=0.0) or 1.0
    with _charts_draw.DRAW_LOCK, matplotlib.rc_context(_rc()):
        fig = Figure(figsize=(_WIDTH_IN, height), layout="constrained")
        FigureCanvasSVG(fig)
        ax = fig.add_subplot()
        ys = list(range(n))
        colours = [OUTCOME_COLOURS[states[t.id]] for t in tasks]
        widths = [max(w, span * 0.004) for w in lengths]
        ax.barh(ys, widths, left=starts, height=0.7, color=colours, zorder=2)
        ax.set_yticks(ys, [_ascii(f"{t.id} ({t.agent})", 40) for t in tasks], fontsize=label_pt)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0, span * 1.02)
        ax.set_xlabel("seconds since the first task started", fontsize=7.5, color=_MUTED)
        ax.tick_params(axis="x", labelsize=7, colors=_MUTED)
        ax.tick_params(axis="y", length=0, colors=_INK)
        ax.grid(axis="x", color="#e5e7eb", linewidth=0.5, zorder=0)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        ax.spines["bottom"].set_color(_MUTED)
        _legend(fig, tasks, states, outside=True)
        svg = _save(fig)
    return _charts_draw.finish_svg(svg, "Timeline of the agents' work")


def _legend(fig: Figure, tasks: list[Task], states: dict[str, str], outside: bool = False) -> None:
    from matplotlib.patches import Patch

    present = {states[t.id] for t in tasks}
    handles = [Patch(facecolor=OUTCOME_COLOURS[name], label=name.replace("_", " "))
               for name in OUTCOMES if name in present]
    if outside:  # above the axes, room made by the constrained layout
        fig.legend(handles=handles, loc="outside upper center", ncols=len(handles),
                   fontsize=7, frameon=False)
    else:
        fig.legend(handles=handles, loc="upper center", ncols=len(handles), fontsize=7,
                   frameon=False, bbox_to_anchor=(0.5, 1.0))


def _save(fig: Figure) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg",
                metadata={"Date": None, "Creator": None, "Type": None, "Format": None})
    return buffer.getvalue().decode("utf-8")


def _utc(moment: datetime | None) -> datetime:
    assert moment is not None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment
