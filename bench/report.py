"""The benchmark table (rich) and ``bench/results.json``."""

from __future__ import annotations

import json
import os
import platform
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bench.rows import Row

__all__ = ["RESULTS_PATH", "format_value", "machine", "print_report", "table", "write_results"]

#: Where ``python -m bench`` writes its results (git-ignored).
RESULTS_PATH = Path(__file__).resolve().parent / "results.json"


def format_value(value: float | None, unit: str) -> str:
    """A figure with its unit, to a sensible precision (``"0.689 s"``, ``"214 MiB"``)."""
    if value is None:
        return "—"
    if unit == "MiB":
        return f"{value:.0f} MiB"
    if unit == "s":
        return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"
    if unit == "ms/task":
        return f"{value:.2f} ms/task"
    return f"{value:.3g} {unit}".strip()


def _verdict(row: Row) -> Text:
    if row.status == "not measured":
        return Text("not yet measured", style="yellow")
    if row.status == "unavailable":
        return Text("unavailable", style="yellow")
    if row.status == "error":
        return Text("ERROR", style="bold red")
    verdict = row.verdict_text()
    style = "green" if verdict.startswith("PASS") else "bold red" if verdict else ""
    return Text(verdict, style=style)


def table(rows: Sequence[Row]) -> tuple[Table, list[str]]:
    """Build the table and its numbered notes.

    Returns:
        ``(table, notes)``; a row's ``#`` column refers to ``notes[#-1]``.
    """
    out = Table(title="reportgen benchmarks (every ratio is against a reference measured in the same run)",
                box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for header, justify in (("benchmark", "left"), ("measure", "left"), ("value", "right"),
                            ("reference (same run)", "left"), ("ratio", "right"),
                            ("target", "left"), ("verdict", "left"), ("#", "right")):
        out.add_column(header, justify=justify, overflow="fold")  # type: ignore[arg-type]
    notes: list[str] = []
    group = None
    for row in rows:
        if group is not None and row.group != group:
            out.add_section()
        reference = "—"
        if row.reference is not None:
            reference = f"{format_value(row.reference, row.unit)} {row.reference_name}".strip()
        elif row.reference_name:
            reference = row.reference_name
        marker = ""
        if row.note:
            notes.append(row.note)
            marker = str(len(notes))
        out.add_row(
            row.group if row.group != group else "", row.name,
            format_value(row.value, row.unit) if row.status in ("measured", "unavailable") else "—",
            reference, "—" if row.ratio is None else f"{row.ratio:.2f}×",
            row.target.label() if row.target else "", _verdict(row), marker,
        )
        group = row.group
    return out, notes


def print_report(rows: Sequence[Row], console: Console | None = None, *,
                 load: Sequence[float] | None = None) -> None:
    """Print the table, its notes and, when given, the machine's load during the run.

    Args:
        rows: The rows, in order.
        console: Where to print; default stdout (150 columns when not a terminal).
        load: Load averages (1 min) seen during the run; a load above the CPU
            count means other processes shared the machine and inflated the figures.
    """
    console = console or Console(width=None if sys.stdout.isatty() else 150)
    rendered, notes = table(rows)
    console.print(rendered)
    for number, note in enumerate(notes, start=1):
        console.print(f"[{number}] {note}", highlight=False, markup=False)
    if load:
        cpus = os.cpu_count() or 1
        busy = max(load) > cpus * 0.75
        console.print(
            f"machine: {cpus} CPUs, 1-min load average {min(load):.1f}–{max(load):.1f} during the run"
            + (" (other processes were busy: absolute figures are inflated)" if busy else ""),
            highlight=False, markup=False,
        )


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "load_avg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None}


def write_results(rows: Sequence[Row], seconds: dict[str, float], path: Path = RESULTS_PATH, *,
                  load: Sequence[float] | None = None) -> Path:
    """Write every row (with its verdict and raw details) and the machine to ``path`` as JSON."""
    data = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {**machine(), "load_during_run": list(load or [])},
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "rows": [row.to_json() for row in rows],
    }
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return path
