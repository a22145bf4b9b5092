"""Call a tool on any MCP server, synchronously and under a deadline.

An agent's tool can be a tool of an MCP server (see ``agents/``): a local
program spoken to over stdio (:attr:`McpServer.command`) or a remote server
over streamable HTTP (:attr:`McpServer.url`). Every function here opens one
connection, does its work and closes it again, inside a single deadline:

- :func:`list_tools` names the tools a server offers;
- :func:`call_tool` calls one tool and returns its text and structured result;
- :func:`check_binding` checks, before any research, that a server starts
  and offers the tool an agent definition names.

They are plain (sync) functions, meant for worker threads: each runs the MCP
SDK's async client in its own event loop (``asyncio.run``). When the deadline
passes, the request is abandoned and the stdio server is stopped the way the
SDK (and the MCP spec) does it: its stdin is closed, then after a short grace
the whole process group gets SIGTERM, then SIGKILL. That shutdown is bounded
(about 4.5 s at worst, for a server that ignores its stdin closing) and leaves
no process behind.

Every failure is one :class:`McpError` with a one-line message naming the
server and the tool; :attr:`McpError.fatal` tells a configuration error (no
point retrying) from a transient one.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import tempfile
from collections.abc import Awaitable, Callable
from typing import IO, Any, TextIO, TypeVar, cast

import anyio
from pydantic import BaseModel, Field, field_validator, model_validator

from reportgen.errors import ReportgenError

__all__ = [
    "McpError",
    "McpResult",
    "McpServer",
    "call_tool",
    "check_binding",
    "list_tools",
]

_T = TypeVar("_T")

#: Longest server text quoted in an error message, in characters.
_QUOTE_CHARS = 300

#: Most ``tools/list`` pages read before giving up on a paginator that never ends.
_MAX_PAGES = 100


class McpError(ReportgenError):
    """An MCP server or one of its tools failed.

    Args:
        message: What went wrong, one line naming the server and the tool.
        server: The server's label (:attr:`McpServer.label`).
        tool: The tool's name (``""`` when no tool was involved).
        fatal: ``True`` for configuration errors that retrying will not fix
            (the server cannot start, the tool does not exist); ``False`` for
            transient ones (timeout, connection lost, the tool reported an error).

    Attributes:
        server: The server's label.
        tool: The tool's name, or ``""``.
        fatal: Whether the error is a configuration error.
    """

    code = "mcp"

    def __init__(self, message: str, *, server: str = "", tool: str = "", fatal: bool = False) -> None:
        super().__init__(message)
        self.server = server
        self.tool = tool
        self.fatal = fatal


class McpServer(BaseModel):
    """Where an MCP server is: a command to run (stdio) or a URL (streamable HTTP).

    Attributes:
        command: The server's argv, run as a subprocess spoken to over stdio.
        url: The ``http(s)://`` endpoint of a streamable HTTP server.
        env: Extra environment variables for a stdio server, on top of the
            few the SDK passes through (``HOME``, ``PATH``, ...). Not
            inherited otherwise: pass what the server needs.
        cwd: The working directory of a stdio server (default: ours; a
            :class:`~pathlib.Path` is accepted too).

    Exactly one of ``command`` and ``url`` is given.
    """

    command: list[str] | None = None
    url: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None

    @field_validator("cwd", mode="before")
    @classmethod
    def _cwd_text(cls, value: Any) -> Any:
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @model_validator(mode="after")
    def _one_endpoint(self) -> McpServer:
        if (self.command is None) == (self.url is None):
            raise ValueError("an MCP server needs exactly one of 'command' (stdio argv) or 'url' (streamable HTTP)")
        if self.command is not None and (not self.command or not self.command[0].strip()):
            raise ValueError("an MCP server 'command' needs at least the program to run")
        if self.url is not None and not self.url.startswith(("http://", "https://")):
            raise ValueError(f"an MCP server 'url' must be http:// or https://, not {self.url!r}")
        return self

    @property
    def label(self) -> str:
        """A short name of the server for messages: its command line or URL (no credentials)."""
        if self.command is not None:
            text = shlex.join(self.command)
        else:
            text = _strip_userinfo(self.url or "")
        return text if len(text) <= 120 else text[:117] + "..."


class McpResult(BaseModel):
    """What a tool call returned.

    Attributes:
        text: The text content parts of the result, joined with newlines.
        structured: The structured result (``structuredContent``) when the
            tool gave one; a non-object value is wrapped as ``{"result": value}``.
    """

    text: str = ""
    structured: dict[str, Any] | None = None


def list_tools(server: McpServer, timeout_s: float) -> list[str]:
    """Start (or connect to) a server and name the tools it offers.

    Args:
        server: The server.
        timeout_s: Deadline for the whole exchange (start, handshake,
            listing), in seconds.

    Returns:
        The tool names, in the server's order.

    Raises:
        McpError: The server cannot start (``fatal``), died or timed out.
        ValueError: ``timeout_s`` is not positive.
        RuntimeError: Called from a thread that runs an event loop.
    """

    async def work(client: Any) -> list[str]:
        return await _tool_names(client)

    return _run(server, "", timeout_s, work)


def call_tool(server: McpServer, tool: str, arguments: dict[str, Any], timeout_s: float) -> McpResult:
    """Call one tool of a server and return its result.

    The tool listing is read first, so an unknown tool is reported as such
    (with the tools the server does offer) rather than as a tool failure.

    Args:
        server: The server.
        tool: The tool's name.
        arguments: The tool's arguments (JSON-serialisable values).
        timeout_s: Deadline for the whole call (start, handshake, listing,
            the call itself), in seconds.

    Returns:
        The tool's text and structured result.

    Raises:
        McpError: The server cannot start or does not offer the tool
            (``fatal``); the server died, the call timed out, or the tool
            reported an error (``isError``, its text quoted) (not ``fatal``).
        ValueError: ``timeout_s`` is not positive.
        RuntimeError: Called from a thread that runs an event loop.
    """

    async def work(client: Any) -> Any:
        names = await _tool_names(client)
        if tool not in names:
            return _Missing(names)
        return await client.call_tool(tool, arguments)

    outcome = _run(server, tool, timeout_s, work)
    if isinstance(outcome, _Missing):
        raise _unknown_tool(server, tool, outcome.names)
    text = "\n".join(part.text for part in outcome.content if getattr(part, "type", None) == "text")
    if outcome.is_error:
        raise McpError(
            f"MCP tool {tool!r} of server {server.label} reported an error: {_quote(text) or 'no message'}",
            server=server.label, tool=tool,
        )
    structured = outcome.structured_content
    if structured is not None and not isinstance(structured, dict):
        structured = {"result": structured}
    return McpResult(text=text, structured=structured)


def check_binding(server: McpServer, tool: str, timeout_s: float) -> None:
    """Check that a server starts and offers a tool (validating an agent definition).

    Args:
        server: The server.
        tool: The tool the agent definition binds to.
        timeout_s: Deadline for starting the server and listing its tools,
            in seconds.

    Raises:
        McpError: The server does not offer the tool (``fatal``; the message
            names the tools it does offer), or it cannot start (``fatal``),
            died or timed out.
        ValueError: ``timeout_s`` is not positive.
        RuntimeError: Called from a thread that runs an event loop.
    """
    names = list_tools(server, timeout_s)
    if tool not in names:
        raise _unknown_tool(server, tool, names)


class _Missing:
    """The tool was not in the listing (raised once the connection is closed)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names


def _unknown_tool(server: McpServer, tool: str, names: list[str]) -> McpError:
    offered = ", ".join(names) if names else "none"
    return McpError(
        f"MCP server {server.label} has no tool {tool!r}; it offers: {offered}",
        server=server.label, tool=tool, fatal=True,
    )


async def _tool_names(client: Any) -> list[str]:
    """Read every page of the server's tool listing."""
    names: list[str] = []
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        names.extend(t.name for t in page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return names


def _run(server: McpServer, tool: str, timeout_s: float, work: Callable[[Any], Awaitable[_T]]) -> _T:
    """Connect, run ``work(client)`` and disconnect, all within ``timeout_s``; map every failure."""
    if timeout_s <= 0:
        raise ValueError(f"timeout_s must be positive, not {timeout_s!r}")
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError("reportgen.mcp_client functions are sync: call them from a worker thread, not an event loop")
    return asyncio.run(_session(server, tool, timeout_s, work))


async def _session(server: McpServer, tool: str, timeout_s: float, work: Callable[[Any], Awaitable[_T]]) -> _T:
    from mcp import Client

    what = f"MCP server {server.label}" + (f" (tool {tool!r})" if tool else "")
    started = False  # the handshake completed
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            with anyio.fail_after(timeout_s):
                async with Client(_transport(server, cast(TextIO, errlog))) as client:
                    started = True
                    return await work(client)
        except TimeoutError:
            stage = "" if started else " while starting"
            raise McpError(
                f"{what} timed out after {timeout_s:g} s{stage}", server=server.label, tool=tool
            ) from None
        except Exception as exc:  # every failure (ExceptionGroups included) becomes an McpError; not Ctrl-C
            raise _map_error(exc, server, tool, what, started, _stderr_tail(errlog)) from None


def _transport(server: McpServer, errlog: TextIO) -> Any:
    """The SDK transport for a server; a stdio server's stderr goes to ``errlog``."""
    if server.url is not None:
        from mcp.client.streamable_http import streamable_http_client

        return streamable_http_client(server.url)
    from mcp.client.stdio import StdioServerParameters, stdio_client

    assert server.command is not None
    params = StdioServerParameters(
        command=server.command[0], args=server.command[1:], env=dict(server.env) or None, cwd=server.cwd
    )
    return stdio_client(params, errlog=errlog)


def _map_error(
    exc: BaseException, server: McpServer, tool: str, what: str, started: bool, stderr: str
) -> McpError:
    """Turn an SDK, OS or transport failure into one McpError."""
    from mcp.shared.exceptions import MCPError

    leaf = _leaf(exc)
    detail = f"; stderr: {stderr}" if stderr else ""
    label = server.label
    if isinstance(leaf, TimeoutError):  # a timeout surfacing inside a task group
        return McpError(f"{what} timed out", server=label, tool=tool)
    if isinstance(leaf, (OSError, ValueError)) and server.command is not None and not started:
        # The program could not be spawned (missing, not executable, bad cwd or argv).
        reason = _quote(str(leaf)) or type(leaf).__name__
        return McpError(f"{what} cannot start: {reason}", server=label, tool=tool, fatal=True)
    if isinstance(leaf, MCPError):
        if not started:
            # The process ran but never completed the MCP handshake: a broken server or
            # a command that is not an MCP server at all.
            return McpError(
                f"{what} cannot start: it ended the connection before the MCP handshake ({leaf.message}){detail}",
                server=label, tool=tool, fatal=True,
            )
        if leaf.code == -32000 or "closed" in leaf.message.lower():  # CONNECTION_CLOSED
            return McpError(f"{what} died: connection lost{detail}", server=label, tool=tool)
        return McpError(f"{what} answered with a protocol error: {_quote(leaf.message)}", server=label, tool=tool)
    if server.url is not None:
        import httpx2  # the SDK's HTTP client

        if isinstance(leaf, (httpx2.InvalidURL, httpx2.UnsupportedProtocol)):
            return McpError(f"{what} cannot be reached: {_quote(str(leaf))}", server=label, tool=tool, fatal=True)
        if isinstance(leaf, httpx2.HTTPStatusError):
            status = leaf.response.status_code
            fatal = 400 <= status < 500 and status not in (408, 429)  # wrong URL, auth: configuration
            return McpError(f"{what} answered HTTP {status}", server=label, tool=tool, fatal=fatal)
        if isinstance(leaf, (httpx2.HTTPError, OSError)):
            reason = _quote(str(leaf)) or type(leaf).__name__
            return McpError(f"{what} cannot be reached: {reason}", server=label, tool=tool)
    reason = _quote(str(leaf)) or type(leaf).__name__
    return McpError(f"{what} failed: {reason}{detail}", server=label, tool=tool)


def _leaf(exc: BaseException) -> BaseException:
    """The first non-group exception inside (possibly nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _stderr_tail(errlog: IO[str]) -> str:
    """The last non-empty line the server wrote to stderr, quoted on one line."""
    try:
        errlog.flush()
        errlog.seek(0)
        lines = [line for line in errlog.read()[-8192:].splitlines() if line.strip()]
    except (OSError, ValueError):
        return ""
    return _quote(lines[-1]) if lines else ""


def _quote(text: str) -> str:
    """Text on one line, cut to :data:`_QUOTE_CHARS` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE_CHARS else flat[: _QUOTE_CHARS - 3] + "..."


def _strip_userinfo(url: str) -> str:
    """The URL without ``user:password@`` in its authority."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    authority, slash, path = rest.partition("/")
    return f"{scheme}://{authority.rpartition('@')[2]}{slash}{path}"
