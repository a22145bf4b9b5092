"""Profile of one warm offline report from process start to its first task: ``python -m bench.profile_first_task``.

Not a benchmark row: the tool behind the README's "time to the first task"
notes (issue 15). Needs ``pyinstrument`` (``pip install -e '.[bench]'``).
Run it twice with the same ``REPORTGEN_HOME`` (the first builds the index);
it prints pyinstrument's call tree of everything before the dispatcher
starts the first task: imports, settings, registry, index open, checkpoint
listing, plan.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any


def main(argv: list[str]) -> int:
    """Profile one report on ``argv[0]`` (default "Renewable energy") up to its first task."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.001)
    profiler.start()
    import reportgen.dispatch as dispatch
    from reportgen.config import RunOptions
    from reportgen.run import generate_report

    original = dispatch.Dispatcher._run_task
    stopped: list[bool] = []

    async def first(self: Any, task: Any, inputs: Any) -> None:
        if not stopped:
            stopped.append(True)
            profiler.stop()
        await original(self, task, inputs)

    dispatch.Dispatcher._run_task = first  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory(prefix="reportgen-profile-") as out:
        asyncio.run(generate_report(RunOptions(topic=argv[0] if argv else "Renewable energy"), out_dir=Path(out)))
    print(profiler.output_text(unicode=True, color=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
