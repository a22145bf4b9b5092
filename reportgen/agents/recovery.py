"""The recovery policy: what happens after each ACP error code.

The decision depends only on the status code, the attempt number and the
strategies already tried — never on message text (the habit of LangGraph's
``_internal/_retry.py``: retry is decided by the error's class). One readable
table, :data:`POLICY`, mirrored in the README:

====  ===============================  ===========================================
code  action                           then
====  ===============================  ===========================================
601   amend the blueprint once: add a  fail (tasks without a ``notes`` input fail
      research step that fetches the   at once); dependents degrade (optional
      missing notes, rewire the task   input) or are skipped with a reason
      to it, run it again
602   reroute ``rebuild`` once          fail
603   reroute ``rebuild`` once          fail
604   retry, exponential backoff       fail when the attempt budget is spent
      (0.5 s x 2^(n-1), cap 8 s,
      full jitter; a ``Retry-After``
      the tool received is honoured)
605   reroute ``broaden`` once          fail (a chart is dropped, a section written
                                       without it; the Limitations note says why)
606   reroute ``broaden`` once          fail
607   reroute ``broaden`` once          fail
====  ===============================  ===========================================

No task ever exceeds its attempt budget (:attr:`RunContext.task_attempts`),
amendments included: the attempt count carries over to the amended task.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from reportgen.acp import StatusCode

__all__ = ["POLICY", "Action", "Decision", "Policy", "decide"]


class Action(str, enum.Enum):
    """What recovery does with a failed attempt."""

    RETRY = "retry"
    REROUTE = "reroute"
    AMEND = "amend"
    FAIL = "fail"


@dataclass(frozen=True)
class Policy:
    """The recovery rule of one status code.

    Attributes:
        action: Retry the same call, reroute to another strategy, or fail.
        strategy: The alternative strategy for a reroute.
        backoff_s: First retry delay in seconds (doubles each retry).
        backoff_cap_s: Longest retry delay in seconds.
    """

    action: Action
    strategy: str = "default"
    backoff_s: float = 0.0
    backoff_cap_s: float = 0.0


POLICY: dict[StatusCode, Policy] = {
    StatusCode.MISSING_REQUIRED_PARAMETERS: Policy(Action.AMEND, "fetch-missing-input"),
    StatusCode.WRONG_STEP_DETAILS: Policy(Action.REROUTE, "rebuild"),
    StatusCode.INVALID_PARAMETER_USAGE: Policy(Action.REROUTE, "rebuild"),
    StatusCode.TOOL_CALL_FAILURE: Policy(Action.RETRY, backoff_s=0.5, backoff_cap_s=8.0),
    StatusCode.INCOMPLETE_INFORMATION: Policy(Action.REROUTE, "broaden"),
    StatusCode.DEPENDENCY_INCOMPLETE_INFORMATION: Policy(Action.REROUTE, "broaden"),
    StatusCode.WRONG_INFORMATION: Policy(Action.REROUTE, "broaden"),
}


@dataclass(frozen=True)
class Decision:
    """The recovery node's answer to one ``ASSISTANCE_REQUEST``.

    Attributes:
        action: What to do.
        strategy: Strategy of the next attempt (unchanged for a retry).
        delay_s: Seconds to wait before the next attempt.
        reason: Plain-text explanation, logged and shown in Limitations on failure.
    """

    action: Action
    strategy: str
    delay_s: float
    reason: str


def decide(
    code: StatusCode,
    *,
    attempt: int,
    budget: int,
    strategy: str,
    tried: list[str],
    backoff_scale: float = 1.0,
    rng: random.Random | None = None,
    can_amend: bool = False,
    retry_after_s: float | None = None,
    policy: dict[StatusCode, Policy] | None = None,
) -> Decision:
    """Decide what to do after attempt ``attempt`` failed with ``code``.

    Args:
        code: The ACP error code (601..607).
        attempt: The 1-based number of the attempt that failed.
        budget: The task's attempt budget (>= 1).
        strategy: The strategy of the failed attempt.
        tried: Strategies already used by this task.
        backoff_scale: Multiplier on retry delays (0 in tests).
        rng: Source of jitter (seeded in tests).
        can_amend: Whether the blueprint can be amended for this task (it
            has a ``notes`` input and was not amended before).
        retry_after_s: The ``Retry-After`` delay the tool received, if any;
            a retry never waits less (scaled by ``backoff_scale`` too).
        policy: The agent's own policy table (its spec's ``[recovery]``,
            see :meth:`reportgen.agents.spec.RecoverySpec.policy`); default
            :data:`POLICY`.

    Returns:
        The decision. ``FAIL`` whenever another attempt would exceed ``budget``.
    """
    rule = (policy or POLICY)[StatusCode(code)]
    meaning = StatusCode(code).meaning
    if attempt >= budget:
        return Decision(Action.FAIL, strategy, 0.0, f"gave up: attempt budget of {budget} spent")
    if rule.action is Action.RETRY:
        cap = min(rule.backoff_cap_s, rule.backoff_s * 2 ** (attempt - 1))
        delay = (rng or random).uniform(0.0, cap)  # full jitter
        if retry_after_s is not None:
            delay = max(delay, retry_after_s)
        delay *= backoff_scale
        return Decision(Action.RETRY, strategy, delay, f"{meaning}; retrying (attempt {attempt + 1} of {budget})")
    if rule.action is Action.REROUTE and rule.strategy not in tried:
        return Decision(Action.REROUTE, rule.strategy, 0.0, f"{meaning}; rerouting to the {rule.strategy!r} strategy")
    if rule.action is Action.REROUTE:
        return Decision(Action.FAIL, strategy, 0.0, f"gave up after the {rule.strategy!r} strategy too")
    if rule.action is Action.AMEND and can_amend:
        return Decision(Action.AMEND, strategy, 0.0, f"{meaning}; amending the blueprint with a step that fetches it")
    return Decision(Action.FAIL, strategy, 0.0, f"gave up: {meaning}")
