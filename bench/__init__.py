"""``make bench``: the scheduler, orchestration overhead, PDF rendering and the end-to-end run, measured.

Every figure is printed beside a reference measured in the same run (the
critical path, a level-by-level executor, Chromium, ...) because the machines
are shared and noisy; the goals of issue 3 are benchmark targets, shown as
PASS / MISS, never timed tests.

Modules:
    registry: the list of benchmarks ``python -m bench`` runs (and the hook
        for ones still to come).
    rows: :class:`Row` (a figure, its reference, a target) and :class:`Target`.
    report: the rich table and ``bench/results.json``.
    workload: synthetic blueprints, fake tools, critical path, levels.
    executors: the real dispatcher and the level-by-level baseline.
    scheduling, overhead, rendering, end_to_end: the benchmarks.
    process: wall time and peak memory of a child process.
    pdf_child, e2e_child: what those child processes run.

This package imports nothing heavy at import time, so its child processes
start as fast as the code they measure.
"""

from bench.registry import BENCHMARKS, Benchmark, run_benchmarks
from bench.rows import Row, Target

__all__ = ["BENCHMARKS", "Benchmark", "Row", "Target", "run_benchmarks"]
