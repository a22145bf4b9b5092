"""MCP both ways: reportgen calling a real MCP server's tools, and serving reports as one.

The client tests run ``tests/fixtures/mcp/facts_server.py``, a small server
built with the SDK (stdio, and streamable HTTP on 127.0.0.1). The server tests
start ``reportgen mcp`` as a subprocess and drive it with the SDK's own client.
Nothing touches the network.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from pydantic import ValidationError

from reportgen.errors import ReportgenError
from reportgen.mcp_client import McpError, McpResult, McpServer, call_tool, check_binding, list_tools

FACTS = Path(__file__).parent / "fixtures" / "mcp" / "facts_server.py"
ROOT = Path(__file__).resolve().parent.parent


def facts(tag: str = "") -> McpServer:
    """The fixture server over stdio; ``tag`` is an ignored argument that finds its process."""
    return McpServer(command=[sys.executable, str(FACTS), *([f"--tag={tag}"] if tag else [])])


def processes_with(marker: str) -> list[int]:
    """Pids of live (non-zombie) processes whose command line holds ``marker``."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        found = []
        for proc in psutil.process_iter(["cmdline", "status"]):
            cmdline = " ".join(proc.info["cmdline"] or [])
            if marker in cmdline and proc.info["status"] != psutil.STATUS_ZOMBIE:
                found.append(proc.pid)
        return found
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def children() -> set[int]:
    """Pids of this process's child processes (zombies included: not reaped is left behind)."""
    me = os.getpid()
    kids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid == me:
                kids.add(int(entry.name))
    return kids


# -- the server model ---------------------------------------------------------------------


def test_server_needs_exactly_one_of_command_and_url():
    with pytest.raises(ValidationError, match="exactly one of 'command'"):
        McpServer()
    with pytest.raises(ValidationError, match="exactly one of 'command'"):
        McpServer(command=["x"], url="http://127.0.0.1/mcp")
    with pytest.raises(ValidationError, match="at least the program"):
        McpServer(command=[])
    with pytest.raises(ValidationError, match="http:// or https://"):
        McpServer(url="file:///etc/passwd")
    assert McpServer(url="https://user:secret@mcp.example/mcp").label == "https://mcp.example/mcp"


def test_mcp_error_is_a_reportgen_error():
    err = McpError("boom", server="s", tool="t", fatal=True)
    assert isinstance(err, ReportgenError)
    assert (err.code, err.server, err.tool, err.fatal) == ("mcp", "s", "t", True)


# -- the client against a real stdio server -----------------------------------------------


def test_list_tools():
    assert list_tools(facts(), timeout_s=30) == ["lookup", "fail", "slow", "crash"]


def test_call_tool_returns_the_text():
    result = call_tool(facts(), "lookup", {"query": "Offshore wind"}, timeout_s=30)
    assert isinstance(result, McpResult)
    assert "offshore wind capacity reached 75 GW in 2023." in result.text
    assert len(result.text.splitlines()) == 3
    assert result.structured == {"result": result.text}


def test_tool_error_is_a_transient_mcp_error_with_the_servers_message():
    with pytest.raises(McpError) as info:
        call_tool(facts(), "fail", {"query": "tidal"}, timeout_s=30)
    err = info.value
    assert err.fatal is False
    assert err.tool == "fail" and "facts_server.py" in err.server
    assert "no facts available for 'tidal'" in str(err)
    assert "\n" not in str(err)


def test_bad_arguments_are_a_tool_error():
    with pytest.raises(McpError, match="lookup") as info:
        call_tool(facts(), "lookup", {"q": "wrong name"}, timeout_s=30)
    assert info.value.fatal is False
    assert "\n" not in str(info.value)


def test_check_binding_names_the_missing_tool_and_the_offered_ones():
    check_binding(facts(), "lookup", timeout_s=30)  # present: no error
    with pytest.raises(McpError) as info:
        check_binding(facts(), "search_web", timeout_s=30)
    err = info.value
    assert err.fatal is True
    assert "'search_web'" in str(err)
    assert "lookup, fail, slow, crash" in str(err)


def test_calling_an_unknown_tool_is_fatal():
    with pytest.raises(McpError, match="has no tool 'nope'") as info:
        call_tool(facts(), "nope", {}, timeout_s=30)
    assert info.value.fatal is True


def test_a_command_that_does_not_exist_cannot_start(tmp_path):
    missing = str(tmp_path / "no-such-server")
    with pytest.raises(McpError, match="cannot start") as info:
        list_tools(McpServer(command=[missing, "--stdio"]), timeout_s=10)
    assert info.value.fatal is True
    assert missing in str(info.value)


def test_a_server_that_exits_at_once_cannot_start_and_its_stderr_is_quoted():
    code = "import sys; print('config file not found', file=sys.stderr); sys.exit(2)"
    with pytest.raises(McpError, match="cannot start") as info:
        check_binding(McpServer(command=[sys.executable, "-c", code]), "lookup", timeout_s=10)
    assert info.value.fatal is True
    assert "config file not found" in str(info.value)


def test_a_server_dying_mid_call_is_a_transient_error():
    tag = uuid.uuid4().hex
    with pytest.raises(McpError, match="connection lost") as info:
        call_tool(facts(tag), "crash", {"query": "x"}, timeout_s=30)
    assert info.value.fatal is False
    assert processes_with(tag) == []


def test_a_slow_tool_stops_at_the_deadline_and_leaves_no_process():
    tag = uuid.uuid4().hex
    before = children()
    started = time.monotonic()
    with pytest.raises(McpError, match="timed out after 1 s") as info:
        call_tool(facts(tag), "slow", {"query": "x"}, timeout_s=1)
    elapsed = time.monotonic() - started
    assert info.value.fatal is False and info.value.tool == "slow"
    # The request is dropped at 1 s; the SDK's bounded shutdown (stdin closed, a grace
    # period, then SIGTERM/SIGKILL to the process group) follows, never the 30 s sleep.
    assert elapsed < 8, elapsed
    assert processes_with(tag) == []
    assert children() - before == set()


def test_a_server_that_never_answers_times_out_while_starting():
    tag = uuid.uuid4().hex
    code = "import time; time.sleep(60)"
    with pytest.raises(McpError, match="timed out after 1 s while starting") as info:
        list_tools(McpServer(command=[sys.executable, "-c", code, tag]), timeout_s=1)
    assert info.value.fatal is False
    assert processes_with(tag) == []


def test_env_and_cwd_reach_the_server(tmp_path):
    code = (
        "import os, sys; sys.argv = [sys.argv[0]]; "
        "assert os.environ['FACTS_FLAG'] == 'on', 'no env'; "
        f"assert os.getcwd() == {str(tmp_path)!r}, 'wrong cwd'; "
        f"exec(open({str(FACTS)!r}).read())"
    )
    server = McpServer(command=[sys.executable, "-c", code], env={"FACTS_FLAG": "on"}, cwd=str(tmp_path))
    assert "lookup" in list_tools(server, timeout_s=30)


def test_sync_functions_refuse_a_running_event_loop():
    async def inside() -> None:
        list_tools(facts(), timeout_s=5)

    import asyncio

    with pytest.raises(RuntimeError, match="worker thread"):
        asyncio.run(inside())


# -- the client against a streamable HTTP server on 127.0.0.1 -----------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def http_facts(tmp_path: Path) -> Iterator[McpServer]:
    """The fixture server on streamable HTTP, on a free local port."""
    port = _free_port()
    log = (tmp_path / "http-server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, str(FACTS), "--http", str(port)], stdin=subprocess.DEVNULL, stdout=log, stderr=log
    )
    server = McpServer(url=f"http://127.0.0.1:{port}/mcp")
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                list_tools(server, timeout_s=5)
                break
            except McpError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)
        yield server
    finally:
        proc.kill()  # not terminate: uvicorn would wait out the abandoned 30 s ``slow`` call
        proc.wait()
        log.close()


def test_http_server_list_and_call(http_facts: McpServer):
    assert list_tools(http_facts, timeout_s=10) == ["lookup", "fail", "slow", "crash"]
    assert "75 GW" in call_tool(http_facts, "lookup", {"query": "wind"}, timeout_s=10).text
    with pytest.raises(McpError, match="no facts available") as info:
        call_tool(http_facts, "fail", {"query": "wind"}, timeout_s=10)
    assert info.value.fatal is False
    started = time.monotonic()
    with pytest.raises(McpError, match="timed out"):
        call_tool(http_facts, "slow", {"query": "wind"}, timeout_s=1)
    assert time.monotonic() - started < 5


def test_http_server_that_is_not_there_is_transient():
    with pytest.raises(McpError, match="cannot be reached") as info:
        list_tools(McpServer(url=f"http://127.0.0.1:{_free_port()}/mcp"), timeout_s=5)
    assert info.value.fatal is False


# -- reportgen as an MCP server -----------------------------------------------------------


async def test_reportgen_mcp_server_generates_a_report(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    out_dir = tmp_path / "out"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from reportgen.cli import app; app()", "mcp"],
        # The conftest's REPORTGEN_* isolation (fresh home, plugins off), plus our own out dir.
        env={
            **{key: value for key, value in os.environ.items() if key.startswith("REPORTGEN_")},
            "REPORTGEN_HOME": str(tmp_path / "home"),
            "REPORTGEN_OUT_DIR": str(out_dir),
        },
        cwd=str(tmp_path),
    )
    stderr_path = tmp_path / "server-stderr.log"
    with stderr_path.open("w") as errlog:
        try:
            with anyio.fail_after(300):
                async with Client(stdio_client(params, errlog=errlog)) as client:
                    listing = await client.list_tools()
                    assert [tool.name for tool in listing.tools] == ["generate_report"]
                    schema = listing.tools[0].input_schema
                    assert schema["required"] == ["topic"]
                    assert set(schema["properties"]) == {"topic", "sections", "lang"}
                    assert client.server_info is not None and client.server_info.name == "reportgen"

                    bad = await client.call_tool("generate_report", {"topic": " \n\t "})
                    assert bad.is_error
                    text = " ".join(part.text for part in bad.content if part.type == "text")
                    assert "topic" in text and "empty" in text
                    assert "Traceback" not in text and "\n" not in text

                    too_many = await client.call_tool("generate_report", {"topic": "Wind power", "sections": 40})
                    assert too_many.is_error
                    assert "sections" in too_many.content[0].text
                    klingon = await client.call_tool("generate_report", {"topic": "Wind power", "lang": "Klingon"})
                    assert klingon.is_error
                    assert "unknown language 'klingon'" in klingon.content[0].text

                    good = await client.call_tool("generate_report", {"topic": "Wind power", "sections": 3})
        except BaseException:
            errlog.flush()
            print(stderr_path.read_text(errors="replace")[-4000:], file=sys.stderr)
            raise

    # Stdout is the transport: any stray line would have been logged as unparsable.
    assert not [r for r in caplog.records if "Failed to parse" in r.getMessage()]
    assert not good.is_error, good.content
    data = good.structured_content
    assert isinstance(data, dict)
    assert set(data) == {"report_id", "title", "sections", "references", "files", "markdown"}
    assert data["title"] and data["sections"] and all(isinstance(t, str) and t for t in data["sections"])
    assert data["references"] > 0
    assert "report.md" in data["files"]
    for path in data["files"].values():
        assert Path(path).is_file(), path
        assert Path(path).resolve().is_relative_to(out_dir.resolve())
    markdown = Path(data["files"]["report.md"]).read_text(encoding="utf-8")
    assert data["markdown"] and data["markdown"] == markdown[:20_000]
    assert not (ROOT / "outputs" / data["report_id"]).exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"topic": "   "}, "topic: the topic is empty"),
        ({"topic": "x" * 501}, "the limit is 500"),
        ({"topic": "Wind power", "sections": 0}, "sections: must be between 1 and 12, not 0"),
        ({"topic": "Wind power", "lang": "en-GB"}, "lang: unknown language 'en-gb'"),
    ],
)
async def test_generate_report_rejects_bad_input_with_one_line(arguments: dict, message: str):
    from mcp import Client

    from reportgen.mcp_server import build_server

    async with Client(build_server()) as client:  # in-process: validation runs before any research
        result = await client.call_tool("generate_report", arguments)
    assert result.is_error
    text = result.content[0].text
    assert message in text and "\n" not in text and "Traceback" not in text
