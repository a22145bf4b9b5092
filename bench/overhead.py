"""Orchestration overhead: milliseconds per task with zero-latency tools, and its growth.

Report-shaped blueprints of exactly 50, 200 and 800 tasks whose tools return
at once, so all the time is orchestration: the dispatcher, one task-graph
invocation per task with the SQLite checkpointer (``AsyncSqliteSaver`` in a
temp dir), and the ``messages.jsonl`` log. Two configurations, same run:

* **as the pipeline runs it** — the dispatcher's ``on_change`` saves
  ``blueprint.json`` as the pipeline does (throttled, ``BlueprintSaver``);
* **dispatcher alone** — no ``on_change``; the reference.

The concurrency cap is the product default (``REPORTGEN_MAX_CONCURRENCY`` = 8).
Figures are medians of a few repeats after one warm-up run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from statistics import median

from bench.executors import execute
from bench.process import fsync_latency_ms
from bench.rows import Row, Target
from bench.workload import sized_blueprint
from reportgen.config import Settings

__all__ = ["GROWTH_TARGET", "PER_TASK_TARGET", "ms_per_task", "run"]

#: At most 10 ms of orchestration per task (issue 3).
PER_TASK_TARGET = Target("<=", 10.0, on="value", unit="ms")
#: Per-task cost at the largest size within 1.2× of the smallest: flat (issue 15; 1.5× in issue 3).
GROWTH_TARGET = Target("<=", 1.2)


def ms_per_task(n_tasks: int, *, repeats: int, save_blueprint: bool, cap: int,
                cpu: list[float] | None = None) -> list[float]:
    """Run a zero-latency blueprint of ``n_tasks`` tasks ``repeats`` times.

    Args:
        n_tasks: Tasks in the blueprint.
        repeats: Runs.
        save_blueprint: Save ``blueprint.json`` as the pipeline does.
        cap: Concurrency cap.
        cpu: Receives the process CPU time per task of each run, in ms (every
            thread: the loop, the tool threads, SQLite's), which a machine
            busy with other work inflates far less than wall time.

    Returns:
        Milliseconds of wall time per task, one figure per repeat.

    Raises:
        RuntimeError: A task did not finish ``done``.
    """
    out = []
    for _ in range(repeats):
        started = time.process_time()
        executed = execute("dispatcher", sized_blueprint(n_tasks), {}, max_concurrency=cap,
                           checkpointer="sqlite", save_blueprint=save_blueprint)
        if cpu is not None:
            cpu.append(1000.0 * (time.process_time() - started) / n_tasks)
        if executed.done != executed.tasks:
            raise RuntimeError(f"only {executed.done} of {executed.tasks} tasks finished")
        out.append(1000.0 * executed.makespan_s / n_tasks)
    return out


def _repeats(n_tasks: int) -> int:
    """More repeats for small blueprints, whose single runs are noisier (≈ 400 tasks per size)."""
    return max(1, min(5, 400 // n_tasks))


def run(sizes: Sequence[int] = (50, 200, 800), cap: int | None = None,
        repeats: int | None = None) -> list[Row]:
    """The overhead rows: ms per task per size, and growth from the smallest to the largest.

    Args:
        sizes: Blueprint sizes in tasks (each at least 3), smallest first.
        cap: Concurrency cap; default the product's default.
        repeats: Runs per size and configuration; default 5 at 50 tasks, 2 at 200, 1 at 800.

    Returns:
        One row per size, then two growth rows (pipeline, dispatcher alone).
    """
    cap = cap or Settings.model_fields["max_concurrency"].default
    execute("dispatcher", sized_blueprint(min(20, sizes[0])), {}, max_concurrency=cap)  # warm-up
    fsync_ms = fsync_latency_ms()
    pipeline: dict[int, float] = {}
    alone: dict[int, float] = {}
    cpu: dict[int, float] = {}
    rows: list[Row] = []
    for n in sizes:
        times = repeats or _repeats(n)
        cpu_ms: list[float] = []
        with_save = ms_per_task(n, repeats=times, save_blueprint=True, cap=cap, cpu=cpu_ms)
        cpu[n] = median(cpu_ms)
        bare = ms_per_task(n, repeats=times, save_blueprint=False, cap=cap)
        pipeline[n], alone[n] = median(with_save), median(bare)
        rows.append(Row(
            group="overhead", name=f"{n} tasks: orchestration per task",
            value=pipeline[n], unit="ms/task", reference=alone[n],
            reference_name="dispatcher alone",
            ratio=pipeline[n] / alone[n], ratio_name="pipeline / dispatcher alone",
            target=PER_TASK_TARGET,
            note=(f"median of {times}; SQLite checkpoints, blueprint.json saved as the pipeline does, "
                  f"cap {cap}; CPU {cpu[n]:.2f} ms/task; fsync {fsync_ms:.1f} ms in this run"),
            details={"pipeline_ms": with_save, "dispatcher_alone_ms": bare, "cpu_ms": cpu_ms, "cap": cap,
                     "fsync_ms": fsync_ms},
        ))
    small, large = sizes[0], sizes[-1]
    for label, figures in (("pipeline", pipeline), ("dispatcher alone", alone)):
        rows.append(Row(
            group="overhead", name=f"growth {small} → {large} tasks, {label}",
            value=figures[large], unit="ms/task", reference=figures[small],
            reference_name=f"per task at {small}", ratio=figures[large] / figures[small],
            ratio_name=f"per task at {large} / at {small}", target=GROWTH_TARGET,
            note=(f"CPU time per task {cpu[small]:.2f} → {cpu[large]:.2f} ms ({cpu[large] / cpu[small]:.2f}×)"
                  if label == "pipeline" else ""),
        ))
    return rows
