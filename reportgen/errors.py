"""The exception tree of reportgen.

Every error the package raises derives from :class:`ReportgenError` and carries
a stable ``code`` (a short string, never parsed from the message) so callers
and the recovery policy decide by class and code, never by message text::

    ReportgenError                    code
    ├── ConfigError                   "config"        bad settings or CLI options
    │   ├── AgentDefinitionError      "agent_definition" an agent folder or spec is wrong
    │   │                                             (names the file and the field)
    │   └── PluginError               "plugin"        a plugin failed to load or clashes
    │                                                 with another (names the plugin)
    ├── InputError                    "input"         bad topic, language, corpus
    │   ├── NoSourcesError            "no_sources"    the corpora know nothing of the topic
    │   ├── RunLockedError            "locked"        another process is running this report
    │   └── UnknownReportError        "unknown_report" no run with that report id
    ├── BlueprintError                "blueprint"     invalid execution blueprint
    │   ├── CycleError                "cycle"
    │   ├── UnknownAgentError         "unknown_agent"
    │   └── UnresolvedInputError      "unresolved_input"
    ├── SourceError                   "source"        a corpus or index cannot be read
    │   ├── FetchError                "fetch"         a page or the web search failed for now
    │   │   │                                         (timeout, network, HTTP 5xx); carries
    │   │   │                                         http_status and retry_after_s
    │   │   └── RateLimitedError      "rate_limited"  HTTP 429 / the search engine's rate limit
    │   └── PageRejectedError         "page_rejected" a page that cannot be used (HTTP 4xx,
    │       │                                         wrong type, too big, empty, redirect loop)
    │       └── BlockedURLError       "blocked_url"   not http(s), or a private, loopback or
    │                                                 link-local address (SSRF guard)
    ├── AgentError                    "agent"         an ACP failure inside a task;
    │                                                 carries the ACP status code (601..607)
    ├── RunError                      "run"           the run produced nothing useful
    │   └── RunCanceled               "canceled"      the run was canceled at a task boundary
    └── RenderError                   "render"        HTML/PDF could not be written
        └── ForbiddenURLError         "forbidden_url" the renderer was asked to fetch
                                                      something other than inline data

Recoverable vs fatal follows WeasyPrint's ``URLFetchingError`` /
``FatalURLFetchingError`` split: an :class:`AgentError` is recoverable (it is
routed to the recovery node), everything else ends the command with a one-line
message and a non-zero exit.
"""

from __future__ import annotations

__all__ = [
    "AgentDefinitionError",
    "AgentError",
    "BlockedURLError",
    "BlueprintError",
    "ConfigError",
    "CycleError",
    "FetchError",
    "ForbiddenURLError",
    "InputError",
    "NoSourcesError",
    "PageRejectedError",
    "PluginError",
    "RateLimitedError",
    "RenderError",
    "ReportgenError",
    "RunCanceled",
    "RunError",
    "RunLockedError",
    "SourceError",
    "UnknownAgentError",
    "UnknownReportError",
    "UnresolvedInputError",
]


class ReportgenError(Exception):
    """Root of every error raised by reportgen.

    Attributes:
        code: A stable, machine-readable identifier of the error class.
    """

    code: str = "reportgen"


class ConfigError(ReportgenError):
    """Settings or options are invalid."""

    code = "config"


class AgentDefinitionError(ConfigError):
    """An agent definition (``agent.toml``, a prompt, a brain or tool binding) is wrong."""

    code = "agent_definition"


class PluginError(ConfigError):
    """A plugin raised while loading, or registered a name another plugin has."""

    code = "plugin"


class InputError(ReportgenError):
    """The user's input (topic, language, corpus folder) is unusable."""

    code = "input"


class NoSourcesError(InputError):
    """The configured corpora hold nothing on the topic."""

    code = "no_sources"


class RunLockedError(InputError):
    """Another process is already generating this report id."""

    code = "locked"


class UnknownReportError(InputError):
    """No run with the given report id is recorded in the data dir."""

    code = "unknown_report"


class BlueprintError(ReportgenError):
    """The execution blueprint is invalid."""

    code = "blueprint"


class CycleError(BlueprintError):
    """The blueprint's dependencies form a cycle."""

    code = "cycle"


class UnknownAgentError(BlueprintError):
    """A task names an agent that is not registered."""

    code = "unknown_agent"


class UnresolvedInputError(BlueprintError):
    """A task input refers to a task or output that does not exist."""

    code = "unresolved_input"


class SourceError(ReportgenError):
    """A corpus, document or index cannot be read."""

    code = "source"


class FetchError(SourceError):
    """A web page or the web search failed in a way that may pass: worth retrying later.

    Raised for timeouts, network failures and HTTP 5xx (and, as
    :class:`RateLimitedError`, HTTP 429).

    Args:
        message: What went wrong, for people.
        url: The URL asked for (``""`` for the search engine itself).
        http_status: The HTTP status when the server answered, else ``None``.
        retry_after_s: The delay the server asked for (``Retry-After``), in
            seconds, else ``None``.
    """

    code = "fetch"

    def __init__(
        self,
        message: str,
        *,
        url: str = "",
        http_status: int | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message)
        self.url = url
        self.http_status = http_status
        self.retry_after_s = retry_after_s


class RateLimitedError(FetchError):
    """The server (HTTP 429) or the search engine asked us to slow down."""

    code = "rate_limited"


class PageRejectedError(SourceError):
    """A page that cannot be used; retrying will not help.

    Args:
        reason: Why, for people and the limitations note (``"HTTP 404"``,
            ``"not a readable type (application/octet-stream)"``).
        url: The URL asked for.
        http_status: The HTTP status when the server answered, else ``None``.
    """

    code = "page_rejected"

    def __init__(self, reason: str, *, url: str = "", http_status: int | None = None) -> None:
        super().__init__(f"{url}: {reason}" if url else reason)
        self.reason = reason
        self.url = url
        self.http_status = http_status


class BlockedURLError(PageRejectedError):
    """A URL that is never fetched: a scheme other than http(s), or an address
    that is private, loopback, link-local or otherwise not public."""

    code = "blocked_url"


class AgentError(ReportgenError):
    """An ACP failure inside a task, routed to recovery.

    Args:
        status_code: The ACP status code, one of 601..607.
        message: What went wrong, for people.
        resolution: The suggested resolution sent in the ASSISTANCE_REQUEST.
    """

    code = "agent"

    def __init__(self, status_code: int, message: str, resolution: str = "") -> None:
        super().__init__(message)
        self.status_code = int(status_code)
        self.resolution = resolution


class RunError(ReportgenError):
    """The run produced nothing useful enough to make a report."""

    code = "run"


class RunCanceled(RunError):
    """The run was canceled; it stopped at the next task boundary."""

    code = "canceled"


class RenderError(ReportgenError):
    """The HTML or PDF output could not be produced."""

    code = "render"


class ForbiddenURLError(RenderError):
    """The renderer was asked to fetch a URL other than inline ``data:``."""

    code = "forbidden_url"
