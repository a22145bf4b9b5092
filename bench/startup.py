"""Start-up: how soon the ``reportgen`` command answers (issue 15).

Each command runs in a fresh process (``python -c "from reportgen.cli import
app; app()" ...``, what the ``reportgen`` script does), median of a few runs,
beside a bare interpreter (``python -c pass``) measured in the same run:

* ``--help``;
* a refused report (an empty topic): the error comes before any research;
* ``graph``: the report and task graphs as mermaid (drawn with LangGraph
  once per code, library versions and agents, then printed from the data
  dir's cache: the first run in a fresh data dir is in the note);
* ``plugins``: the agent registry as the agent card is built from it;
* ``card``: the A2A 1.0 agent card.

The targets are absolute (0.3 s, issue 15); the bare interpreter shows how
much of it the machine's own start-up takes in this run. The module budget
that keeps ``--help`` and a refused report light is a test
(``tests/test_startup.py``), not a timing.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from statistics import median

from bench.process import run_measured
from bench.rows import Row, Target

__all__ = ["COMMANDS", "STARTUP_TARGET", "run"]

#: Each command answers within 0.3 s (issue 15).
STARTUP_TARGET = Target("<=", 0.3, on="value", unit="s")

#: (label, arguments, what it shows)
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("reportgen --help", ("--help",)),
    ("reportgen report '' (refused)", ("report", "")),
    ("reportgen graph", ("graph",)),
    ("reportgen plugins (the registry behind the agent card)", ("plugins",)),
    ("reportgen card (the A2A agent card)", ("card",)),
)


def run(repeats: int = 3) -> list[Row]:
    """One row per command: median wall time against a bare interpreter.

    Args:
        repeats: Runs per command; the median is reported.

    Returns:
        The rows.
    """
    root = str(Path(__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory(prefix="reportgen-bench-startup-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("REPORTGEN_")}
        env["REPORTGEN_HOME"] = tmp
        bare_runs = [run_measured([sys.executable, "-c", "pass"], env=env, cwd=root) for _ in range(repeats)]
        bare = median(m.wall_s for m in bare_runs)
        bare_cpu = median(m.cpu_s for m in bare_runs)
        rows = []
        for label, args in COMMANDS:
            cmd = [sys.executable, "-c", "from reportgen.cli import app; app()", *args]
            first = run_measured(cmd, env=env, cwd=root) if args == ("graph",) else None  # fills the cache
            runs = [run_measured(cmd, env=env, cwd=root) for _ in range(repeats)]
            wall = median(m.wall_s for m in runs)
            cpu = median(m.cpu_s for m in runs)
            note = (f"median of {repeats}; exit status {runs[-1].returncode}; CPU {cpu:.2f} s "
                    f"(bare interpreter {bare_cpu:.2f} s)")
            if first is not None:
                note += f"; the first run in a fresh data dir draws with LangGraph: {first.wall_s:.2f} s"
            rows.append(Row(group="start-up", name=label, value=wall, unit="s", reference=bare,
                            reference_name="python -c pass", ratio=wall / bare,
                            ratio_name="command / bare interpreter", target=STARTUP_TARGET, note=note,
                            details={"wall_s": [m.wall_s for m in runs], "cpu_s": [m.cpu_s for m in runs],
                                     "first_wall_s": first.wall_s if first is not None else None}))
    return rows
