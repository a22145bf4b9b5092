"""The MCP tool brain: an agent whose tool is served by any MCP server, declared without code.

An ``agent.toml`` binds a tool of an MCP server (stdio ``command`` or
streamable-HTTP ``url``) and maps the task's inputs to the tool's arguments::

    [[tools]]
    name = "lookup"
    kind = "mcp"
    command = ["python", "facts_server.py"]   # run in the agent's folder
    arguments = { query = "{query}" }

    [brains]
    default = "mcp.tool"

The tool's text answer becomes a research note (a passage citing the tool),
so the writer can quote it like any source. A tool error, a timeout or a dead
server is 604 TOOL_CALL_FAILURE and goes through recovery like any other
tool; a server that cannot start or lacks the tool is refused before any
research (:func:`check_mcp_tools`).
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote

from reportgen.acp import StatusCode
from reportgen.agents.runtime import Brain, RunContext
from reportgen.agents.spec import AgentSpec, ToolSpec
from reportgen.blueprint.model import Task
from reportgen.errors import AgentDefinitionError, AgentError
from reportgen.sources.models import Passage

__all__ = ["McpToolBrain", "check_mcp_tools", "mcp_server"]


def mcp_server(spec: AgentSpec, tool: ToolSpec) -> Any:
    """The :class:`~reportgen.mcp_client.McpServer` of an agent's MCP tool (stdio servers run in the agent's folder)."""
    from reportgen.mcp_client import McpServer

    return McpServer(command=tool.command, url=tool.url, env=tool.env, cwd=spec.folder or None)


def _mcp_tool(spec: AgentSpec) -> ToolSpec:
    tool = next((t for t in spec.tools if t.kind == "mcp"), None)
    if tool is None:
        raise AgentDefinitionError(f"{spec.origin}: field 'tools': the mcp.tool brain needs a tool with kind = \"mcp\"")
    return tool


def check_mcp_tools(specs: list[AgentSpec], timeout_s: float) -> None:
    """Start each MCP server once and check it serves the bound tool, before any research.

    Args:
        specs: The agents to check (those with a ``kind = "mcp"`` tool are).
        timeout_s: Deadline of each check, in seconds.

    Raises:
        AgentDefinitionError: A server cannot start or does not offer the
            tool (the message names the agent file, the server and the tool).
    """
    from reportgen.mcp_client import McpError, check_binding

    for spec in specs:
        for tool in spec.tools:
            if tool.kind != "mcp":
                continue
            try:
                check_binding(mcp_server(spec, tool), tool.tool or tool.name, timeout_s)
            except McpError as exc:
                raise AgentDefinitionError(f"{spec.origin}: tool {tool.name!r}: {exc}") from None


class McpToolBrain(Brain):
    """Calls the agent's MCP tool with the task's inputs; the answer is a research note.

    Inputs: whatever the tool's ``arguments`` templates name.
    Outputs: ``notes`` (one passage citing the tool) and ``claims`` (empty).
    """

    provides = None  # its tools are MCP tools, checked against the server instead

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        assert self.spec is not None, "an MCP tool brain is made from its agent's spec"
        tool = _mcp_tool(self.spec)
        values = {k: "" if v is None else v for k, v in inputs.items()}
        try:
            arguments = {name: template.format_map(values) for name, template in tool.arguments.items()}
        except (KeyError, ValueError, IndexError) as exc:
            raise AgentError(StatusCode.MISSING_REQUIRED_PARAMETERS,
                             f"the {tool.name} tool's arguments need input {exc}", "give the task that input") from None
        return {"arguments": arguments}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        from reportgen.mcp_client import call_tool

        assert self.spec is not None
        tool = _mcp_tool(self.spec)
        deadline = min(tool.timeout_s or ctx.tool_timeout_s, ctx.tool_timeout_s * 0.9)
        result = call_tool(mcp_server(self.spec, tool), tool.tool or tool.name, params["arguments"], deadline)
        text = " ".join(result.text.split())
        if not text:
            return {"passages": []}
        query = "&".join(f"{quote(str(k))}={quote(str(v))}" for k, v in params["arguments"].items())
        digest = hashlib.sha1(f"{tool.name}?{query}\n{text}".encode()).hexdigest()[:12]
        passage = Passage(source_id=f"mcp:{self.spec.name}:{digest}",
                          title=f"{tool.tool or tool.name} ({self.spec.name} tool)",
                          url=f"mcp://{self.spec.name}/{quote(tool.tool or tool.name)}?{query}",
                          text=text[:20_000], corpus=f"mcp:{self.spec.name}")
        return {"passages": [passage]}

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        if not raw["passages"]:
            raise AgentError(StatusCode.INCOMPLETE_INFORMATION, "the tool answered nothing", "ask again")
        return {"notes": [p.model_dump() for p in raw["passages"]], "claims": []}
