"""reportgen: cited, charted HTML + PDF reports from a topic.

The public surface, re-exported from the private modules (the ``httpx``
habit); ``tests/test_exported_members.py`` checks ``__all__`` is complete
and sorted.
"""

from reportgen.acp import (
    AgentRequest,
    AgentResponse,
    AssistanceRequest,
    MessageLog,
    StatusCode,
    StatusUpdate,
    read_messages,
)
from reportgen.blueprint.model import Blueprint, Task, TaskInput, TaskStatus
from reportgen.config import RunOptions, Settings, get_settings
from reportgen.errors import (
    AgentError,
    BlockedURLError,
    BlueprintError,
    ConfigError,
    CycleError,
    FetchError,
    ForbiddenURLError,
    InputError,
    NoSourcesError,
    PageRejectedError,
    RateLimitedError,
    RenderError,
    ReportgenError,
    RunCanceled,
    RunError,
    RunLockedError,
    SourceError,
    UnknownAgentError,
    UnknownReportError,
    UnresolvedInputError,
)
from reportgen.report import Figure, Limitation, Paragraph, Reference, Report, Section, Sentence
from reportgen.faults import FaultPlan
from reportgen.run import RunResult, generate_report, new_report_id, resume_report

__version__ = "0.1.0"

__all__ = [
    "AgentError",
    "AgentRequest",
    "AgentResponse",
    "AssistanceRequest",
    "BlockedURLError",
    "Blueprint",
    "BlueprintError",
    "ConfigError",
    "CycleError",
    "FaultPlan",
    "FetchError",
    "Figure",
    "ForbiddenURLError",
    "InputError",
    "Limitation",
    "MessageLog",
    "NoSourcesError",
    "PageRejectedError",
    "Paragraph",
    "RateLimitedError",
    "Reference",
    "RenderError",
    "Report",
    "ReportgenError",
    "RunCanceled",
    "RunError",
    "RunLockedError",
    "RunOptions",
    "RunResult",
    "Section",
    "Sentence",
    "Settings",
    "SourceError",
    "StatusCode",
    "StatusUpdate",
    "Task",
    "TaskInput",
    "TaskStatus",
    "UnknownAgentError",
    "UnknownReportError",
    "UnresolvedInputError",
    "__version__",
    "generate_report",
    "get_settings",
    "new_report_id",
    "read_messages",
    "resume_report",
]
