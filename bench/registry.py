"""The benchmark registry: which benchmarks ``python -m bench`` runs, in order.

A benchmark is a module with a ``run()`` function that takes no required
argument and returns a list of :class:`~bench.rows.Row`. To add one, write
the module and add a :class:`Benchmark` line to :data:`BENCHMARKS`.

A registered module that does not exist yet is a *hook*: it shows as one
"not yet measured" row (``pending`` says what will go there) until the
module lands — never as made-up numbers.
"""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bench.rows import Row

__all__ = ["BENCHMARKS", "Benchmark", "run_benchmarks"]


@dataclass(frozen=True)
class Benchmark:
    """One registered benchmark.

    Attributes:
        name: Short name (``--only`` selects by it; also the rows' group).
        module: Dotted path of the module whose ``run()`` returns the rows.
        title: What it measures, for people.
        pending: For a hook whose module does not exist yet: the row to show
            meanwhile (e.g. ``"fault-tolerance completeness (issue 5)"``).
    """

    name: str
    module: str
    title: str
    pending: str = ""


#: Every benchmark, in the order the table shows them.
BENCHMARKS: list[Benchmark] = [
    Benchmark("scheduling", "bench.scheduling",
              "makespan vs critical path and vs a level-by-level executor"),
    Benchmark("overhead", "bench.overhead",
              "orchestration cost per task with zero-latency tools, and its growth"),
    Benchmark("rendering", "bench.rendering",
              "HTML → PDF, ours vs headless Chromium; peak memory"),
    Benchmark("start-up", "bench.startup",
              "how soon the reportgen command answers (--help, a refused report, graph, plugins)"),
    Benchmark("end to end", "bench.end_to_end",
              "reportgen report 'Renewable energy', offline, extractive"),
    Benchmark("model mode", "bench.model_mode",
              "a model-mode report against a scripted endpoint answering in 1–4 s, vs its critical path"),
    Benchmark("fault tolerance", "bench.fault_tolerance",
              "report completeness under injected tool faults, recovery on vs off"),
    Benchmark("scale", "bench.scale",
              "a batch of model-mode reports on 1 and 3 Celery workers (PostgreSQL, Redis): throughput, queue wait"),
]


def run_benchmarks(benchmarks: Iterable[Benchmark] = BENCHMARKS, *,
                   on_start: Callable[[Benchmark], None] | None = None,
                   ) -> tuple[list[Row], dict[str, float]]:
    """Run the benchmarks in order; a failing one becomes an ``error`` row, not a crash.

    Args:
        benchmarks: What to run.
        on_start: Called before each benchmark (progress display).

    Returns:
        ``(rows, seconds per benchmark)``.
    """
    rows: list[Row] = []
    seconds: dict[str, float] = {}
    for bench in benchmarks:
        if on_start is not None:
            on_start(bench)
        started = time.perf_counter()
        try:
            module = importlib.import_module(bench.module)
        except ModuleNotFoundError as exc:
            if not bench.pending or exc.name != bench.module:
                raise
            rows.append(Row(group=bench.name, name=bench.pending, status="not measured",
                            note=f"not yet measured: {bench.module} does not exist yet"))
            continue
        try:
            rows.extend(module.run())
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            rows.append(Row(group=bench.name, name=bench.title, status="error",
                            note=f"{type(exc).__name__}: {exc}",
                            details={"traceback": traceback.format_exc()}))
        seconds[bench.name] = time.perf_counter() - started
    return rows, seconds
