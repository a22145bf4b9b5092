"""``python -m bench`` (``make bench``): run every benchmark, print one table, write results.json."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from rich.console import Console

from bench.registry import BENCHMARKS, Benchmark, run_benchmarks
from bench.report import RESULTS_PATH, print_report, write_results


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; exit status 1 when one of them raised (a miss is not an error)."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--only", action="append", choices=[b.name for b in BENCHMARKS],
                        help="run only this benchmark (repeatable)")
    parser.add_argument("--json", type=Path, default=RESULTS_PATH, help="where to write the results")
    args = parser.parse_args(argv)
    chosen = [b for b in BENCHMARKS if not args.only or b.name in args.only]
    err = Console(stderr=True)
    started = time.perf_counter()

    load: list[float] = []

    def progress(bench: Benchmark) -> None:
        load.append(_load())
        err.print(f"[dim]{time.perf_counter() - started:6.1f} s  {bench.name}: {bench.title}[/dim]")

    rows, seconds = run_benchmarks(chosen, on_start=progress)
    load.append(_load())
    print_report(rows, load=load)
    path = write_results(rows, seconds, args.json, load=load)
    err.print(f"[dim]{time.perf_counter() - started:6.1f} s  done; results in {path}[/dim]")
    return 1 if any(row.status == "error" for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
