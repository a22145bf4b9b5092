"""Child process of the end-to-end benchmark: ``python -m bench.e2e_child TOPIC OUT_DIR [--again]``.

Runs :func:`reportgen.run.generate_report` once, offline and in extractive
mode, with the data dir from ``REPORTGEN_HOME``, and prints one JSON object:
``{"import_s", "run_s", "first_task_s", "timings", "tasks", "sections", "figures", "references"}``.

``first_task_s`` is the time from the process's start (``/proc/self/stat``,
so interpreter start-up is included; the start of :func:`main` where there
is no ``/proc``) to the first task's ``started_at`` in the blueprint. With
``--again`` a second report follows in the same process, as the service's
worker runs them, and ``again_first_task_s`` is the time from that call to
its first task's start.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path


def _process_start() -> float | None:
    """This process's start as a Unix time (Linux ``/proc``; 10 ms resolution), or ``None``."""
    try:
        stat = Path("/proc/self/stat").read_text()
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime"))
    except (OSError, StopIteration, ValueError):
        return None
    ticks = float(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime, after the command name
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def main(argv: list[str]) -> int:
    """Generate one report on ``argv[0]`` into ``argv[1]``."""
    again = "--again" in argv
    argv = [a for a in argv if a != "--again"]
    if len(argv) != 2:
        print("usage: python -m bench.e2e_child TOPIC OUT_DIR [--again]", file=sys.stderr)
        return 2
    born = _process_start() or time.time()
    started = time.perf_counter()
    from reportgen.config import RunOptions
    from reportgen.run import generate_report

    imported = time.perf_counter() - started
    started = time.perf_counter()
    result = asyncio.run(generate_report(RunOptions(topic=argv[0]), out_dir=Path(argv[1])))
    ran = time.perf_counter() - started
    starts = [t.started_at.timestamp() for t in result.blueprint.tasks if t.started_at is not None]
    again_first = None
    if again:
        called = time.time()
        second = asyncio.run(generate_report(RunOptions(topic=argv[0]), out_dir=Path(argv[1])))
        again_first = min(t.started_at.timestamp() for t in second.blueprint.tasks if t.started_at) - called
    print(json.dumps({
        "again_first_task_s": again_first,
        "first_task_s": (min(starts) - born) if starts else None,
        "import_s": imported,
        "run_s": ran,
        "timings": result.timings,
        "tasks": result.blueprint.summary(),
        "sections": len(result.report.sections),
        "figures": len(result.report.figures),
        "references": len(result.report.references),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
