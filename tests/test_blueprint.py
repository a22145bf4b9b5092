"""The execution blueprint: validation, readiness, persistence."""

import json

import pytest

from reportgen.blueprint.model import Blueprint, Task, TaskInput, TaskStatus
from reportgen.blueprint.planner import compile_blueprint
from reportgen.errors import BlueprintError, CycleError, UnknownAgentError, UnresolvedInputError

AGENTS = ("browser", "plot", "writer")


def _task(tid, agent="browser", deps=(), inputs=None, outputs=("notes",)):
    return Task(id=tid, agent=agent, kind="research", aim=tid, depends_on=list(deps),
                inputs=inputs or {}, outputs=list(outputs))


def test_compiled_blueprint_is_valid_and_ordered():
    bp = compile_blueprint("r1", "Renewable energy", ["Wind power", "Solar power", "Hydropower", "Geothermal power"])
    order = bp.validate_dag(AGENTS)
    assert len(bp.tasks) == 1 + 3 * 4 + 2
    pos = {tid: i for i, tid in enumerate(order)}
    for t in bp.tasks:
        assert all(pos[d] < pos[t.id] for d in t.dependencies)
    intro = bp.task("introduction")
    assert {f"write-{n}" for n in range(1, 5)} <= set(intro.dependencies)
    assert bp.task("write-2").inputs["chart"].optional is True
    assert bp.task("write-2").inputs["notes"].source == "research-2.notes"


def test_cycle_is_refused_and_named():
    bp = Blueprint(report_id="r", topic="t", tasks=[
        _task("a", deps=["c"]), _task("b", deps=["a"]), _task("c", deps=["b"]), _task("d"),
    ])
    with pytest.raises(CycleError, match="a -> c -> b -> a|c -> b -> a -> c|b -> a -> c -> b"):
        bp.validate_dag(AGENTS)


def test_unknown_agent_is_refused():
    bp = Blueprint(report_id="r", topic="t", tasks=[_task("a", agent="weather")])
    with pytest.raises(UnknownAgentError, match="'weather'"):
        bp.validate_dag(AGENTS)


@pytest.mark.parametrize("inputs, message", [
    ({"notes": TaskInput(from_task="nope", output="notes")}, "unknown task 'nope'"),
    ({"notes": TaskInput(from_task="a", output="chart")}, "needs output 'chart'"),
])
def test_unresolvable_inputs_are_refused(inputs, message):
    bp = Blueprint(report_id="r", topic="t", tasks=[_task("a"), _task("b", agent="writer", inputs=inputs)])
    with pytest.raises(UnresolvedInputError, match=message):
        bp.validate_dag(AGENTS)


def test_duplicate_ids_and_unknown_dependencies_are_refused():
    with pytest.raises(BlueprintError, match="twice"):
        Blueprint(report_id="r", topic="t", tasks=[_task("a"), _task("a")]).validate_dag(AGENTS)
    with pytest.raises(UnresolvedInputError, match="unknown task 'z'"):
        Blueprint(report_id="r", topic="t", tasks=[_task("a", deps=["z"])]).validate_dag(AGENTS)


def test_input_needs_both_task_and_output():
    with pytest.raises(ValueError):
        TaskInput(from_task="a")


def test_ready_waits_for_own_dependencies_only():
    bp = compile_blueprint("r1", "T", ["A", "B"])
    ready = {t.id for t in bp.ready()}
    assert ready == {"research-overview", "research-1", "research-2"}
    bp.task("research-1").status = TaskStatus.DONE
    assert {t.id for t in bp.ready()} >= {"chart-1"}
    assert "write-1" not in {t.id for t in bp.ready()}
    assert "chart-2" not in {t.id for t in bp.ready()}


def test_save_and_load(tmp_path):
    bp = compile_blueprint("r1", "T", ["A"])
    bp.task("research-1").status = TaskStatus.DONE
    bp.save(tmp_path / "blueprint.json")
    data = json.loads((tmp_path / "blueprint.json").read_text())
    task = next(t for t in data["tasks"] if t["id"] == "write-1")
    assert {"id", "agent", "depends_on", "status", "attempts", "started_at", "finished_at"} <= set(task)
    assert set(task["depends_on"]) == {"research-1", "chart-1", "research-overview"}  # the subject's notes
    back = Blueprint.load(tmp_path / "blueprint.json")
    assert back.task("research-1").status is TaskStatus.DONE
