"""Model mode, end to end, against a scripted endpoint with realistic latency (issue 15).

One model-mode report (4 sections, offline encyclopedia corpus) runs in a
fresh process (:mod:`bench.model_child`) against the test suite's scripted
OpenAI-compatible server, each answer delayed by a seeded 1–4 s. Its wall
time (``generate_report``, from call to return) is compared with:

* **the floor**: the model latency on the critical path — calls made
  outside any task (the planner before dispatch, the coordination after it)
  plus the longest dependency chain of the blueprint, each task weighing the
  time its own calls took (the union of their intervals; a task's calls are
  attributed to it by time: they start and end while it runs and match its
  kind). No scheduler can finish sooner while the model answers this slowly.
* **a sequential run**: the sum of every call's latency, what a one-agent
  tool making the same calls one after another would wait (computed from
  the same calls, not run: it would take minutes).

Issue 15 asks for the comparison and sets no target, so the rows carry
ratios without a verdict; the note says where the time beyond the floor went.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench.process import failure, python_child, run_measured
from bench.rows import Row

__all__ = ["SCHEMA_KINDS", "analyse", "critical_floor", "run"]

#: Which task kind makes which structured call (``reportgen/agents/model_*.py``).
SCHEMA_KINDS: dict[str, tuple[str, ...]] = {
    "Queries": ("research",), "Notes": ("research",), "ChartProposal": ("chart",),
    "SectionDraft": ("write", "introduction", "conclusion"),
}

_SLACK_S = 0.05  # clock and scheduling slack when matching a call to a task's interval


def _union(intervals: Iterable[tuple[float, float]]) -> float:
    total, end = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def critical_floor(tasks: list[dict[str, Any]], calls: list[dict[str, Any]]) -> tuple[float, dict[str, Any]]:
    """The model latency on the critical path, and how it was made up.

    Args:
        tasks: ``{"id", "kind", "deps", "start", "end"}`` per task (Unix times).
        calls: ``{"schema", "start", "end", "latency_s"}`` per model call.

    Returns:
        The floor in seconds, and details: ``outside_s`` (calls outside every
        task), ``chain_s`` (the longest chain), ``chain`` (its task ids),
        ``attributed`` (calls matched to a task).
    """
    by_task: dict[str, list[tuple[float, float]]] = {t["id"]: [] for t in tasks}
    outside: list[tuple[float, float]] = []
    for call in calls:
        kinds = SCHEMA_KINDS.get(call["schema"], ())
        owners = [t for t in tasks if t["start"] is not None and t["end"] is not None
                  and t["kind"] in kinds and t["start"] - _SLACK_S <= call["start"]
                  and call["end"] <= t["end"] + _SLACK_S]
        if owners:
            by_task[min(owners, key=lambda t: t["end"] - t["start"])["id"]].append((call["start"], call["end"]))
        else:
            outside.append((call["start"], call["end"]))
    weight = {tid: _union(spans) for tid, spans in by_task.items()}
    deps = {t["id"]: [d for d in t["deps"] if d in weight] for t in tasks}
    longest: dict[str, tuple[float, list[str]]] = {}

    def chain(tid: str) -> tuple[float, list[str]]:
        if tid not in longest:
            best = max((chain(d) for d in deps[tid]), default=(0.0, []), key=lambda pair: pair[0])
            longest[tid] = (best[0] + weight[tid], [*best[1], tid])
        return longest[tid]

    chain_s, path = max((chain(t["id"]) for t in tasks), default=(0.0, []), key=lambda pair: pair[0])
    outside_s = _union(outside)
    return outside_s + chain_s, {"outside_s": outside_s, "chain_s": chain_s, "chain": path,
                                 "attributed": len(calls) - len(outside)}


def analyse(record: dict[str, Any]) -> list[Row]:
    """The rows of one model-mode run (see the module docstring)."""
    calls, tasks, wall = record["calls"], record["tasks"], record["wall_s"]
    floor, how = critical_floor(tasks, calls)
    sequential = sum(c["latency_s"] for c in calls)
    before = min(c["start"] for c in calls) - record["start"] if calls else 0.0
    after = record["end"] - max(t["end"] for t in tasks if t["end"] is not None)
    note = (f"{len(calls)} model calls of 1–4 s (seeded), {len(tasks)} tasks; floor = "
            f"{how['outside_s']:.1f} s outside tasks (planner) + {how['chain_s']:.1f} s on the "
            f"chain {' → '.join(how['chain'])}; beyond it: {before:.1f} s before the first call, "
            f"{after:.1f} s after the last task (coordinate, HTML, PDF)")
    return [
        Row(group="model mode", name="report, 4 sections: wall time vs the critical path", value=wall, unit="s",
            reference=floor, reference_name="model latency on the critical path", ratio=wall / floor,
            ratio_name="wall / floor", note=note,
            details={"calls": calls, "tasks": tasks, "floor": how, "sequential_s": sequential}),
        Row(group="model mode", name="report, 4 sections: speed-up over sequential", value=wall, unit="s",
            reference=sequential, reference_name="sum of all model latencies (one call at a time)",
            ratio=sequential / wall, ratio_name="sequential / wall",
            note="what a one-agent tool making the same calls one after another would wait, computed"),
    ]


def run(seed: int = 1) -> list[Row]:
    """Run the model-mode report once (a fresh process) and compare it with its floor and a sequential run.

    Args:
        seed: The latency seed.

    Returns:
        Two rows.

    Raises:
        RuntimeError: The report run failed.
    """
    with tempfile.TemporaryDirectory(prefix="reportgen-bench-model-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("REPORTGEN_")}
        env.update(REPORTGEN_HOME=str(Path(tmp) / "home"))
        measured = run_measured(python_child("bench.model_child", str(Path(tmp) / "out"), str(seed)),
                                env=env, timeout_s=600, cwd=str(Path(__file__).resolve().parent.parent))
    if measured.returncode != 0:
        raise RuntimeError(f"the model-mode run failed: {failure(measured)}")
    return analyse(json.loads(measured.stdout.strip().splitlines()[-1]))
