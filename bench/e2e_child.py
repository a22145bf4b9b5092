"""Child process of the end-to-end benchmark: ``python -m bench.e2e_child TOPIC OUT_DIR``.

Runs :func:`reportgen.run.generate_report` once, offline and in extractive
mode, with the data dir from ``REPORTGEN_HOME``, and prints one JSON object:
``{"import_s", "run_s", "timings", "tasks", "sections", "figures", "references"}``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    """Generate one report on ``argv[0]`` into ``argv[1]``."""
    if len(argv) != 2:
        print("usage: python -m bench.e2e_child TOPIC OUT_DIR", file=sys.stderr)
        return 2
    started = time.perf_counter()
    from reportgen.config import RunOptions
    from reportgen.run import generate_report

    imported = time.perf_counter() - started
    started = time.perf_counter()
    result = asyncio.run(generate_report(RunOptions(topic=argv[0]), out_dir=Path(argv[1])))
    ran = time.perf_counter() - started
    print(json.dumps({
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
