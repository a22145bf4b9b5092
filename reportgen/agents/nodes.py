"""Node functions of the task graph: one node per agent, and the recovery node.

Each task of the blueprint runs as one invocation of the task graph (wired in
:mod:`reportgen.graph`): the agent node runs one attempt through the three ACP
phases and routes by status code — 200 ends the task, any error code goes to
``recovery`` — and the recovery node answers the ``ASSISTANCE_REQUEST`` by
routing back to the agent (retry / reroute) or ending the task as failed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Callable, Literal, TypeAlias, TypedDict, cast

from langgraph.graph import END
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command

from reportgen.acp import StatusCode, StatusUpdate
from reportgen.agents.model_common import FEEDBACK_INPUT
from reportgen.agents.recovery import Action, decide
from reportgen.agents.runtime import RunContext, run_attempt
from reportgen.blueprint.model import Task

__all__ = ["AMEND_SUFFIX", "TaskGraph", "TaskState", "agent_node", "recovery_node"]

#: Suffix of the id of a step added by a blueprint amendment (``chart-2-fetch``).
AMEND_SUFFIX = "-fetch"

#: langgraph's ``END`` (a plain ``str`` in its stubs) as the Literal the agent node's return type names.
_END = cast(Literal["__end__"], END)


class TaskState(TypedDict, total=False):
    """Checkpointed state of one task's run.

    Attributes:
        task: The task (``Task.model_dump(mode="json")``).
        inputs: Resolved input values by name.
        attempt: Attempts made so far.
        strategy: Strategy of the next attempt.
        tried: Strategies used so far.
        codes: Status codes seen, in order.
        error: Description of the last failure.
        retry_after_s: ``Retry-After`` delay of the last failure, if any.
        outputs: The outputs, set when the task succeeded.
        final: ``"done"``, ``"failed"`` or ``"amend"`` (the dispatcher adds a
            step and runs the task again) once this run of the task ended.
        reason: Why it failed.
        response: The successful attempt's ``AGENT_RESPONSE`` (JSON), logged by
            the dispatcher after this state is checkpointed.
    """

    task: dict[str, Any]
    inputs: dict[str, Any]
    attempt: int
    strategy: str
    tried: list[str]
    codes: list[int]
    error: str
    retry_after_s: float | None
    outputs: dict[str, Any] | None
    final: str
    reason: str
    response: dict[str, Any] | None


#: The compiled task graph (:func:`reportgen.graph.build_task_graph`): state
#: :class:`TaskState`, context :class:`RunContext`.
TaskGraph: TypeAlias = CompiledStateGraph[TaskState, RunContext, TaskState, TaskState]


def agent_node(agent: Any) -> Callable[..., Any]:
    """Build the node function that runs one attempt of ``agent``.

    Args:
        agent: The agent the node runs (an :class:`~reportgen.agents.runtime.Agent`,
            or any object with its ``name``, ``tool`` and three phases).

    Returns:
        An async node function returning ``Command[Literal["recovery", "__end__"]]``.
    """

    async def node(
        state: TaskState, runtime: Runtime[RunContext]
    ) -> Command[Literal["recovery", "__end__"]]:
        ctx = runtime.context
        task = Task.model_validate(state["task"])
        attempt = state.get("attempt", 0) + 1
        strategy = state.get("strategy", "default")
        inputs = dict(state.get("inputs") or {})
        if state.get("error"):  # asked again: the model sees why its last answer was refused
            inputs[FEEDBACK_INPUT] = state["error"]
        result = await run_attempt(agent, task, inputs, attempt=attempt, strategy=strategy, ctx=ctx)
        update: dict[str, Any] = {
            "attempt": attempt,
            "codes": [*state.get("codes", []), int(result.status_code)],
            "tried": sorted({*state.get("tried", []), strategy}),
        }
        if result.status_code is StatusCode.OK:
            response = result.response.model_dump(mode="json") if result.response is not None else None
            return Command(goto=_END, update={**update, "outputs": result.outputs, "final": "done",
                                              "response": response})
        if not ctx.recovery:
            reason = f"{result.error} (recovery is off)"
            ctx.log.append(
                StatusUpdate(task_id=task.id, agent=agent.name, attempt=attempt, status="failed",
                             detail=reason, status_code=result.status_code)
            )
            return Command(goto=_END, update={**update, "error": result.error, "final": "failed", "reason": reason})
        return Command(
            goto="recovery",
            update={**update, "error": result.error, "retry_after_s": result.retry_after_s},
        )

    node.__name__ = f"{agent.name}_node"
    return node


def recovery_node(agents: Mapping[str, Any]) -> Callable[..., Any]:
    """Build the recovery node of a task graph whose agents are ``agents``.

    Args:
        agents: The graph's agents by name; each agent's own recovery policy
            (``policy``: rules by status code, ``attempts``: its attempt
            budget, from its spec's ``[recovery]``) beats the defaults.

    Returns:
        An async node function returning ``Command[<an agent> | "__end__"]``.
    """

    async def recovery(state: TaskState, runtime: Runtime[RunContext]) -> Command[Any]:
        """Answer the last ``ASSISTANCE_REQUEST`` of a task with the recovery policy.

        Logs the decision as a ``STATUS_UPDATE`` (``retry``, ``reroute``,
        ``amend`` or ``failed``) carrying the status code, waits the backoff
        delay, and routes back to the task's agent or ends this run of the task
        (an amendment is carried out by the dispatcher, which owns the blueprint).
        """
        ctx = runtime.context
        task = Task.model_validate(state["task"])
        agent = agents.get(task.agent)
        code = StatusCode(state["codes"][-1])
        attempt = state["attempt"]
        decision = decide(
            code,
            attempt=attempt,
            budget=getattr(agent, "attempts", None) or ctx.task_attempts,
            strategy=state.get("strategy", "default"),
            tried=state.get("tried", []),
            backoff_scale=ctx.backoff_scale,
            can_amend="notes" in task.inputs and not task.id.endswith(AMEND_SUFFIX)
            and not any(inp.from_task and inp.from_task.endswith(AMEND_SUFFIX) for inp in task.inputs.values()),
            retry_after_s=state.get("retry_after_s"),
            policy=getattr(agent, "policy", None),
        )
        status = "failed" if decision.action is Action.FAIL else decision.action.value
        ctx.log.append(
            StatusUpdate(task_id=task.id, agent=task.agent, attempt=attempt, status=status,
                         detail=decision.reason, status_code=code)
        )
        if decision.action is Action.FAIL:
            return Command(
                goto=END,
                update={"final": "failed", "reason": f"{state.get('error', '')} ({decision.reason})"},
            )
        if decision.action is Action.AMEND:
            return Command(goto=END, update={"final": "amend", "reason": decision.reason})
        if decision.delay_s > 0:
            await asyncio.sleep(decision.delay_s)
        return Command(goto=task.agent, update={"strategy": decision.strategy})

    return recovery
