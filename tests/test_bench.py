"""The benchmark code (``make bench``), on tiny inputs: rows are well-formed, the maths is right.

No test here asserts anything about speed: the figures are benchmark targets,
judged by ``make bench``, never by the test suite.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, where bench/ lives

from bench import Benchmark, Row, Target, overhead, run_benchmarks, scheduling  # noqa: E402
from bench.registry import BENCHMARKS  # noqa: E402
from bench.report import print_report, write_results  # noqa: E402
from bench.workload import (  # noqa: E402
    AGENT_NAMES,
    critical_path,
    dependency_levels,
    draw_latencies,
    report_blueprint,
    sized_blueprint,
    total_work,
)
from reportgen.blueprint.model import Blueprint, Task, TaskInput  # noqa: E402


def _diamond() -> Blueprint:
    """a → b → d and a → c → d, plus e alone; listed out of order on purpose."""
    def task(tid: str, *deps: str) -> Task:
        return Task(id=tid, agent="browser", kind="research", aim=tid, outputs=["out"],
                    inputs={f"in_{d}": TaskInput(from_task=d, output="out") for d in deps})
    return Blueprint(report_id="r", topic="t",
                     tasks=[task("d", "b", "c"), task("b", "a"), task("a"), task("c", "a"), task("e")])


def test_critical_path_of_a_hand_made_dag():
    latency = {"a": 1.0, "b": 5.0, "c": 2.0, "d": 1.0, "e": 6.5}
    length, path = critical_path(_diamond(), latency)
    assert length == pytest.approx(7.0) and path == ["a", "b", "d"]
    assert total_work(latency) == pytest.approx(15.5)
    latency["e"] = 7.5  # now the lone task is the longest chain
    assert critical_path(_diamond(), latency) == (pytest.approx(7.5), ["e"])


def test_dependency_levels_of_a_hand_made_dag():
    levels = [sorted(t.id for t in level) for level in dependency_levels(_diamond())]
    assert levels == [["a", "e"], ["b", "c"], ["d"]]


@pytest.mark.parametrize("n_tasks", [3, 20, 50, 200, 800])
def test_sized_blueprints_have_exactly_n_valid_tasks(n_tasks):
    blueprint = sized_blueprint(n_tasks)
    assert len(blueprint.tasks) == n_tasks
    assert len(blueprint.validate_dag(AGENT_NAMES)) == n_tasks


def test_report_blueprint_shape_and_seeded_latencies():
    blueprint = report_blueprint(8)
    assert len(blueprint.tasks) == 27
    assert [len(level) for level in dependency_levels(blueprint)] == [9, 8, 8, 2]
    first, again = draw_latencies(blueprint, seed=1), draw_latencies(blueprint, seed=1)
    assert first == again and set(first) == {t.id for t in blueprint.tasks}
    assert max(first.values()) > 4 * min(first.values())  # heterogeneous: some tasks much slower


def _well_formed(row: Row) -> None:
    assert row.status == "measured"
    assert row.value is not None and row.value > 0 and math.isfinite(row.value)
    assert row.reference is not None and row.reference > 0
    assert row.ratio is not None and math.isfinite(row.ratio)
    assert row.target is not None and row.verdict()[0] in ("PASS", "MISS")
    json.dumps(row.to_json())


def test_scheduling_rows_on_a_tiny_blueprint():
    rows = scheduling.run(sections=(2,), seeds=(1,), capped_seeds=(1,), cap=2)
    assert len(rows) == 4
    assert {r.group for r in rows} == {"scheduling"}
    limit_unlimited, speedup_unlimited, limit_capped, speedup_capped = rows
    for row in (limit_unlimited, speedup_unlimited):
        _well_formed(row)
    for row in (limit_capped, speedup_capped):  # shown without a verdict (the issue sets no target)
        assert row.target is None and row.value > 0 and row.reference > 0
        json.dumps(row.to_json())
    for row in (limit_unlimited, limit_capped):
        assert row.ratio == pytest.approx(row.value / row.reference)
        assert row.ratio >= 1.0  # nothing beats the physical limit
    for row in (speedup_unlimited, speedup_capped):
        assert row.ratio == pytest.approx(row.reference / row.value)
    run = limit_capped.details["runs"][0]
    assert run["bound_s"] == pytest.approx(max(run["critical_path_s"], run["work_s"] / 2))


def test_overhead_rows_on_tiny_blueprints():
    rows = overhead.run(sizes=(20, 26), repeats=1)
    assert [r.name.split(":")[0].split(",")[0] for r in rows] == [
        "20 tasks", "26 tasks", "growth 20 → 26 tasks", "growth 20 → 26 tasks"]
    for row in rows:
        _well_formed(row)
    assert rows[2].ratio == pytest.approx(rows[1].value / rows[0].value)


def test_targets_say_pass_or_miss_and_by_how_much():
    row = Row(group="g", name="n", value=1.21, reference=1.0, ratio=1.21, target=Target("<=", 1.10))
    assert row.verdict() == ("MISS", pytest.approx(-0.1)) and row.verdict_text() == "MISS by 10%"
    row = Row(group="g", name="n", value=2.0, reference=3.0, ratio=1.5, target=Target(">=", 1.3))
    assert row.verdict()[0] == "PASS"
    row = Row(group="g", name="n", value=9.0, unit="s", target=Target("<=", 15, on="value", unit="s"))
    assert row.verdict_text() == "PASS (40% inside)" and row.target.label() == "≤ 15 s"


def test_a_hook_without_its_module_is_a_not_yet_measured_row():
    hook = Benchmark("later", "bench.no_such_benchmark", "comes later", pending="something (issue 99)")
    rows, _ = run_benchmarks([hook])
    assert [(r.status, r.name, r.value) for r in rows] == [("not measured", "something (issue 99)", None)]
    assert rows[0].verdict() == ("", None)


def test_the_fault_tolerance_benchmark_is_registered():
    entry = next(b for b in BENCHMARKS if b.name == "fault tolerance")
    if importlib.util.find_spec(entry.module) is None:  # not landed yet: a placeholder, no numbers
        assert entry.pending
        rows, _ = run_benchmarks([entry])
        assert [r.status for r in rows] == ["not measured"]


def test_a_failing_benchmark_becomes_an_error_row(tmp_path, monkeypatch):
    (tmp_path / "broken_bench_module.py").write_text("def run():\n    raise ValueError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    rows, _ = run_benchmarks([Benchmark("broken", "broken_bench_module", "always fails")])
    assert [(r.status, r.note) for r in rows] == [("error", "ValueError: boom")]


def test_table_and_results_file(tmp_path):
    rows = [
        Row(group="g", name="measured", value=0.5, unit="s", reference=0.4, reference_name="limit",
            ratio=1.25, target=Target("<=", 1.1), note="a note"),
        Row(group="h", name="pending", status="not measured", note="not yet measured"),
    ]
    out = StringIO()
    print_report(rows, Console(file=out, width=200))
    text = out.getvalue()
    assert "MISS by 14%" in text and "not yet measured" in text and "[1] a note" in text
    path = write_results(rows, {"g": 1.0}, tmp_path / "results.json")
    data = json.loads(path.read_text())
    assert [r["verdict"] for r in data["rows"]] == ["MISS", None]
    assert data["machine"]["cpus"] >= 1


def test_rendering_rows_for_every_engine_on_a_small_report():
    from bench import rendering

    report = rendering.big_report(sections=2, paragraphs=1, charts=1, references=3)
    rows = rendering.run(repeats=1, report=report)
    if rows[0].status == "unavailable":  # no Chromium here: one row saying so
        assert "chromium is not installed" in rows[0].note
        return
    names = [r.name for r in rows]
    for engine in ("weasyprint", "chromium"):
        assert any(n.endswith(f"{engine}: fresh process") for n in names)
        assert any(n.endswith(f"{engine}: render call, warm") for n in names)
    for row in rows:
        assert row.value > 0 and row.reference > 0 and row.ratio == pytest.approx(row.value / row.reference)
    targets = {r.name.rsplit(": ", 1)[-1]: r.target for r in rows if r.target}
    assert targets == {"fresh process": rendering.PDF_FRESH_TARGET, "render call, warm": rendering.PDF_TARGET}


def test_the_report_child_knows_when_its_process_started():
    import time

    from bench.e2e_child import _process_start

    started = _process_start()
    if started is None:  # no /proc
        return
    assert time.time() - 3600 < started <= time.time()


def test_the_scale_benchmark_is_registered_and_its_percentiles_interpolate():
    from bench.scale import REPORTS, percentile

    entry = next(b for b in BENCHMARKS if b.name == "scale")
    assert entry.module == "bench.scale" and REPORTS % 3 == 0
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5 and percentile([1.0, 2.0], 99) == pytest.approx(1.99)
    assert percentile([7.0], 99) == 7.0 and math.isnan(percentile([], 50))
