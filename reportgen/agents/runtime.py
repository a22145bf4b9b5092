"""The three-phase ACP runtime that every agent runs for every attempt of a task.

An :class:`Agent` is a declared spec (:mod:`reportgen.agents.spec`) plus a
:class:`Brain` chosen per model role (extractive or model): the spec decides
what goes in and out, the brain does the work, and the verifiers of
:mod:`reportgen.agents.verify` check what either brain produced.

1. ``AGENT_REQUEST`` — the spec's typed inputs are checked (601 missing, 603
   wrong type), then :meth:`Brain.build_request` turns them into tool-call
   parameters, or raises an :class:`AgentError` with 601 / 602 / 603.
2. ``TOOL_CALL`` — :meth:`Brain.call` runs the tool under a deadline; any
   exception or a timeout becomes 604 TOOL_CALL_FAILURE.
3. ``AGENT_RESPONSE`` — :meth:`Brain.check_response` builds the outputs, the
   verifier of each declared output checks them, and every declared output
   must be there (605 / 606 / 607).

Each phase is logged to ``messages.jsonl``; a failure also posts an
``ASSISTANCE_REQUEST`` that the recovery node answers.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.acp import (
    AgentRequest,
    AgentResponse,
    AssistanceRequest,
    MessageLog,
    Parameter,
    StatusCode,
)
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError
from reportgen.faults import FaultPlan
from reportgen.llm import LLM, ModelOutputError
from reportgen.sources.models import SearchBackend

if TYPE_CHECKING:
    from reportgen.agents.spec import AgentSpec

__all__ = ["Agent", "Attempt", "Brain", "RunContext", "require_notes", "run_attempt"]


@dataclass
class RunContext:
    """What agents may use during a run (not checkpointed; rebuilt on resume).

    Attributes:
        topic: The report topic.
        lang: Report language (``"en"``, ``"es"``, ``"fr"``).
        search: The search backend over every configured corpus.
        log: The run's ACP message log.
        tool_timeout_s: Deadline of one tool call, in seconds.
        task_attempts: Attempt budget of one task (first attempt included).
        recovery: When False, errors are not routed to recovery: a failed
            attempt fails the task (the ACP paper's ablation).
        backoff_scale: Multiplier on retry delays (0 in tests).
        faults: Fault injection plan (tests and benchmarks); ``None`` in normal runs.
        deadline: ``time.monotonic()`` value at which the run stops starting
            and running tasks (``None``: no deadline).
        llm: The run's model clients; ``None`` in extractive mode.
        executor: Thread pool of the tool calls (sized to the run's
            concurrency); ``None``: the event loop's default pool.
        corpus_dirs: The user's document folders searched in this run
            (agents that read files, e.g. tables, look there).
        chart_kinds: Chart drawing functions by kind, from the registry
            (``register_chart_kinds``); empty: the built-in bar and line.
        extra: Agent-specific shared objects (e.g. the run's sentence registry).
    """

    topic: str
    lang: str
    search: SearchBackend
    log: MessageLog
    tool_timeout_s: float = 60.0
    task_attempts: int = 3
    recovery: bool = True
    backoff_scale: float = 1.0
    faults: FaultPlan | None = None
    deadline: float | None = None
    llm: LLM | None = None
    executor: Executor | None = None
    corpus_dirs: list[Path] = field(default_factory=list)
    chart_kinds: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Attempt:
    """The outcome of one attempt of one task.

    Attributes:
        status_code: 200 or the ACP error code.
        outputs: The task's outputs when ``status_code`` is 200.
        error: The failure description otherwise.
        resolution: The suggested resolution posted with the failure.
        stage: ``"request"``, ``"tool_call"`` or ``"response"`` for failures.
        retry_after_s: The delay a rate-limited tool asked for (``Retry-After``),
            read from the exception's ``retry_after_s`` attribute.
        response: The ``AGENT_RESPONSE`` (200) of a successful attempt, not yet
            logged: the dispatcher logs it once the task's final state is
            checkpointed, so a run killed in between runs the task again
            without a first 200 in ``messages.jsonl`` (no task answers 200 twice).
    """

    status_code: StatusCode
    outputs: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    resolution: str = ""
    stage: str = ""
    retry_after_s: float | None = None
    response: AgentResponse | None = None


class Brain:
    """What does an agent's work: the three phases, for one agent spec.

    A brain is made by its registered factory from the agent's spec
    (``factory(spec)``); :attr:`spec` is ``None`` for a brain used on its own
    (tests). ``strategy`` is the recovery node's choice for the attempt
    (``"default"`` first; e.g. ``"broaden"`` after a 605).

    Attributes:
        name: The agent name it runs for (from the spec when bound).
        tool: The endpoint logged in ``AGENT_REQUEST`` (the spec's first tool).
        kinds: Task kinds it accepts (empty: any).
        provides: Names of the built-in tools it implements (``None``: any),
            checked against the spec's ``tools`` when the registry loads.
    """

    name: str = "agent"
    tool: str = "tool"
    kinds: tuple[str, ...] = ()
    provides: tuple[str, ...] | None = None

    def __init__(self, spec: AgentSpec | None = None) -> None:
        self.spec = spec
        if spec is not None:
            self.name, self.tool, self.kinds = spec.name, spec.tool, tuple(spec.kinds)

    def check_step(self, task: Task) -> None:
        """Refuse a step this agent cannot do.

        Raises:
            AgentError: 602 WRONG_STEP_DETAILS when the task's kind is not
                one of :attr:`kinds`.
        """
        if self.kinds and task.kind not in self.kinds:
            raise AgentError(
                StatusCode.WRONG_STEP_DETAILS,
                f"the {self.name} agent cannot do a {task.kind!r} step (it does: {', '.join(self.kinds)})",
                "rebuild the step from the blueprint",
            )

    def build_request(
        self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext
    ) -> dict[str, Any]:
        """Phase 1: return the tool-call parameters.

        Raises:
            AgentError: 601, 602 or 603.
        """
        raise NotImplementedError

    def call(self, params: dict[str, Any], ctx: RunContext) -> Any:
        """Phase 2: run the tool (in a worker thread). Exceptions become 604."""
        raise NotImplementedError

    def check_response(
        self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext
    ) -> dict[str, Any]:
        """Phase 3: validate ``raw`` and return the task's outputs.

        Raises:
            AgentError: 605, 606 or 607.
        """
        raise NotImplementedError


class Agent:
    """One registered agent, bound to the brain chosen for this run.

    The spec is the contract (typed inputs, declared outputs, recovery
    policy); the brain does the work; the verifier of each output
    (:data:`reportgen.agents.verify.VERIFIERS`) checks what the brain
    produced, whichever brain it was.

    Args:
        spec: The agent's spec.
        brain: Its brain, made from the spec.
        mode: ``"extractive"``, ``"model"`` or ``"default"``.
        brain_name: The registered brain's name (for ``report.json``).
        model: The model the brain uses, in model mode.
    """

    def __init__(self, spec: AgentSpec, brain: Brain, *, mode: str, brain_name: str, model: str | None = None) -> None:
        self.spec, self.brain, self.mode, self.brain_name, self.model = spec, brain, mode, brain_name, model
        self.name, self.tool, self.kinds = spec.name, spec.tool, tuple(spec.kinds)
        self.policy = spec.recovery.policy()
        self.attempts = spec.recovery.attempts

    def describe(self) -> dict[str, Any]:
        """``{"brain", "mode", "model", "role"}`` for ``report.json``."""
        return {"brain": self.brain_name, "mode": self.mode, "model": self.model, "role": self.spec.role}

    def check_step(self, task: Task) -> None:
        """Refuse a task kind the agent does not serve (602)."""
        Brain.check_step(self, task)  # type: ignore[arg-type]

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        """Check the spec's typed inputs, then let the brain build the request.

        Raises:
            AgentError: 601 for a missing required input, 603 for a value of
                the wrong type, or what the brain raises.
        """
        for name, spec in self.spec.inputs.items():
            value = inputs.get(name)
            if value is None and spec.required:
                raise AgentError(StatusCode.MISSING_REQUIRED_PARAMETERS,
                                 f"the {self.name} agent's required input {name!r} is missing")
            if not spec.accepts(value):
                raise AgentError(StatusCode.INVALID_PARAMETER_USAGE,
                                 f"input {name!r} must be of type {spec.type}, not {type(value).__name__}")
        return self.brain.build_request(task, inputs, strategy, ctx)

    def call(self, params: dict[str, Any], ctx: RunContext) -> Any:
        """Run the brain's tool call."""
        return self.brain.call(params, ctx)

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        """The brain's outputs, verified, with every output the task declares.

        Raises:
            AgentError: 605 / 606 / 607 from the brain or a verifier; 606 when
                a declared output is missing (the dependents need it).
        """
        from reportgen.agents.verify import verify_outputs

        outputs = self.brain.check_response(task, params, raw, ctx)
        missing = [name for name in task.outputs if name not in outputs]
        if missing:
            raise AgentError(StatusCode.DEPENDENCY_INCOMPLETE_INFORMATION,
                             f"the {self.name} agent produced no {', '.join(map(repr, missing))}",
                             "ask again for every declared output")
        verify_outputs(outputs, raw, ctx)
        return outputs


def require_notes(inputs: dict[str, Any]) -> list[Any]:
    """The ``notes`` input of a plot or writer task, checked.

    Raises:
        AgentError: 601 when the notes are absent, 603 when they are not a list.
    """
    notes = inputs.get("notes")
    if notes is None:
        raise AgentError(StatusCode.MISSING_REQUIRED_PARAMETERS, "the research notes are missing")
    if not isinstance(notes, list):
        raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "notes must be a list of passages")
    return notes


def _summarise(value: Any) -> Any:
    """Shorten a parameter value for the log (lists of passages become counts)."""
    if isinstance(value, str):
        return value if len(value) <= 300 else value[:297] + "..."
    if isinstance(value, (list, tuple)):
        return f"<{len(value)} items>"
    if isinstance(value, dict):
        return f"<object with {len(value)} keys>"
    return value


async def run_attempt(
    agent: Agent,
    task: Task,
    inputs: dict[str, Any],
    *,
    attempt: int,
    strategy: str,
    ctx: RunContext,
) -> Attempt:
    """Run one attempt of ``task`` through the three ACP phases.

    Args:
        agent: The agent named by ``task.agent``.
        task: The task.
        inputs: Resolved input values, by input name (``None`` for a missing
            optional input).
        attempt: 1-based attempt number, logged with every message.
        strategy: The recovery strategy for this attempt.
        ctx: The run context.

    Returns:
        The attempt's outcome. Never raises for agent or tool failures: those
        become an ``Attempt`` with an error code and an ``ASSISTANCE_REQUEST``.
    """
    common = {"task_id": task.id, "agent": agent.name, "attempt": attempt}
    fault = ctx.faults.draw(agent.name, task.id) if ctx.faults is not None else None
    if fault is not None and ctx.faults is not None:
        inputs, task = ctx.faults.corrupt_request(fault, inputs, task)
    try:
        agent.check_step(task)
        params = agent.build_request(task, inputs, strategy, ctx)
    except AgentError as exc:
        return _fail(ctx, common, agent, exc.status_code, "request", str(exc), exc.resolution)
    body = {
        name: Parameter(
            value=_summarise(value),
            source=task.inputs[name].source if name in task.inputs else "agent",
        )
        for name, value in params.items()
    }
    ctx.log.append(
        AgentRequest(**common, endpoint=agent.tool, body=body, headers={"strategy": strategy})
    )
    started = time.perf_counter()

    def call() -> Any:
        if fault is not None and ctx.faults is not None:
            ctx.faults.apply_before(fault, ctx.tool_timeout_s)
        raw = agent.call(params, ctx)
        return ctx.faults.corrupt(fault, raw) if fault is not None and ctx.faults is not None else raw

    try:
        raw = await asyncio.wait_for(
            asyncio.get_running_loop().run_in_executor(ctx.executor, contextvars.copy_context().run, call),
            timeout=ctx.tool_timeout_s,
        )
    except AgentError as exc:
        return _fail(ctx, common, agent, exc.status_code, "tool_call", str(exc), exc.resolution)
    except ModelOutputError as exc:  # the model answered garbage: wrong information, ask again
        return _fail(ctx, common, agent, StatusCode.WRONG_INFORMATION, "tool_call", str(exc),
                     "ask again with the error attached")
    except TimeoutError:
        return _fail(
            ctx, common, agent, StatusCode.TOOL_CALL_FAILURE, "tool_call",
            f"{agent.tool} did not answer within {ctx.tool_timeout_s:g} s", "retry with backoff",
        )
    except Exception as exc:  # noqa: BLE001 - any tool exception is a 604 by the ACP rules
        retry_after = getattr(exc, "retry_after_s", None)
        failed = _fail(
            ctx, common, agent, StatusCode.TOOL_CALL_FAILURE, "tool_call",
            f"{agent.tool} raised {type(exc).__name__}: {exc}",
            "retry after the Retry-After delay" if retry_after is not None else "retry with backoff",
        )
        failed.retry_after_s = float(retry_after) if retry_after is not None else None
        return failed
    try:
        outputs = agent.check_response(task, params, raw, ctx)
    except AgentError as exc:
        return _fail(ctx, common, agent, exc.status_code, "response", str(exc), exc.resolution)
    duration = (time.perf_counter() - started) * 1000.0
    dependents: dict[str, list[str]] = {name: [] for name in outputs}
    response = AgentResponse(
        **common,
        status_code=StatusCode.OK,
        output_variables={k: _summarise(v) for k, v in outputs.items()},
        dependent_input_variables=dependents,
        duration_ms=round(duration, 3),
    )
    return Attempt(status_code=StatusCode.OK, outputs=outputs, response=response)  # logged by the dispatcher


def _fail(
    ctx: RunContext,
    common: dict[str, Any],
    agent: Agent,
    code: int,
    stage: str,
    description: str,
    resolution: str,
) -> Attempt:
    status = StatusCode(code)
    ctx.log.append(AgentResponse(**common, status_code=status))
    ctx.log.append(
        AssistanceRequest(
            **common,
            status_code=status,
            error_step=stage,
            tool=agent.tool,
            description=description,
            relevant_context={"meaning": status.meaning},
            suggested_resolution=resolution,
        )
    )
    return Attempt(
        status_code=status, error=description, resolution=resolution, stage=stage
    )
