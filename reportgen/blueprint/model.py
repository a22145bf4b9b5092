"""The execution blueprint: a DAG of tasks, each run by one agent.

A task declares its inputs — each either given by the planner (``value``) or
taken from a named output of another task (``from_task`` + ``output``) — and
the outputs it produces. Dependencies are the union of the declared
``depends_on`` and the tasks its inputs come from. :meth:`Blueprint.validate`
refuses cycles, unknown agents and unresolvable inputs before anything runs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

import pydantic_core
from pydantic import BaseModel, Field, model_validator

from reportgen.acp.codes import StatusCode
from reportgen.errors import CycleError, UnknownAgentError, UnresolvedInputError

__all__ = ["Blueprint", "Task", "TaskInput", "TaskStatus"]


class TaskStatus(str, Enum):
    """Lifecycle of a task in the blueprint."""

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"

    @property
    def finished(self) -> bool:
        """True when the task will not run again in this run."""
        return self in (TaskStatus.DONE, TaskStatus.FAILED, TaskStatus.SKIPPED)


class TaskInput(BaseModel):
    """One input of a task.

    Exactly one of ``value`` (planner-given, ``source == "llm"`` in ACP terms)
    or ``from_task`` + ``output`` must be set.

    Attributes:
        value: A literal value given by the planner.
        from_task: Id of the task whose output feeds this input.
        output: Name of that task's output.
        optional: When True the task still runs (degraded) if the producing
            task failed; when False the task is skipped.
    """

    value: Any = None
    from_task: str | None = None
    output: str | None = None
    optional: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> "TaskInput":
        if (self.from_task is None) != (self.output is None):
            raise ValueError("from_task and output go together")
        return self

    @property
    def source(self) -> str:
        """ACP parameter source: ``"llm"`` or ``"<task>.<output>"``."""
        return "llm" if self.from_task is None else f"{self.from_task}.{self.output}"


class Task(BaseModel):
    """A node of the execution blueprint.

    Attributes:
        id: Unique, ASCII id (``"research-2"``).
        agent: Name of the agent that runs it (``"browser"``, ``"plot"``, ``"writer"``).
        kind: What the task does (``"research"``, ``"chart"``, ``"write"``,
            ``"introduction"``, ``"conclusion"``).
        aim: One sentence for people: what the task is for.
        inputs: Named inputs.
        outputs: Names of the outputs the task produces.
        depends_on: Extra dependencies besides those implied by inputs.
        section: Id of the report section the task serves, if any.
        status: Current lifecycle state.
        attempts: Attempts made so far (the first run counts as one).
        status_codes: ACP codes seen, in order (200 on success).
        reason: Why the task failed or was skipped, for the Limitations note.
        degraded: True when it ran without some optional input.
        started_at: When the first attempt started (UTC).
        finished_at: When it finished (UTC).
    """

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
    agent: str
    kind: str
    aim: str
    inputs: dict[str, TaskInput] = Field(default_factory=dict)
    outputs: list[str] = Field(default_factory=list)
    depends_on: list[str] = Field(default_factory=list)
    section: str | None = None
    status: TaskStatus = TaskStatus.PENDING
    attempts: int = 0
    status_codes: list[int] = Field(default_factory=list)
    reason: str = ""
    degraded: bool = False
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def dependencies(self) -> list[str]:
        """Every task this one waits for: ``depends_on`` plus input producers, in order."""
        deps = list(self.depends_on)
        for inp in self.inputs.values():
            if inp.from_task and inp.from_task not in deps:
                deps.append(inp.from_task)
        return deps

    @property
    def duration_s(self) -> float | None:
        """Wall time from start to finish in seconds, when both are known."""
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None


class Blueprint(BaseModel):
    """The execution blueprint of one report.

    Attributes:
        report_id: The report this blueprint belongs to.
        topic: The request as the user typed it.
        subject: What it is about (:func:`reportgen.blueprint.request.read_request`);
            agents search and rank by it. Default: the topic.
        note: What the planner wants the reader told near the top (the corpora
            hold little on the subject itself), or ``""``.
        note_titles: The titles the note says the report draws on, in its order (the subject's core texts,
            :func:`~reportgen.blueprint.planner.thin_note`); the coordinator keeps there only those the report
            cites (:func:`~reportgen.coordinate.coordinate`).
        aspects: What the request asks about besides its subject, as the planner read it ("adoption rates",
            the "twinkle" of "Why do stars twinkle?"); the coordinator names at the top the ones no quoted
            sentence writes (:func:`~reportgen.blueprint.planner.unanswered_note`).
        tasks: Tasks in planning order (a valid topological order is not required).
    """

    report_id: str
    topic: str
    subject: str = ""
    note: str = ""
    note_titles: list[str] = Field(default_factory=list)
    aspects: list[str] = Field(default_factory=list)
    tasks: list[Task] = Field(default_factory=list)

    def task(self, task_id: str) -> Task:
        """Return the task with ``task_id``.

        Raises:
            KeyError: No such task.
        """
        for t in self.tasks:
            if t.id == task_id:
                return t
        raise KeyError(task_id)

    def validate_dag(self, agents: Iterable[str] | Mapping[str, Iterable[str]]) -> list[str]:
        """Check the blueprint and return its task ids in a topological order.

        Args:
            agents: Names of the registered agents, or the task kinds each
                serves by name (the registry's :meth:`~reportgen.agents.registry.Registry.kinds`);
                then a task whose kind its agent does not serve is refused too.

        Returns:
            Task ids, dependencies first.

        Raises:
            UnknownAgentError: A task names an agent not in ``agents``, or a
                kind its agent does not serve.
            UnresolvedInputError: Duplicate ids, or an input or dependency names a
                task that does not exist or an output that task does not declare.
            CycleError: The dependencies form a cycle (the cycle is named).
        """
        kinds = {name: set(k) for name, k in agents.items()} if isinstance(agents, Mapping) else None
        known = set(agents)
        by_id: dict[str, Task] = {}
        for t in self.tasks:
            if t.id in by_id:
                raise UnresolvedInputError(f"task id {t.id!r} is used twice")
            by_id[t.id] = t
        for t in self.tasks:
            if t.agent not in known:
                raise UnknownAgentError(
                    f"task {t.id!r} names agent {t.agent!r}; known agents: {', '.join(sorted(known))}"
                )
            if kinds is not None and kinds[t.agent] and t.kind not in kinds[t.agent]:
                raise UnknownAgentError(
                    f"task {t.id!r} is a {t.kind!r} task, which agent {t.agent!r} does not do "
                    f"(it does: {', '.join(sorted(kinds[t.agent]))})"
                )
            for name, inp in t.inputs.items():
                if inp.from_task is None:
                    continue
                src = by_id.get(inp.from_task)
                if src is None:
                    raise UnresolvedInputError(
                        f"input {name!r} of task {t.id!r} comes from unknown task {inp.from_task!r}"
                    )
                if inp.output not in src.outputs:
                    raise UnresolvedInputError(
                        f"input {name!r} of task {t.id!r} needs output {inp.output!r}, "
                        f"which task {src.id!r} does not produce (it produces: {', '.join(src.outputs) or 'nothing'})"
                    )
            for dep in t.depends_on:
                if dep not in by_id:
                    raise UnresolvedInputError(f"task {t.id!r} depends on unknown task {dep!r}")
        return self._topological_order(by_id)

    def _topological_order(self, by_id: dict[str, Task]) -> list[str]:
        indegree = {tid: 0 for tid in by_id}
        children: dict[str, list[str]] = {tid: [] for tid in by_id}
        for t in self.tasks:
            for dep in t.dependencies:
                indegree[t.id] += 1
                children[dep].append(t.id)
        queue = deque(tid for tid, n in indegree.items() if n == 0)
        order: list[str] = []
        while queue:
            tid = queue.popleft()
            order.append(tid)
            for child in children[tid]:
                indegree[child] -= 1
                if indegree[child] == 0:
                    queue.append(child)
        if len(order) < len(by_id):
            raise CycleError(
                f"the blueprint has a cycle: {' -> '.join(self._find_cycle(by_id))} "
                "(each task waits for the next)"
            )
        return order

    @staticmethod
    def _find_cycle(by_id: dict[str, Task]) -> list[str]:
        colour: dict[str, int] = {}
        stack: list[str] = []

        def visit(tid: str) -> list[str] | None:
            colour[tid] = 1
            stack.append(tid)
            for dep in by_id[tid].dependencies:
                if colour.get(dep) == 1:
                    return stack[stack.index(dep):] + [dep]
                if colour.get(dep) is None:
                    found = visit(dep)
                    if found:
                        return found
            colour[tid] = 2
            stack.pop()
            return None

        for tid in by_id:
            if tid not in colour:
                found = visit(tid)
                if found:
                    return found
        return []  # pragma: no cover - only called when a cycle exists

    def ready(self) -> list[Task]:
        """Pending tasks whose dependencies have all finished (done, failed or skipped)."""
        status = {t.id: t.status for t in self.tasks}
        return [
            t
            for t in self.tasks
            if t.status is TaskStatus.PENDING and all(status[d].finished for d in t.dependencies)
        ]

    def dependents(self, task_id: str) -> list[Task]:
        """Tasks that depend directly on ``task_id``."""
        return [t for t in self.tasks if task_id in t.dependencies]

    def found_nothing(self, task: Task) -> bool:
        """Whether a failed task only found nothing to use, leaving the report whole: a chart whose sources
        print no data (its section written all the same), or an introduction or conclusion the sources hold
        no sentence for that the body does not quote already, each ending on 605 (INCOMPLETE_INFORMATION).
        The report lists them at the end without counting them at the top, and its appendix and the command
        line do not count them as failed (a run of six whole sections had read "5 failed").

        Args:
            task: One of this blueprint's tasks.

        Returns:
            True for such a task; False for any other, failed or not.
        """
        code = next((c for c in reversed(task.status_codes) if c != 200), None)
        return task.status is TaskStatus.FAILED and code == StatusCode.INCOMPLETE_INFORMATION and (
            task.kind == "chart" and all(t.status is TaskStatus.DONE for t in self.dependents(task.id))
            or task.kind in ("introduction", "conclusion"))

    def lacks_input(self, task: Task) -> bool:
        """Whether a task that ran without an optional input lacks it: the task meant to give it failed or did
        not run, and did not only find nothing to use (:meth:`found_nothing`). A section written without a
        chart its sources print no data for is whole, not degraded.

        Args:
            task: One of this blueprint's tasks.

        Returns:
            True when the task is degraded by a real failure; False when it is whole.
        """
        if not task.degraded:
            return False
        producers = {inp.from_task for inp in task.inputs.values() if inp.from_task and inp.optional}
        missing = [t for t in self.tasks if t.id in producers and t.status is not TaskStatus.DONE]
        return not missing or not all(self.found_nothing(t) for t in missing)

    def summary(self) -> dict[str, int]:
        """Count of tasks per status, e.g. ``{"done": 17, "failed": 1}``."""
        counts: dict[str, int] = {}
        for t in self.tasks:
            counts[t.status.value] = counts.get(t.status.value, 0) + 1
        return counts

    def save(self, path: Path) -> None:
        """Write ``blueprint.json`` atomically.

        The file holds ``report_id``, ``topic`` and ``tasks[]`` with
        ``id, agent, kind, aim, inputs, outputs, depends_on`` (all
        dependencies, input producers included), ``status``, ``attempts``,
        ``status_codes``, ``reason``, ``degraded`` and timings.
        """
        from reportgen.render.files import write_text_atomic

        data = self.model_dump(mode="json")
        for raw, task in zip(data["tasks"], self.tasks, strict=True):
            raw["depends_on"] = task.dependencies
            raw["duration_s"] = task.duration_s
        # pydantic-core's encoder (Rust): json.dumps with an indent is pure Python, about 6x slower,
        # and the pipeline saves this file while tasks run (issue 15)
        write_text_atomic(Path(path), pydantic_core.to_json(data, indent=2).decode("utf-8") + "\n")

    @classmethod
    def load(cls, path: Path) -> "Blueprint":
        """Read a ``blueprint.json`` written by :meth:`save`."""
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))
