"""ACP status codes: 200 and the seven error codes 601..607.

Source: *Agent Context Protocols* (the ACP paper), table of standard status
codes; stages as in ``shared/DESIGN.md``: request-time codes (601..603) are
raised while an ``AGENT_REQUEST`` is built, 604 while the tool runs, and
response-time codes (605..607) while an ``AGENT_RESPONSE`` is validated.
"""

from __future__ import annotations

import enum

__all__ = ["Stage", "StatusCode"]


class Stage(str, enum.Enum):
    """The phase of the three-phase ACP runtime in which a code is raised."""

    NONE = "none"
    REQUEST = "request"
    TOOL_CALL = "tool_call"
    RESPONSE = "response"


class StatusCode(enum.IntEnum):
    """Standard ACP status codes.

    Each member carries its :attr:`stage` and a one-line :attr:`meaning`.
    """

    OK = 200
    MISSING_REQUIRED_PARAMETERS = 601
    WRONG_STEP_DETAILS = 602
    INVALID_PARAMETER_USAGE = 603
    TOOL_CALL_FAILURE = 604
    INCOMPLETE_INFORMATION = 605
    DEPENDENCY_INCOMPLETE_INFORMATION = 606
    WRONG_INFORMATION = 607

    @property
    def stage(self) -> Stage:
        """The runtime phase that raises this code."""
        return _STAGES[self]

    @property
    def meaning(self) -> str:
        """What the code means, in one line."""
        return _MEANINGS[self]

    @property
    def is_error(self) -> bool:
        """True for 601..607."""
        return self is not StatusCode.OK


_STAGES = {
    StatusCode.OK: Stage.NONE,
    StatusCode.MISSING_REQUIRED_PARAMETERS: Stage.REQUEST,
    StatusCode.WRONG_STEP_DETAILS: Stage.REQUEST,
    StatusCode.INVALID_PARAMETER_USAGE: Stage.REQUEST,
    StatusCode.TOOL_CALL_FAILURE: Stage.TOOL_CALL,
    StatusCode.INCOMPLETE_INFORMATION: Stage.RESPONSE,
    StatusCode.DEPENDENCY_INCOMPLETE_INFORMATION: Stage.RESPONSE,
    StatusCode.WRONG_INFORMATION: Stage.RESPONSE,
}

_MEANINGS = {
    StatusCode.OK: "the step succeeded",
    StatusCode.MISSING_REQUIRED_PARAMETERS: "required inputs are absent",
    StatusCode.WRONG_STEP_DETAILS: "the step's details are wrong or incomplete",
    StatusCode.INVALID_PARAMETER_USAGE: "a parameter is misused (format, arity)",
    StatusCode.TOOL_CALL_FAILURE: "the tool call failed (network, timeout, runtime error)",
    StatusCode.INCOMPLETE_INFORMATION: "the output lacks what this step needs",
    StatusCode.DEPENDENCY_INCOMPLETE_INFORMATION: "the output lacks what a dependent step needs",
    StatusCode.WRONG_INFORMATION: "the output is irrelevant or wrong for the aim",
}
