"""Fault tolerance: a fault matrix over every status code, random faults, budgets, locks."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from reportgen.acp import read_messages
from reportgen.config import RunOptions, get_settings
from reportgen.errors import ConfigError, RunError, RunLockedError
from reportgen.faults import FaultPlan
from reportgen.run import generate_report
from reportgen.runs import RunLock, load_record

from fakes import FakeSearch

OPTIONS = RunOptions(topic="Renewable energy", sections=4)


async def _run(tmp_path, spec: str, *, recovery: bool = True, tool_timeout: float | None = None):
    if tool_timeout is not None:
        get_settings().tool_timeout_s = tool_timeout
    return await generate_report(
        OPTIONS, out_dir=tmp_path, search=FakeSearch(), backoff_scale=0,
        faults=FaultPlan.parse(spec), recovery=recovery,
    )


def _messages(result):
    return read_messages(result.out_dir / "messages.jsonl")


def _decisions(result, task_id):
    return [(m.status, m.status_code) for m in _messages(result)
            if m.type == "STATUS_UPDATE" and m.task_id == task_id]


def _assert_budgets(result, budget=3):
    responses = Counter(m.task_id for m in _messages(result) if m.type == "AGENT_RESPONSE")
    for task in result.blueprint.tasks:
        assert task.attempts <= budget, task.id
        assert responses[task.id] <= budget, task.id


@pytest.mark.parametrize("spec, task_id, code, decision", [
    ("rate=1,kinds=missing,tasks=chart-3,first=1", "chart-3", 601, "amend"),
    ("rate=1,kinds=bad_step,tasks=write-2,first=1", "write-2", 602, "reroute"),
    ("rate=1,kinds=invalid,tasks=research-3,first=1", "research-3", 603, "reroute"),
    ("rate=1,kinds=exception,tasks=research-1,first=2", "research-1", 604, "retry"),
    ("rate=1,kinds=429,tasks=research-2,first=2", "research-2", 604, "retry"),
    ("rate=1,kinds=timeout,tasks=write-1,first=1", "write-1", 604, "retry"),
    ("rate=1,kinds=empty,tasks=research-4,first=1", "research-4", 605, "reroute"),
    ("rate=1,kinds=truncated,tasks=research-1,first=1", "research-1", 606, "reroute"),
    ("rate=1,kinds=wrong_topic,tasks=research-2,first=1", "research-2", 607, "reroute"),
    ("rate=1,kinds=garbage,tasks=write-3,first=1", "write-3", 607, "reroute"),
    ("rate=1,kinds=garbage,tasks=chart-3,first=1", "chart-3", 607, "reroute"),
])
async def test_fault_matrix(tmp_path, spec, task_id, code, decision):
    result = await _run(tmp_path, spec, tool_timeout=0.2 if "timeout" in spec else None)
    task = result.blueprint.task(task_id)
    assert task.status.value == "done", task.reason
    assert task.status_codes[0] == code and task.status_codes[-1] == 200
    assert (decision, code) in _decisions(result, task_id)
    kinds = {(m.type, getattr(m, "status_code", None)) for m in _messages(result) if m.task_id == task_id}
    assert ("ASSISTANCE_REQUEST", code) in kinds
    assert sum(s.role == "body" for s in result.report.sections) == 4
    _assert_budgets(result)


async def test_601_amends_the_blueprint_with_a_fetch_step(tmp_path):
    result = await _run(tmp_path, "rate=1,kinds=missing,tasks=chart-3,first=1")
    added = result.blueprint.task("chart-3-fetch")
    assert added.agent == "browser" and added.status.value == "done"
    assert result.blueprint.task("chart-3").inputs["notes"].from_task == "chart-3-fetch"
    saved = json.loads((result.out_dir / "blueprint.json").read_text())
    assert "chart-3-fetch" in {t["id"] for t in saved["tasks"]}


async def test_a_burst_of_429_beyond_the_budget_fails_the_task_not_the_run(tmp_path):
    result = await _run(tmp_path, "rate=1,kinds=429,tasks=research-2")
    task = result.blueprint.task("research-2")
    assert task.status.value == "failed" and task.status_codes == [604, 604, 604]
    assert result.blueprint.task("write-2").status.value == "skipped"
    assert "research-2" in {t for lim in result.report.limitations for t in lim.task_ids}
    assert sum(s.role == "body" for s in result.report.sections) == 3
    _assert_budgets(result)


async def test_without_recovery_the_first_error_fails_the_task(tmp_path):
    result = await _run(tmp_path, "rate=1,kinds=exception,tasks=research-1,first=1", recovery=False)
    task = result.blueprint.task("research-1")
    assert task.status.value == "failed" and task.status_codes == [604]
    assert ("failed", 604) in _decisions(result, "research-1")
    assert "recovery is off" in task.reason


async def test_nothing_useful_ends_with_a_clear_error_and_no_report(tmp_path):
    with pytest.raises(RunError, match="no section"):
        await _run(tmp_path, "rate=1,kinds=exception,tasks=research-*")
    (folder,) = tmp_path.iterdir()
    assert not (folder / "report.pdf").exists() and not (folder / "report.html").exists()
    assert load_record(get_settings(), folder.name).state == "failed"


@pytest.mark.parametrize("seed", range(5))
async def test_random_faults_every_run_ends_cleanly(tmp_path, seed):
    spec = (f"rate=0.3,seed={seed},"
            "kinds=exception+timeout+429+empty+garbage+wrong_topic+truncated+missing+invalid+bad_step")
    try:
        result = await _run(tmp_path, spec, tool_timeout=0.2)
    except RunError:
        return  # nothing useful: a clear error is a clean end too
    assert (result.out_dir / "report.pdf").exists()
    _assert_budgets(result)
    for task in result.blueprint.tasks:
        assert task.status.finished
        if task.status.value != "done":
            assert task.reason
            listed = {t for lim in result.report.limitations for t in lim.task_ids}
            assert task.id in listed or task.status.value == "skipped"


async def test_the_run_deadline_is_never_exceeded(tmp_path):
    settings = get_settings()
    settings.run_deadline_s = 1.0
    result = await generate_report(
        OPTIONS, out_dir=tmp_path, search=FakeSearch(), backoff_scale=0,
        faults=FaultPlan.parse("rate=1,kinds=delay,delay=3,tasks=introduction+conclusion"),
    )
    assert result.timings["dispatch"] < 1.0 + 0.5  # stopped at the deadline, not after the 3 s tool calls
    stopped = [t for t in result.blueprint.tasks if "deadline" in t.reason]
    assert stopped
    assert all(t.status.value in ("failed", "skipped") for t in stopped)


async def test_a_second_run_on_the_same_report_id_is_refused(tmp_path):
    with RunLock(get_settings(), "busy-report-000000"):
        with pytest.raises(RunLockedError, match="already being generated"):
            await generate_report(OPTIONS, out_dir=tmp_path, search=FakeSearch(),
                                  report_id="busy-report-000000")
    assert not (tmp_path / "busy-report-000000").exists()


@pytest.mark.parametrize("spec, message", [
    ("rate=2", "between 0 and 1"),
    ("kinds=meteor", "unknown fault kind"),
    ("colour=red", "unknown fault setting"),
    ("rate=abc", "bad value"),
])
def test_bad_fault_specs_are_refused(spec, message):
    with pytest.raises(ConfigError, match=message):
        FaultPlan.parse(spec)


def test_fault_draws_are_reproducible():
    a = FaultPlan.parse("rate=0.5,seed=3,kinds=exception+empty")
    b = FaultPlan.parse("rate=0.5,seed=3,kinds=exception+empty")
    draws_a = [a.draw("browser", f"t{i % 4}") for i in range(40)]
    draws_b = [b.draw("browser", f"t{i % 4}") for i in range(40)]
    assert draws_a == draws_b and any(draws_a) and not all(draws_a)
