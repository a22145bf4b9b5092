"""Report generation as an MCP tool, served over stdio (``reportgen mcp``).

An MCP client (a desktop assistant, an IDE, another agent) starts
``reportgen mcp`` and calls one tool, ``generate_report``: it runs the same
pipeline as ``reportgen report`` with the configured settings
(``REPORTGEN_*``) and returns the report's id, title, section titles, number
of references, output files and its Markdown text.

Stdout is the transport: nothing else may be written to it. The SDK points
file descriptor 1 at stderr while it serves (so stray output of C libraries
and child processes misses the wire), and the pipeline runs with
``sys.stdout`` redirected to stderr as well. Errors reach the client as a tool
error (``isError``) carrying reportgen's one-line message, never a traceback.
"""

from __future__ import annotations

import contextlib
import re
import sys
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, ValidationError

from reportgen.errors import InputError, ReportgenError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["MARKDOWN_CHARS", "build_server", "serve_stdio"]

#: Most characters of ``report.md`` returned in the tool result.
MARKDOWN_CHARS = 20_000

#: Allowed number of body sections.
_SECTIONS = (1, 12)

_INSTRUCTIONS = (
    "reportgen writes cited, multi-section reports on a topic, as HTML, PDF, JSON and Markdown files. "
    "Call generate_report with a topic; it takes from a few seconds to a few minutes."
)


def build_server() -> MCPServer:
    """Build the MCP server named ``reportgen`` with its ``generate_report`` tool.

    Returns:
        The SDK's :class:`~mcp.server.mcpserver.MCPServer` (FastMCP in SDK v1),
        not yet running.
    """
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from reportgen import __version__

    server: MCPServer = MCPServer(
        "reportgen",
        title="reportgen",
        description="Cited, charted reports from a topic.",
        instructions=_INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )

    @server.tool(title="Generate a report")
    async def generate_report(
        topic: Annotated[str, Field(description="What the report is about (1..500 characters).")],
        sections: Annotated[int | None, Field(
            description="Number of body sections, 1..12; default from the request's wording (8 for a "
                        "comprehensive or detailed report, 3 for a short one, else 6).")] = None,
        lang: Annotated[
            str | None, Field(description="Report language, an ISO 639-1 code such as en, es or fr (default en).")
        ] = None,
    ) -> dict[str, Any]:
        """Research a topic and write a cited report (HTML, PDF, JSON, Markdown).

        Returns the report id, title, section titles, number of references,
        the output files (name -> path) and the report's Markdown (cut to
        20,000 characters).
        """
        try:
            return await _generate(topic, sections, lang)
        except ReportgenError as exc:
            raise ToolError(_one_line(str(exc)) or type(exc).__name__) from None
        except ValidationError as exc:
            raise ToolError(_validation_message(exc)) from None

    return server


def serve_stdio() -> None:
    """Serve :func:`build_server` over stdin/stdout until the client closes stdin."""
    build_server().run("stdio")


async def _generate(topic: str, sections: int | None, lang: str | None) -> dict[str, Any]:
    """Validate the arguments, run the offline pipeline and summarise its result.

    Raises:
        InputError: An argument is out of range.
        ReportgenError: The run failed.
    """
    from reportgen.config import RunOptions, clean_topic, get_settings

    try:
        topic = clean_topic(topic)
    except ValueError as exc:
        raise InputError(f"topic: {exc}") from None
    low, high = _SECTIONS
    if sections is not None and not low <= sections <= high:
        raise InputError(f"sections: must be between {low} and {high}, not {sections}")
    lang = (lang or "").strip().lower() or "en"
    if not re.fullmatch(r"[a-z]{2,3}", lang):
        raise InputError(f"lang: unknown language {lang!r}; give an ISO 639-1 code such as en, es or fr")
    try:
        options = RunOptions(topic=topic, lang=lang, sections=sections)
    except ValidationError as exc:
        raise InputError(_validation_message(exc)) from None

    from reportgen.run import generate_report

    with contextlib.redirect_stdout(sys.stderr):  # the real stdout is the protocol
        result = await generate_report(options, settings=get_settings())
    sys.stdout.flush()

    files = {name: str(path) for name, path in result.files.items()}
    markdown_path = result.files.get("report.md")
    markdown = ""
    if markdown_path is not None and markdown_path.is_file():
        markdown = markdown_path.read_text(encoding="utf-8", errors="replace")[:MARKDOWN_CHARS]
    report = result.report
    return {
        "report_id": result.report_id,
        "title": report.title,
        "sections": [section.title for section in report.sections],
        "references": len(report.references),
        "files": files,
        "markdown": markdown,
    }


def _validation_message(exc: ValidationError) -> str:
    """The first pydantic error as ``field: message`` on one line."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "input"
    return _one_line(f"{where}: {first['msg'].removeprefix('Value error, ')}")


def _one_line(text: str) -> str:
    return " ".join(text.split())
