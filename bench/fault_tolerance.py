"""Fault tolerance: report completeness under injected tool faults, recovery on vs off.

The ACP paper's ablation, on our pipeline: the same seeded faults
(:mod:`reportgen.faults`: exceptions, timeouts, 429s, empty, garbage and
off-topic output) hit 0 %, 10 %, 30 % and 50 % of tool calls of
``reportgen report "Renewable energy"`` (offline, extractive), once with the
recovery node and once with ``--no-recovery``. Measured per run: the share of
planned body sections that reach the report with text, and the share of the
charts a fault-free run draws that reach it. A run that ends without a
report (nothing useful) counts as 0. Each figure is the mean over
:data:`SEEDS` seeds; the reference is the same faults without recovery.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
from pathlib import Path

from bench.rows import Row

__all__ = ["KINDS", "RATES", "SEEDS", "run"]

RATES = (0.0, 0.1, 0.3, 0.5)
SEEDS = (1, 2, 3)
KINDS = "exception+timeout+429+empty+garbage+wrong_topic"
TOPIC = "Renewable energy"
SECTIONS = 5


async def _one(rate: float, seed: int, recovery: bool, out: Path) -> tuple[int, int, int]:
    """``(planned sections, sections with text, figures)`` of one run."""
    from reportgen.config import RunOptions
    from reportgen.errors import RunError
    from reportgen.faults import FaultPlan
    from reportgen.run import generate_report

    faults = FaultPlan.parse(f"rate={rate},kinds={KINDS},seed={seed}")
    try:
        result = await generate_report(
            RunOptions(topic=TOPIC, sections=SECTIONS), out_dir=out, faults=faults,
            recovery=recovery, backoff_scale=0.1,
        )
    except RunError:
        return SECTIONS, 0, 0
    planned = sum(1 for t in result.blueprint.tasks if t.kind == "write")
    body = sum(1 for s in result.report.sections if s.role == "body" and s.paragraphs)
    return planned, body, len(result.report.figures)


def run(rates: tuple[float, ...] = RATES, seeds: tuple[int, ...] = SEEDS) -> list[Row]:
    """The completeness table: one row per fault rate and measure (sections, charts)."""
    from reportgen.config import get_settings

    saved = {k: os.environ.get(k) for k in ("REPORTGEN_HOME", "REPORTGEN_TOOL_TIMEOUT_S")}
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        os.environ["REPORTGEN_HOME"] = str(Path(tmp) / "home")
        os.environ["REPORTGEN_TOOL_TIMEOUT_S"] = "0.3"  # an injected timeout costs 0.45 s, not 90 s
        get_settings.cache_clear()
        try:
            results: dict[tuple[float, bool], list[tuple[int, int, int]]] = {}
            for rate in rates:
                for recovery in (True, False):
                    results[rate, recovery] = [
                        asyncio.run(_one(rate, seed, recovery, Path(tmp) / "out")) for seed in seeds
                    ]
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            get_settings.cache_clear()
    charts_possible = max(1, max(f for _, _, f in results[rates[0], True]))
    for rate in rates:
        on, off = results[rate, True], results[rate, False]
        text_on = statistics.mean(b / p for p, b, _ in on)
        text_off = statistics.mean(b / p for p, b, _ in off)
        chart_on = statistics.mean(min(1.0, f / charts_possible) for _, _, f in on)
        chart_off = statistics.mean(min(1.0, f / charts_possible) for _, _, f in off)
        for measure, with_rec, without in (("sections with text", text_on, text_off),
                                           ("charts reaching the report", chart_on, chart_off)):
            rows.append(Row(
                group="fault tolerance", name=f"{rate:.0%} of tool calls failing: {measure}",
                value=round(with_rec * 100, 1), unit="%", reference=round(without * 100, 1),
                reference_name="--no-recovery", ratio=(with_rec / without) if without else None,
                ratio_name="with / without recovery",
                note="" if without else "nothing reached the report without recovery",
                details={"with_recovery": results[rate, True], "without_recovery": results[rate, False],
                         "charts_in_a_fault_free_run": charts_possible},
            ))
    return rows
