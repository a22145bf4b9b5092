"""Running a blueprint: the real dispatcher, and the level-by-level baseline.

Both executors run every task as one invocation of the real task graph
(:func:`reportgen.graph.build_task_graph`) with the same fake agents, the same
message log and the same checkpointer, so the only difference between them
is *when* a task starts:

* :func:`run_dispatcher` — :class:`reportgen.dispatch.Dispatcher`: a task
  starts as soon as its own dependencies are done;
* :func:`run_levels` — the ACP reference code's strategy: every task of one
  dependency level starts together, the next level only when the whole level
  has finished.

Tools run in worker threads (``asyncio.to_thread`` in the ACP runtime); the
executors size the loop's default thread pool to the concurrency they allow,
so the pool is never the hidden cap (Python's default pool has
``min(32, cpus + 4)`` workers: 6 on a 2-core machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langgraph.checkpoint.memory import InMemorySaver

from bench.workload import dependency_levels, make_agents, make_context
from reportgen.blueprint.model import Blueprint, Task, TaskStatus
from reportgen.dispatch import Dispatcher, task_thread_id
from reportgen.graph import build_task_graph
from reportgen.pipeline import BlueprintSaver
from reportgen.run import open_checkpointer

__all__ = ["Checkpointer", "Executed", "execute", "run_dispatcher", "run_levels"]

Checkpointer = Literal["sqlite", "memory"]


@dataclass
class Executed:
    """One executed blueprint.

    Attributes:
        makespan_s: Wall time from the executor's start to its return, in seconds.
        spans: ``task_id -> (start, end)`` of each tool call (perf-counter seconds).
        done: Tasks that ended ``done``.
        tasks: Tasks in the blueprint.
    """

    makespan_s: float
    spans: dict[str, tuple[float, float]]
    done: int
    tasks: int


@contextlib.asynccontextmanager
async def _saver(kind: Checkpointer, folder: Path) -> AsyncIterator[Any]:
    if kind == "memory":
        yield InMemorySaver()
        return
    async with open_checkpointer(folder / "checkpoints.sqlite") as saver:  # the product's settings
        await saver.setup()  # create the tables before the clock starts
        yield saver


def _use_thread_pool(workers: int) -> ThreadPoolExecutor:
    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="bench-tool")
    asyncio.get_running_loop().set_default_executor(pool)
    return pool


async def run_dispatcher(blueprint: Blueprint, latency: Mapping[str, float], folder: Path, *,
                         max_concurrency: int | None = None,
                         checkpointer: Checkpointer = "sqlite",
                         save_blueprint: bool = False) -> Executed:
    """Run ``blueprint`` with the real :class:`~reportgen.dispatch.Dispatcher`.

    Args:
        blueprint: A fresh blueprint (every task pending); updated in place.
        latency: Tool latency per task id, in seconds.
        folder: An empty folder for the checkpoints and ``messages.jsonl``.
        max_concurrency: Most tasks in flight; ``None`` for as many as there are tasks.
        checkpointer: ``"sqlite"`` (the product's) or ``"memory"``.
        save_blueprint: Save ``blueprint.json`` on task state changes as the
            report pipeline does (throttled by :class:`reportgen.pipeline.BlueprintSaver`).

    Returns:
        The makespan and the tool-call spans.
    """
    cap = max_concurrency or len(blueprint.tasks)
    _use_thread_pool(cap)
    spans: dict[str, tuple[float, float]] = {}
    async with _saver(checkpointer, folder) as saver:
        graph = build_task_graph(saver, make_agents(latency, spans))
        on_change = BlueprintSaver(folder / "blueprint.json") if save_blueprint else None
        dispatcher = Dispatcher(blueprint, graph, make_context(folder), max_concurrency=cap,
                                on_change=on_change)
        started = time.perf_counter()
        await dispatcher.run()
        makespan = time.perf_counter() - started
    done = sum(t.status is TaskStatus.DONE for t in blueprint.tasks)
    return Executed(makespan, spans, done, len(blueprint.tasks))


async def run_levels(blueprint: Blueprint, latency: Mapping[str, float], folder: Path, *,
                     max_concurrency: int | None = None,
                     checkpointer: Checkpointer = "sqlite") -> Executed:
    """Run ``blueprint`` level by level: the baseline the dispatcher is measured against.

    Each level's tasks are started together (at most ``max_concurrency`` at
    once) through the same task graph; the next level starts when every task
    of this one has finished. Arguments and result as :func:`run_dispatcher`.
    """
    cap = max_concurrency or len(blueprint.tasks)
    _use_thread_pool(cap)
    spans: dict[str, tuple[float, float]] = {}
    ctx = make_context(folder)
    outputs: dict[str, dict[str, Any]] = {}
    gate = asyncio.Semaphore(cap)
    levels = dependency_levels(blueprint)
    async with _saver(checkpointer, folder) as saver:
        graph = build_task_graph(saver, make_agents(latency, spans))

        async def run_one(task: Task) -> None:
            inputs = {name: (outputs.get(inp.from_task, {}).get(inp.output) if inp.from_task else inp.value)
                      for name, inp in task.inputs.items()}
            config = {"configurable": {"thread_id": task_thread_id(blueprint.report_id, task.id)}}
            async with gate:
                state = await graph.ainvoke(
                    {"task": task.model_dump(mode="json"), "inputs": inputs, "attempt": 0,
                     "strategy": "default", "tried": [], "codes": []},
                    config, context=ctx, durability="exit",  # as the dispatcher runs tasks
                )
            if state.get("final") == "done":
                task.status = TaskStatus.DONE
                outputs[task.id] = state.get("outputs") or {}
            else:
                task.status = TaskStatus.FAILED

        started = time.perf_counter()
        for level in levels:
            await asyncio.gather(*(run_one(task) for task in level))
        makespan = time.perf_counter() - started
    done = sum(t.status is TaskStatus.DONE for t in blueprint.tasks)
    return Executed(makespan, spans, done, len(blueprint.tasks))


def execute(strategy: Literal["dispatcher", "levels"], blueprint: Blueprint,
            latency: Mapping[str, float], *, max_concurrency: int | None = None,
            checkpointer: Checkpointer = "sqlite", save_blueprint: bool = False) -> Executed:
    """Run one blueprint in a fresh event loop and a fresh temp folder.

    Args:
        strategy: ``"dispatcher"`` (the product) or ``"levels"`` (the baseline).
        blueprint: A fresh blueprint; updated in place.
        latency: Tool latency per task id, in seconds.
        max_concurrency: Most tasks in flight; ``None`` for unlimited.
        checkpointer: ``"sqlite"`` or ``"memory"``.
        save_blueprint: Save ``blueprint.json`` on every change (dispatcher only).

    Returns:
        The executed run.
    """
    with tempfile.TemporaryDirectory(prefix="reportgen-bench-") as tmp:
        if strategy == "dispatcher":
            run = run_dispatcher(blueprint, latency, Path(tmp), max_concurrency=max_concurrency,
                                 checkpointer=checkpointer, save_blueprint=save_blueprint)
        else:
            run = run_levels(blueprint, latency, Path(tmp), max_concurrency=max_concurrency,
                             checkpointer=checkpointer)
        return asyncio.run(run)
