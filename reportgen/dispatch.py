"""The dispatcher: starts every task as soon as its own dependencies are done.

LangGraph runs a graph in supersteps (Pregel / bulk-synchronous parallel): the
writes of one step are applied only when *every* node of that step has
finished. Fanning tasks out with ``Send`` would therefore hold a finished
task's dependents until the slowest sibling ends — the level-by-level barrier
the design rules out. So the dispatcher is event-driven: it keeps up to
``max_concurrency`` task-graph runs in flight and, the moment one finishes,
starts whatever that completion made ready.

Each task-graph run is checkpointed in the same SQLite database under the
thread ``"<report-id>/<task-id>"``, once, when it ends (``durability="exit"``:
only a task's final state is ever reused, and a per-step checkpoint doubled
the orchestration cost in ``make bench``). On resume the dispatcher reads a
task's final state from its thread instead of running it again, so no
finished task is ever redone; a task killed mid-way runs again from its start.
Which task threads hold a checkpoint is listed once when the run starts, so
a task with none (every task of a fresh run) starts without a read of the
checkpoint database (issue 15: one query per run instead of one per task);
the product's saver (:class:`reportgen.run.RunCheckpointer`) is told those
threads are empty, so LangGraph's own read at a task's start is answered
without a query too. Finished tasks reach the loop through a queue fed by
their done callbacks: one wake costs the same with 8 or 90 tasks in flight.
"""

from __future__ import annotations

import asyncio
import heapq
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any, Callable

from langchain_core.runnables import RunnableConfig

from reportgen.acp import AgentResponse, StatusUpdate
from reportgen.agents.nodes import AMEND_SUFFIX, TaskGraph
from reportgen.agents.runtime import RunContext
from reportgen.blueprint.model import Blueprint, Task, TaskInput, TaskStatus
from reportgen.errors import RunCanceled

__all__ = ["Dispatcher", "task_thread_id"]


class _Readiness:
    """Which pending tasks can start, kept up to date as tasks finish.

    Each finished task only touches its own dependents (no rescan of the
    blueprint per event, which made the per-task cost grow with its size), and
    ready tasks come out in blueprint order.
    """

    def __init__(self, blueprint: Blueprint) -> None:
        self.by_id = {t.id: t for t in blueprint.tasks}
        order = {t.id: i for i, t in enumerate(blueprint.tasks)}
        self.order = order
        self.waiting: dict[str, set[str]] = {}
        self.dependents: dict[str, set[str]] = defaultdict(set)
        self.heap: list[tuple[int, str]] = []
        for task in blueprint.tasks:
            if task.status is not TaskStatus.PENDING:
                continue
            deps = {d for d in task.dependencies if not self.by_id[d].status.finished}
            self.waiting[task.id] = deps
            for dep in deps:
                self.dependents[dep].add(task.id)
            if not deps:
                heapq.heappush(self.heap, (order[task.id], task.id))

    def pop(self) -> Task | None:
        """The next ready task in blueprint order, or ``None``."""
        while self.heap:
            _, task_id = heapq.heappop(self.heap)
            if self.waiting.pop(task_id, None) is not None:
                return self.by_id[task_id]
        return None

    def has_ready(self) -> bool:
        """True when a task is ready to start."""
        return any(task_id in self.waiting for _, task_id in self.heap)

    def finished(self, task: Task) -> None:
        """``task`` finished (done, failed or skipped): release its dependents."""
        for child in self.dependents.pop(task.id, ()):
            deps = self.waiting.get(child)
            if deps is not None:
                deps.discard(task.id)
                if not deps:
                    heapq.heappush(self.heap, (self.order[child], child))


def task_thread_id(report_id: str, task_id: str) -> str:
    """The checkpoint thread of one task's run: ``"<report-id>/<task-id>"``."""
    return f"{report_id}/{task_id}"


def _is_sqlite_saver(saver: Any) -> bool:
    """True for LangGraph's ``AsyncSqliteSaver`` (its module is already imported when one exists)."""
    module = sys.modules.get("langgraph.checkpoint.sqlite.aio")
    return module is not None and isinstance(saver, module.AsyncSqliteSaver)


async def _stop(running: Mapping[asyncio.Future, Task]) -> None:
    """Cancel the task runs still in flight and wait until they have ended.

    When the dispatcher leaves by an error (a checkpoint the database could not
    write) or is itself cancelled (a lost lease, a hard stop), a task run left
    behind would go on and log its AGENT_RESPONSE while the report runs again
    elsewhere: the same task answered twice. Cancelled here, it logs nothing
    and runs again from its start on resume.

    Args:
        running: The task futures in flight, with their tasks.
    """
    for future in running:
        future.cancel()
    if running:
        await asyncio.wait(list(running))


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Dispatcher:
    """Runs a blueprint's tasks through the task graph, as early as dependencies allow.

    Args:
        blueprint: The execution blueprint; task statuses are updated in place.
        task_graph: The compiled task graph (with its checkpointer).
        ctx: The run context passed to every agent.
        max_concurrency: Most tasks in flight at once (>= 1).
        on_change: Called after every task state change, e.g. to save
            ``blueprint.json`` and refresh a progress display.
        cancel: When set, no new task starts; tasks in flight finish, then
            :meth:`run` raises :class:`~reportgen.errors.RunCanceled`.
        agents: The registered agents' task kinds by name, or their names
            (to validate amendments; the amendment's research step goes to
            the agent serving ``research``).

    The run's deadline (``ctx.deadline``, a ``time.monotonic()`` value) is
    never exceeded: when it passes, tasks in flight are stopped and marked
    failed, pending tasks are skipped, and :meth:`run` returns what is done.
    A task whose recovery asks for an amendment (ACP 601) gets a new research
    step that fetches its missing notes; it then runs again with its attempt
    count carried over, so its budget still holds.
    """

    def __init__(
        self,
        blueprint: Blueprint,
        task_graph: TaskGraph,
        ctx: RunContext,
        *,
        max_concurrency: int = 8,
        on_change: Callable[[Blueprint], None] | None = None,
        cancel: asyncio.Event | None = None,
        agents: Mapping[str, Iterable[str]] | Iterable[str] = ("browser", "plot", "writer"),
    ) -> None:
        self.blueprint = blueprint
        self.graph = task_graph
        self.ctx = ctx
        self.max_concurrency = max(1, int(max_concurrency))
        self.on_change = on_change or (lambda bp: None)
        self.outputs: dict[str, dict[str, Any]] = {}
        self._checkpointed: set[str] | None = None
        self.cancel = cancel
        self.agents = agents
        self.research_agent = next(
            (name for name, kinds in agents.items() if "research" in kinds), "browser"
        ) if isinstance(agents, Mapping) else "browser"

    async def run(self, outputs: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
        """Run every pending task; return the outputs of the tasks that succeeded.

        Args:
            outputs: Outputs of tasks already done (from the outer checkpoint).

        Returns:
            ``{task_id: {output_name: value}}`` for every task that is done.

        Raises:
            RunCanceled: ``cancel`` was set; finished tasks stay checkpointed.
        """
        self.outputs = dict(outputs or {})
        self._checkpointed = await self._checkpointed_threads()
        known_empty = getattr(getattr(self.graph, "checkpointer", None), "known_empty", None)
        if self._checkpointed is not None and isinstance(known_empty, set):  # reportgen.run.RunCheckpointer
            known_empty.update(
                thread for task in self.blueprint.tasks
                if (thread := task_thread_id(self.blueprint.report_id, task.id)) not in self._checkpointed
            )
        for stale in self.blueprint.tasks:
            if stale.status is TaskStatus.RUNNING:  # interrupted by a kill: run again
                stale.status = TaskStatus.PENDING
        running: dict[asyncio.Future, Task] = {}
        ready = _Readiness(self.blueprint)
        # Finished task futures arrive here (their done callback), so waking on a completion
        # costs O(1): asyncio.wait on every running future re-registered a callback on each
        # of them per completion, O(tasks in flight) each time (issue 15, make bench).
        finished_queue: asyncio.Queue[asyncio.Future | None] = asyncio.Queue()
        cancel_watch: asyncio.Future | None = None
        if self.cancel is not None:
            cancel_watch = asyncio.ensure_future(self.cancel.wait())
            cancel_watch.add_done_callback(lambda _: finished_queue.put_nowait(None))  # wakes the loop
        try:
            return await self._loop(running, ready, finished_queue)
        except BaseException:
            await _stop(running)
            raise
        finally:
            if cancel_watch is not None:
                cancel_watch.cancel()

    async def _loop(self, running: dict[asyncio.Future, Task], ready: _Readiness,
                    finished_queue: asyncio.Queue[asyncio.Future | None]) -> dict[str, dict[str, Any]]:
        while True:
            canceled = self.cancel is not None and self.cancel.is_set()
            if self._past_deadline():
                await self._stop_at_deadline(running)
                break
            if self.ctx.llm is not None and self.ctx.llm.budget_reached() and not canceled:
                canceled = True  # stop new work cleanly; what is done is still rendered
                self._skip_pending("not started: the token budget was reached")
            while not canceled and len(running) < self.max_concurrency:
                task = ready.pop()
                if task is None:
                    break
                if task.status is not TaskStatus.PENDING:
                    continue
                inputs = self._resolve_inputs(task)
                if inputs is None:  # skipped: its required input failed
                    ready.finished(task)
                    self.on_change(self.blueprint)
                    continue
                task.status = TaskStatus.RUNNING
                task.started_at = task.started_at or _now()
                self.ctx.log.append(
                    StatusUpdate(task_id=task.id, agent=task.agent, status="running",
                                 detail=task.aim, attempt=task.attempts + 1)
                )
                self.on_change(self.blueprint)
                future = asyncio.ensure_future(self._run_task(task, inputs))
                future.add_done_callback(finished_queue.put_nowait)
                running[future] = task
            if not running:
                if canceled and self.cancel is not None and self.cancel.is_set():
                    self.ctx.log.append(StatusUpdate(task_id="run", status="canceled",
                                                     detail="canceled; stopped at a task boundary"))
                    raise RunCanceled("the run was canceled; it stopped at a task boundary")
                if not canceled and ready.has_ready():
                    continue  # skipping made new tasks ready
                break
            amended = False
            for fut in await self._finished(finished_queue):
                task = running.pop(fut)
                fut.result()  # dispatcher bugs must surface, agent failures never raise
                if task.status is TaskStatus.PENDING:  # amended: a new step comes first
                    amended = True
                else:
                    ready.finished(task)
            if amended:
                ready = _Readiness(self.blueprint)
            self.on_change(self.blueprint)
        return self.outputs

    async def _finished(self, queue: asyncio.Queue[asyncio.Future | None]) -> list[asyncio.Future]:
        """The task futures that finished: waits for one (or the cancel event, or the deadline), then takes all."""
        remaining = self._remaining()
        try:
            if remaining is None:
                first = await queue.get()
            else:
                first = await asyncio.wait_for(queue.get(), remaining)
        except TimeoutError:  # the deadline: the loop stops what runs
            return []
        items = [first]
        while not queue.empty():
            items.append(queue.get_nowait())
        return [item for item in items if item is not None]  # None: the cancel event was set

    async def _checkpointed_threads(self) -> set[str] | None:
        """The task threads of this report that hold a checkpoint; ``None`` if the saver cannot list them.

        Read once per run. LangGraph's SQLite saver is asked for the thread
        names only, by a range over its primary key (``thread_id`` first), so
        the cost does not grow with every report the data dir ever held; its
        ``alist`` loads and deserialises every checkpoint of every report,
        which took 30 ms after eight reports and grows without bound (issue
        15: time to the first task). Any other saver (Postgres, memory) is
        listed with its own ``alist``. With ``None`` every task asks for its
        own state, as before.
        """
        saver = getattr(self.graph, "checkpointer", None)
        if saver is None or isinstance(saver, bool) or not hasattr(saver, "alist"):
            return None
        prefix = task_thread_id(self.blueprint.report_id, "")
        if _is_sqlite_saver(saver):
            await saver.setup()
            # thread ids between "<report-id>/" and "<report-id>0" ("0" follows "/" in code point order)
            async with saver.lock, saver.conn.execute(
                "SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id >= ? AND thread_id < ?",
                (prefix, prefix[:-1] + chr(ord("/") + 1)),
            ) as cursor:
                return {str(row[0]) async for row in cursor}
        threads: set[str] = set()
        try:
            async for item in saver.alist(None):
                thread = str(item.config.get("configurable", {}).get("thread_id", ""))
                if thread.startswith(prefix):
                    threads.add(thread)
        except NotImplementedError:
            return None
        return threads

    def _skip_pending(self, reason: str) -> None:
        for task in self.blueprint.tasks:
            if task.status is TaskStatus.PENDING:
                task.status = TaskStatus.SKIPPED
                task.finished_at = _now()
                task.reason = reason
                self.ctx.log.append(StatusUpdate(task_id=task.id, agent=task.agent, status="skipped",
                                                 detail=reason))

    def _remaining(self) -> float | None:
        if self.ctx.deadline is None:
            return None
        return max(0.0, self.ctx.deadline - time.monotonic())

    def _past_deadline(self) -> bool:
        return self.ctx.deadline is not None and time.monotonic() >= self.ctx.deadline

    async def _stop_at_deadline(self, running: dict[asyncio.Future, Task]) -> None:
        """Stop tasks in flight and skip the rest: the run's deadline is never exceeded."""
        for fut, task in running.items():
            fut.cancel()
            task.status = TaskStatus.FAILED
            task.finished_at = _now()
            task.reason = "stopped: the run deadline was reached while it ran"
        if running:
            await asyncio.gather(*running, return_exceptions=True)
        for task in self.blueprint.tasks:
            if task.status is TaskStatus.PENDING:
                task.status = TaskStatus.SKIPPED
                task.finished_at = _now()
                task.reason = "not started: the run deadline was reached"
        for task in self.blueprint.tasks:
            if task.reason.startswith(("stopped: the run deadline", "not started: the run deadline")):
                self.ctx.log.append(StatusUpdate(task_id=task.id, agent=task.agent,
                                                 status=task.status.value, detail=task.reason))
        self.on_change(self.blueprint)

    def _amend(self, task: Task, reason: str) -> None:
        """Add a research step fetching ``task``'s missing notes and rewire the task to it."""
        step_id = f"{task.id}{AMEND_SUFFIX}"
        subject = task.inputs.get("subject") or task.inputs.get("title")
        query = subject.value if subject is not None and subject.value else self.blueprint.topic
        step = Task(
            id=step_id, agent=self.research_agent, kind="research", section=task.section,
            aim=f"Fetch the notes {task.id} is missing ({query})",
            inputs={"query": TaskInput(value=query), "k": TaskInput(value=8)},
            outputs=["notes"],
        )
        if step_id not in {t.id for t in self.blueprint.tasks}:
            self.blueprint.tasks.append(step)
        task.inputs["notes"] = TaskInput(from_task=step_id, output="notes")
        task.status = TaskStatus.PENDING
        self.blueprint.validate_dag(self.agents)
        self.ctx.log.append(
            StatusUpdate(task_id=task.id, agent=task.agent, attempt=task.attempts, status="amend",
                         detail=f"{reason}: added step {step_id!r}", status_code=601)
        )

    def _resolve_inputs(self, task: Task) -> dict[str, Any] | None:
        """Input values of ``task``; ``None`` (and the task skipped) if a required one is missing."""
        values: dict[str, Any] = {}
        for name, inp in task.inputs.items():
            if inp.from_task is None:
                values[name] = inp.value
                continue
            produced = self.outputs.get(inp.from_task)
            if produced is not None and inp.output in produced:
                values[name] = produced[inp.output]
                continue
            producer = self.blueprint.task(inp.from_task)
            if inp.optional:
                values[name] = None
                task.degraded = True
                continue
            task.status = TaskStatus.SKIPPED
            task.finished_at = _now()
            task.reason = (
                f"skipped: it needs {inp.output!r} from task {producer.id!r}, which "
                f"{producer.status.value}" + (f" ({producer.reason})" if producer.reason else "")
            )
            self.ctx.log.append(
                StatusUpdate(task_id=task.id, agent=task.agent, status="skipped", detail=task.reason)
            )
            return None
        return values

    async def _run_task(self, task: Task, inputs: dict[str, Any]) -> None:
        thread = task_thread_id(self.blueprint.report_id, task.id)
        config: RunnableConfig = {"configurable": {"thread_id": thread}}
        state: dict[str, Any] = {}
        if self._checkpointed is None or thread in self._checkpointed:  # a task of an earlier run
            snapshot = await self.graph.aget_state(config)
            state = snapshot.values if snapshot and not snapshot.next else {}
        if state.get("final") in ("done", "failed"):
            self.ctx.log.append(
                StatusUpdate(task_id=task.id, agent=task.agent, status="reused",
                             detail="finished before the run was interrupted; output reused")
            )
        else:
            state = await self.graph.ainvoke(
                {"task": task.model_dump(mode="json"), "inputs": inputs, "attempt": task.attempts,
                 "strategy": "default", "tried": [], "codes": list(task.status_codes), "final": ""},
                config,
                context=self.ctx,
                durability="exit",  # only a task's final state is ever reused
            )
            if state.get("final") == "done" and state.get("response"):  # checkpointed now: its 200 is logged once
                self.ctx.log.append(AgentResponse.model_validate(state["response"]))
        task.attempts = state.get("attempt", 0)
        task.status_codes = list(state.get("codes", []))
        if state.get("final") == "amend":
            self._amend(task, state.get("reason", "amend"))
            return
        task.finished_at = _now()
        if state.get("final") == "done":
            task.status = TaskStatus.DONE
            self.outputs[task.id] = state.get("outputs") or {}
            status = "done"
        else:
            task.status = TaskStatus.FAILED
            task.reason = state.get("reason") or "failed"
            status = "failed"
        self.ctx.log.append(
            StatusUpdate(task_id=task.id, agent=task.agent, attempt=task.attempts, status=status,
                         detail=task.reason, status_code=task.status_codes[-1] if task.status_codes else None)
        )
