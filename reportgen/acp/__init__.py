"""ACP vocabulary: status codes and message models.

Names are imported on first use (:func:`reportgen._lazy.lazy_exports`): the
status codes alone (what agent specs read) do not build the message models
(issue 15: start-up).
"""

import typing as _typing

from reportgen._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from reportgen.acp.codes import Stage, StatusCode
    from reportgen.acp.messages import (
        AgentRequest,
        AgentResponse,
        AssistanceRequest,
        Message,
        MessageLog,
        Parameter,
        StatusUpdate,
        read_messages,
    )

__all__ = [
    "AgentRequest",
    "AgentResponse",
    "AssistanceRequest",
    "Message",
    "MessageLog",
    "Parameter",
    "Stage",
    "StatusCode",
    "StatusUpdate",
    "read_messages",
]

_EXPORTS: dict[str, str] = {
    **{name: "reportgen.acp.codes" for name in ("Stage", "StatusCode")},
    **{name: "reportgen.acp.messages" for name in __all__ if name not in ("Stage", "StatusCode")},
}

__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS)
