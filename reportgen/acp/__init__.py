"""ACP vocabulary: status codes and message models."""

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
