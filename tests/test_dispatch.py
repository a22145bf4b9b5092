"""The dispatcher and the task graph: no level barrier, recovery through error-code edges."""

import asyncio
import contextlib

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from reportgen.acp import MessageLog, read_messages
from reportgen.agents.runtime import RunContext
from reportgen.blueprint.model import Blueprint, Task, TaskInput, TaskStatus
from reportgen.dispatch import Dispatcher
from reportgen.faults import FaultPlan
from reportgen.graph import build_task_graph, default_agents
from reportgen.run import open_checkpointer

from fakes import FakeSearch, SleepAgent


@contextlib.asynccontextmanager
async def _saver(kind, tmp_path):
    if kind == "memory":
        yield InMemorySaver()
    elif kind == "run":  # the product's: RunCheckpointer
        async with open_checkpointer(tmp_path / "cp.sqlite") as saver:
            yield saver
    else:
        async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "cp.sqlite")) as saver:
            yield saver


def _ctx(tmp_path, search=None, **kw):
    return RunContext(topic="Renewable energy", lang="en", search=search or FakeSearch(),
                      log=MessageLog(tmp_path / "messages.jsonl"), backoff_scale=0.0, **kw)


def _chain_blueprint():
    """Two independent research -> chart chains."""
    tasks = []
    for n in (1, 2):
        tasks.append(Task(id=f"research-{n}", agent="browser", kind="research", aim="r", outputs=["notes"]))
        tasks.append(Task(id=f"chart-{n}", agent="plot", kind="chart", aim="c", outputs=["chart"],
                          inputs={"notes": TaskInput(from_task=f"research-{n}", output="notes")}))
    return Blueprint(report_id="r1", topic="t", tasks=tasks)


@pytest.mark.parametrize("checkpointer", ["memory", "sqlite"])
async def test_a_task_starts_when_its_own_dependencies_are_done(tmp_path, checkpointer):
    latency = {"research-1": 0.8, "research-2": 0.05, "chart-1": 0.05, "chart-2": 0.05}
    record: dict = {}
    agents = {name: SleepAgent(name, latency, record) for name in ("browser", "plot", "writer")}
    bp = _chain_blueprint()
    async with _saver(checkpointer, tmp_path) as saver:
        graph = build_task_graph(saver, agents)
        outputs = await Dispatcher(bp, graph, _ctx(tmp_path)).run()
    assert {t.status for t in bp.tasks} == {TaskStatus.DONE}
    assert outputs["chart-2"] == {"chart": "chart-2.chart"}
    # chart-2 ran while the slow research-1 was still running: no level barrier.
    assert record["chart-2"][1] < record["research-1"][1]


async def test_concurrency_cap_is_respected(tmp_path):
    latency = {f"research-{n}": 0.1 for n in range(6)}
    record: dict = {}
    agents = {name: SleepAgent(name, latency, record) for name in ("browser", "plot", "writer")}
    bp = Blueprint(report_id="r", topic="t", tasks=[
        Task(id=f"research-{n}", agent="browser", kind="research", aim="r", outputs=["notes"]) for n in range(6)
    ])
    graph = build_task_graph(InMemorySaver(), agents)
    await Dispatcher(bp, graph, _ctx(tmp_path), max_concurrency=2).run()
    spans = sorted(record.values())
    for i, (start, _) in enumerate(spans):
        overlapping = sum(1 for s, e in spans if s <= start < e)
        assert overlapping <= 2, f"task {i} overlapped {overlapping} others"


async def test_605_goes_through_recovery_and_succeeds_after_broadening(tmp_path):
    search = FakeSearch(fail_queries=1)  # the first search finds nothing
    bp = Blueprint(report_id="r", topic="Renewable energy", tasks=[
        Task(id="research-1", agent="browser", kind="research", aim="find wind",
             inputs={"query": TaskInput(value="wind power")}, outputs=["notes"]),
    ])
    ctx = _ctx(tmp_path, search)
    outputs = await Dispatcher(bp, build_task_graph(InMemorySaver()), ctx).run()
    task = bp.task("research-1")
    assert task.status is TaskStatus.DONE and task.status_codes == [605, 200] and task.attempts == 2
    assert "Wind power" in {n["title"] for n in outputs["research-1"]["notes"]}
    assert "Renewable energy" in search.calls[1]  # the broadened query
    msgs = [m for m in read_messages(tmp_path / "messages.jsonl") if m.task_id == "research-1"]
    kinds = [(m.type, getattr(m, "status_code", None), getattr(m, "status", None)) for m in msgs]
    assert ("ASSISTANCE_REQUEST", 605, None) in kinds
    assert ("STATUS_UPDATE", 605, "reroute") in kinds
    assert kinds.index(("STATUS_UPDATE", 605, "reroute")) < kinds.index(("AGENT_RESPONSE", 200, None))


async def test_chart_without_comparable_numbers_is_dropped_and_the_section_degrades(tmp_path):
    docs = [{"title": "Wind power", "text": "Wind power is the use of wind energy to make electricity. "
                                            "Wind farms group many turbines together on land or at sea."}]
    bp = Blueprint(report_id="r", topic="Wind power", tasks=[
        Task(id="research-1", agent="browser", kind="research", aim="find",
             inputs={"query": TaskInput(value="wind power")}, outputs=["notes"]),
        Task(id="chart-1", agent="plot", kind="chart", aim="chart wind",
             inputs={"notes": TaskInput(from_task="research-1", output="notes"),
                     "subject": TaskInput(value="Wind power")}, outputs=["chart"]),
        Task(id="write-1", agent="writer", kind="write", aim="write wind",
             inputs={"notes": TaskInput(from_task="research-1", output="notes"),
                     "chart": TaskInput(from_task="chart-1", output="chart", optional=True),
                     "title": TaskInput(value="Wind power")}, outputs=["section"]),
    ])
    ctx = _ctx(tmp_path, FakeSearch(docs))
    outputs = await Dispatcher(bp, build_task_graph(InMemorySaver()), ctx).run()
    chart = bp.task("chart-1")
    assert chart.status is TaskStatus.FAILED
    assert chart.status_codes == [605, 605]  # default, then the broadened retrieval
    assert "comparable" in chart.reason
    write = bp.task("write-1")
    assert write.status is TaskStatus.DONE and write.degraded
    assert outputs["write-1"]["section"]["chart"] is None


async def test_failed_required_input_skips_dependents_with_a_reason(tmp_path):
    bp = Blueprint(report_id="r", topic="t", tasks=[
        Task(id="research-1", agent="browser", kind="research", aim="find",
             inputs={"query": TaskInput(value="zzzz nothing")}, outputs=["notes"]),
        Task(id="write-1", agent="writer", kind="write", aim="write",
             inputs={"notes": TaskInput(from_task="research-1", output="notes")}, outputs=["section"]),
    ])
    dead = FakeSearch(fail_queries=10**6)  # a search engine that never answers
    await Dispatcher(bp, build_task_graph(InMemorySaver()), _ctx(tmp_path, dead)).run()
    assert bp.task("research-1").status is TaskStatus.FAILED
    assert bp.task("research-1").attempts <= 3
    skipped = bp.task("write-1")
    assert skipped.status is TaskStatus.SKIPPED and "research-1" in skipped.reason


async def test_tool_exceptions_are_604_and_retried_within_budget(tmp_path):
    bp = Blueprint(report_id="r", topic="t", tasks=[
        Task(id="research-1", agent="browser", kind="research", aim="find",
             inputs={"query": TaskInput(value="wind power")}, outputs=["notes"]),
    ])
    ctx = _ctx(tmp_path, faults=FaultPlan.parse("rate=1,kinds=exception,first=2"))
    await Dispatcher(bp, build_task_graph(InMemorySaver()), ctx).run()
    task = bp.task("research-1")
    assert task.status_codes == [604, 604, 200] and task.status is TaskStatus.DONE


async def test_no_recovery_ablation_fails_at_the_first_error(tmp_path):
    bp = Blueprint(report_id="r", topic="t", tasks=[
        Task(id="research-1", agent="browser", kind="research", aim="find",
             inputs={"query": TaskInput(value="wind power")}, outputs=["notes"]),
    ])
    ctx = _ctx(tmp_path, FakeSearch(fail_queries=1), recovery=False)
    await Dispatcher(bp, build_task_graph(InMemorySaver()), ctx).run()
    assert bp.task("research-1").status is TaskStatus.FAILED
    assert bp.task("research-1").status_codes == [605]


@pytest.mark.parametrize("checkpointer", ["sqlite", "run"])
async def test_finished_tasks_are_reused_from_their_checkpoint(tmp_path, checkpointer):
    latency: dict = {}
    record: dict = {}
    agents = {name: SleepAgent(name, latency, record) for name in ("browser", "plot", "writer")}
    async with _saver(checkpointer, tmp_path) as saver:
        graph = build_task_graph(saver, agents)
        await Dispatcher(_chain_blueprint(), graph, _ctx(tmp_path)).run()
        record.clear()
        again = _chain_blueprint()  # a resumed run: same report id, statuses lost
        outputs = await Dispatcher(again, graph, _ctx(tmp_path)).run()
    assert record == {}  # nothing ran twice
    assert outputs["chart-1"] == {"chart": "chart-1.chart"}
    assert {t.status for t in again.tasks} == {TaskStatus.DONE}


@pytest.mark.parametrize("checkpointer", ["memory", "sqlite"])
async def test_the_checkpointed_task_threads_are_those_of_this_report_only(tmp_path, checkpointer):
    """Listed once per run; the SQLite saver is asked for thread names of this report only."""
    agents = {name: SleepAgent(name, {}, {}) for name in ("browser", "plot", "writer")}
    async with _saver(checkpointer, tmp_path) as saver:
        graph = build_task_graph(saver, agents)
        for report_id in ("r1", "r1-2", "r10", "r"):  # neighbours in sort order share no thread
            bp = _chain_blueprint()
            bp.report_id = report_id
            await Dispatcher(bp, graph, _ctx(tmp_path)).run()
        dispatcher = Dispatcher(_chain_blueprint(), graph, _ctx(tmp_path))
        listed = await dispatcher._checkpointed_threads()
        generic = {str(i.config["configurable"]["thread_id"]) async for i in saver.alist(None)}
    expected = {f"r1/{t}" for t in ("research-1", "research-2", "chart-1", "chart-2")}
    assert listed == expected and {t for t in generic if t.startswith("r1/")} == expected


async def test_a_fresh_task_starts_without_reading_the_checkpoint_database(tmp_path, monkeypatch):
    """RunCheckpointer answers "no checkpoint" for threads the dispatcher listed as empty; a rerun reads."""
    agents = {name: SleepAgent(name, {}, {}) for name in ("browser", "plot", "writer")}
    reads: list[str] = []
    query = AsyncSqliteSaver.aget_tuple

    async def counted(self, config):
        reads.append(config["configurable"]["thread_id"])
        return await query(self, config)

    monkeypatch.setattr(AsyncSqliteSaver, "aget_tuple", counted)
    async with _saver("run", tmp_path) as saver:
        graph = build_task_graph(saver, agents)
        await Dispatcher(_chain_blueprint(), graph, _ctx(tmp_path)).run()
        assert reads == [] and saver.known_empty == set()  # every thread written once, none read
        again = await Dispatcher(_chain_blueprint(), graph, _ctx(tmp_path)).run()  # resumed: reads each
    assert sorted(reads) == ["r1/chart-1", "r1/chart-2", "r1/research-1", "r1/research-2"]
    assert again["chart-1"] == {"chart": "chart-1.chart"}


class _AwaySaver(InMemorySaver):
    """A checkpointer whose database goes away when ``research-2`` ends (its write raises)."""

    async def aput(self, config, checkpoint, metadata, new_versions):
        if config["configurable"]["thread_id"].endswith("/research-2"):
            raise ConnectionError("the database went away")
        return await super().aput(config, checkpoint, metadata, new_versions)


def _answered(tmp_path) -> list[str]:
    return [m.task_id for m in read_messages(tmp_path / "messages.jsonl") if m.type == "AGENT_RESPONSE"]


async def test_a_checkpoint_that_cannot_be_written_stops_the_tasks_in_flight_too(tmp_path):
    """Left running, research-1 would log its 200 while the report runs again elsewhere: answered twice."""
    record: dict = {}
    agents = {name: SleepAgent(name, {"research-1": 0.6}, record) for name in ("browser", "plot", "writer")}
    graph = build_task_graph(_AwaySaver(), agents)
    with pytest.raises(ConnectionError):
        await Dispatcher(_chain_blueprint(), graph, _ctx(tmp_path)).run()
    await asyncio.sleep(1.0)  # longer than research-1 takes
    assert "research-1" not in _answered(tmp_path)


async def test_a_cancelled_dispatcher_leaves_no_task_running_behind(tmp_path):
    """A hard stop (a lost lease) cancels the task runs in flight: none logs an answer afterwards."""
    agents = {name: SleepAgent(name, {"research-1": 0.6, "research-2": 0.6}, {}) for name in ("browser", "plot")}
    graph = build_task_graph(InMemorySaver(), agents)
    run = asyncio.ensure_future(Dispatcher(_chain_blueprint(), graph, _ctx(tmp_path)).run())
    await asyncio.sleep(0.2)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    await asyncio.sleep(1.0)
    assert _answered(tmp_path) == []


def test_agents_registry_names():
    agents = default_agents()
    assert set(agents) == {"browser", "data", "plot", "writer"}
    assert {name: a.mode for name, a in agents.items()} == {
        "browser": "extractive", "data": "default", "plot": "extractive", "writer": "extractive"}
    assert asyncio.iscoroutinefunction(Dispatcher.run)


async def test_a_run_opens_the_checkpoint_file_while_another_holds_it_locked(tmp_path):
    """Two runs of one worker open the shared checkpoint file at once (CI saw "database is locked")."""
    import sqlite3
    import threading

    path = tmp_path / "cp.sqlite"
    other = sqlite3.connect(str(path), check_same_thread=False)
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.execute("BEGIN EXCLUSIVE")  # the file in rollback mode, held by another connection
    release = threading.Timer(1.0, other.commit)
    release.start()
    try:
        async with open_checkpointer(path) as saver:
            assert saver is not None
    finally:
        release.join()
        other.close()
    check = sqlite3.connect(str(path))
    assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    check.close()


def test_the_switch_to_wal_mode_is_tried_again_when_sqlite_answers_locked_at_once():
    """Two connections switching a new file at the same moment: SQLite answers one "database is locked" at
    once, without calling its busy handler (a deadlock it breaks), so the switch itself is retried."""
    import sqlite3

    from reportgen.store import sqlite_wal

    class Cursor:
        def __init__(self, owner):
            self.owner = owner

        def execute(self, sql):
            self.owner.calls.append(sql)
            if self.owner.failures:
                self.owner.failures -= 1
                raise sqlite3.OperationalError("database is locked")
            if sql == "PRAGMA journal_mode":
                return self
            self.owner.mode = "wal"
            return self

        def fetchone(self):
            return (self.owner.mode,)

        def close(self):
            pass

    class Conn:
        def __init__(self, failures):
            self.failures, self.calls, self.mode = failures, [], "delete"

        def cursor(self):
            return Cursor(self)

    conn = Conn(failures=3)
    sqlite_wal(conn)
    assert conn.mode == "wal" and conn.calls[-1] == "PRAGMA journal_mode = WAL"
    stuck = Conn(failures=10**6)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        sqlite_wal(stuck, wait_s=0.2)  # a file that stays locked: the error, after the wait
