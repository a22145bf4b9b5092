"""reportgen: cited, charted HTML + PDF reports from a topic.

The public surface, re-exported from the private modules (the ``httpx``
habit); ``tests/test_exported_members.py`` checks ``__all__`` is complete
and sorted. Names are imported on first use (PEP 562 ``__getattr__``), so
``import reportgen`` — and the ``reportgen`` command's start-up — does not
load LangGraph, matplotlib and WeasyPrint until they are needed.
"""

import importlib as _importlib
from typing import Any as _Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "AgentDefinitionError": "reportgen.errors",
    "AgentError": "reportgen.errors",
    "AgentRequest": "reportgen.acp",
    "AgentResponse": "reportgen.acp",
    "AgentSpec": "reportgen.agents.spec",
    "AssistanceRequest": "reportgen.acp",
    "BlockedURLError": "reportgen.errors",
    "Blueprint": "reportgen.blueprint.model",
    "BlueprintError": "reportgen.errors",
    "Brain": "reportgen.agents.runtime",
    "ConfigError": "reportgen.errors",
    "CycleError": "reportgen.errors",
    "Exporter": "reportgen.render.exporters",
    "FaultPlan": "reportgen.faults",
    "FetchError": "reportgen.errors",
    "Figure": "reportgen.report",
    "ForbiddenURLError": "reportgen.errors",
    "InputError": "reportgen.errors",
    "Limitation": "reportgen.report",
    "MessageLog": "reportgen.acp",
    "NoSourcesError": "reportgen.errors",
    "PageRejectedError": "reportgen.errors",
    "Paragraph": "reportgen.report",
    "PluginError": "reportgen.errors",
    "RateLimitedError": "reportgen.errors",
    "Reference": "reportgen.report",
    "Registry": "reportgen.agents.registry",
    "RenderError": "reportgen.errors",
    "Report": "reportgen.report",
    "ReportgenError": "reportgen.errors",
    "RunCanceled": "reportgen.errors",
    "RunError": "reportgen.errors",
    "RunLockedError": "reportgen.errors",
    "RunOptions": "reportgen.config",
    "RunResult": "reportgen.run",
    "Section": "reportgen.report",
    "Sentence": "reportgen.report",
    "Settings": "reportgen.config",
    "SourceError": "reportgen.errors",
    "StatusCode": "reportgen.acp",
    "StatusUpdate": "reportgen.acp",
    "Table": "reportgen.report",
    "Task": "reportgen.blueprint.model",
    "TaskInput": "reportgen.blueprint.model",
    "TaskStatus": "reportgen.blueprint.model",
    "UnknownAgentError": "reportgen.errors",
    "UnknownReportError": "reportgen.errors",
    "UnresolvedInputError": "reportgen.errors",
    "generate_report": "reportgen.run",
    "get_settings": "reportgen.config",
    "hookimpl": "reportgen.plugins",
    "load_registry": "reportgen.agents.registry",
    "new_report_id": "reportgen.run",
    "read_messages": "reportgen.acp",
    "resume_report": "reportgen.run",
}

__all__ = [
    "AgentDefinitionError",
    "AgentError",
    "AgentRequest",
    "AgentResponse",
    "AgentSpec",
    "AssistanceRequest",
    "BlockedURLError",
    "Blueprint",
    "BlueprintError",
    "Brain",
    "ConfigError",
    "CycleError",
    "Exporter",
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
    "PluginError",
    "RateLimitedError",
    "Reference",
    "Registry",
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
    "Table",
    "Task",
    "TaskInput",
    "TaskStatus",
    "UnknownAgentError",
    "UnknownReportError",
    "UnresolvedInputError",
    "__version__",
    "generate_report",
    "get_settings",
    "hookimpl",
    "load_registry",
    "new_report_id",
    "read_messages",
    "resume_report",
]


def __getattr__(name: str) -> _Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'reportgen' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
