"""An agent bound to a tool of a real MCP server, declared in a user agents folder without code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from reportgen.config import RunOptions, get_settings
from reportgen.errors import AgentDefinitionError
from reportgen.run import generate_report

SERVER = Path(__file__).parent / "fixtures" / "mcp" / "facts_server.py"

NOTES = (
    "# Wind power\n\nWind power is the use of wind energy to generate electricity with wind turbines. "
    "Wind farms are groups of wind turbines connected to the electrical grid.\n\n"
    "## Offshore wind\n\nOffshore wind power uses wind farms built at sea, where winds are steadier. "
    "Offshore wind turbines are larger than onshore wind turbines.\n\n"
    "## Onshore wind\n\nOnshore wind power uses wind turbines on land. "
    "Onshore wind farms are cheaper to build than offshore wind farms.\n"
)


def _agent(folder: Path, tool: str, command: list[str] | None = None) -> Path:
    agent = folder / "facts"
    agent.mkdir(parents=True)
    argv = json.dumps(command or [sys.executable, str(SERVER)])
    (agent / "agent.toml").write_text(f"""
name = "facts"
description = "Looks facts up in the team's facts service (an MCP server)."
kinds = ["facts"]
status_codes = [601, 604, 605]

[brains]
default = "mcp.tool"

[[tools]]
name = "{tool}"
kind = "mcp"
command = {argv}
arguments = {{ query = "{{query}}" }}
timeout_s = 20

[inputs.query]
type = "string"
required = true

[outputs.notes]
type = "array"

[outputs.claims]
type = "array"

[recovery]
attempts = 2

[plan]
scope = "section"
aim = "Look up facts on {{theme}}"
inputs = {{ query = "{{theme}}" }}
feeds = [{{ kind = "write", input = "extra_notes", output = "notes" }}]
""")
    return folder


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "wind.md").write_text(NOTES, encoding="utf-8")
    return docs


async def _report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str, **kw):
    monkeypatch.setenv("REPORTGEN_AGENTS_DIR", str(_agent(tmp_path / "agents", tool, **kw)))
    get_settings.cache_clear()
    return await generate_report(
        RunOptions(topic="Wind power", sections=2, corpus_dirs=[_docs(tmp_path)], use_wiki=False),
        out_dir=tmp_path / "out", backoff_scale=0)


async def test_an_mcp_tool_agent_runs_inside_a_report(tmp_path, monkeypatch):
    result = await _report(tmp_path, monkeypatch, "lookup")
    blueprint = json.loads((result.out_dir / "blueprint.json").read_text())
    facts = [t for t in blueprint["tasks"] if t["agent"] == "facts"]
    assert facts and all(t["status"] == "done" for t in facts)
    messages = [json.loads(line) for line in (result.out_dir / "messages.jsonl").read_text().splitlines()]
    calls = [m for m in messages if m["type"] == "AGENT_REQUEST" and m["agent"] == "facts"]
    assert calls and calls[0]["endpoint"] == "lookup"
    assert result.report.brains["facts"]["brain"] == "mcp.tool"
    quoted = [s.text for sec in result.report.sections for p in sec.paragraphs for s in p.sentences]
    mcp_refs = [r for r in result.report.references if r.source_id.startswith("mcp:facts:")]
    assert all(r.url.startswith("mcp://facts/lookup?") for r in mcp_refs)
    assert quoted


async def test_a_dead_mcp_server_is_604_then_recovery_then_a_limitation(tmp_path, monkeypatch):
    result = await _report(tmp_path, monkeypatch, "crash")  # the server process dies mid-call
    blueprint = json.loads((result.out_dir / "blueprint.json").read_text())
    facts = [t for t in blueprint["tasks"] if t["agent"] == "facts"]
    assert facts and all(t["status"] == "failed" and t["status_codes"] == [604, 604] for t in facts)
    messages = [json.loads(line) for line in (result.out_dir / "messages.jsonl").read_text().splitlines()]
    assert any(m["type"] == "STATUS_UPDATE" and m.get("status") == "retry" and m["task_id"] == facts[0]["id"]
               for m in messages)
    limits = [lim.reason for lim in result.report.limitations if lim.task_id and lim.task_id.startswith("facts-")]
    assert limits and all(lim.status_code == 604 for lim in result.report.limitations
                          if lim.task_id and lim.task_id.startswith("facts-"))
    assert any(s.role == "body" for s in result.report.sections)  # the report is made without the tool
    assert "facts" in (result.out_dir / "report.html").read_text()  # the Limitations note says so


async def test_an_mcp_server_that_cannot_start_is_refused_before_research(tmp_path, monkeypatch):
    with pytest.raises(AgentDefinitionError, match=r"facts/agent.toml: tool 'lookup'"):
        await _report(tmp_path, monkeypatch, "lookup", command=[str(tmp_path / "no-such-server")])
    assert not (tmp_path / "out").exists()


async def test_an_unknown_mcp_tool_is_refused_before_research(tmp_path, monkeypatch):
    with pytest.raises(AgentDefinitionError, match="teleport"):
        await _report(tmp_path, monkeypatch, "teleport")
    assert not (tmp_path / "out").exists()
