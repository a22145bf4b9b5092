"""ACP status codes and messages."""

import json

import pytest

from reportgen.acp import (
    AgentRequest,
    AgentResponse,
    AssistanceRequest,
    MessageLog,
    Parameter,
    Stage,
    StatusCode,
    StatusUpdate,
    read_messages,
)


def test_codes_have_stage_and_meaning():
    assert [int(c) for c in StatusCode] == [200, 601, 602, 603, 604, 605, 606, 607]
    assert StatusCode(601).stage is Stage.REQUEST
    assert StatusCode(603).stage is Stage.REQUEST
    assert StatusCode(604).stage is Stage.TOOL_CALL
    assert {StatusCode(c).stage for c in (605, 606, 607)} == {Stage.RESPONSE}
    assert StatusCode.OK.is_error is False and StatusCode(607).is_error
    assert all(StatusCode(c).meaning for c in StatusCode)


def test_messages_round_trip_through_the_log(tmp_path):
    log = MessageLog(tmp_path / "run" / "messages.jsonl")
    assert not (tmp_path / "run").exists()  # nothing written before the first message
    seen = []
    log.subscribe(seen.append)
    log.append(AgentRequest(task_id="t1", agent="browser", endpoint="search",
                            body={"query": Parameter(value="wind", source="llm")}))
    log.append(AgentResponse(task_id="t1", agent="browser", status_code=StatusCode.OK))
    log.append(AssistanceRequest(task_id="t2", status_code=605, error_step="response", tool="chart",
                                 description="no data", suggested_resolution="broaden"))
    log.append(StatusUpdate(task_id="t2", status="failed", status_code=605))
    lines = [json.loads(x) for x in (tmp_path / "run" / "messages.jsonl").read_text().splitlines()]
    assert [x["type"] for x in lines] == ["AGENT_REQUEST", "AGENT_RESPONSE", "ASSISTANCE_REQUEST", "STATUS_UPDATE"]
    assert all({"type", "task_id", "timestamp"} <= set(x) for x in lines)
    assert lines[1]["status_code"] == 200 and lines[2]["status_code"] == 605
    assert lines[0]["body"]["query"] == {"value": "wind", "source": "llm"}
    back = read_messages(tmp_path / "run" / "messages.jsonl")
    assert [type(m).__name__ for m in back] == ["AgentRequest", "AgentResponse", "AssistanceRequest", "StatusUpdate"]
    assert len(seen) == 4


def test_truncated_last_line_is_ignored(tmp_path):
    path = tmp_path / "messages.jsonl"
    MessageLog(path).append(StatusUpdate(task_id="a", status="running"))
    with open(path, "a") as fh:
        fh.write('{"type": "STATUS_UPD')  # a writer killed mid-line
    assert len(read_messages(path)) == 1
    MessageLog(path).append(StatusUpdate(task_id="b", status="resumed"))  # a resumed run appends
    assert [m.task_id for m in read_messages(path)] == ["a", "b"]


def test_bad_status_code_is_refused():
    with pytest.raises(ValueError):
        AgentResponse(task_id="t", status_code=650)


def test_message_json_schemas_snapshot(snapshot):
    schemas = {
        cls.__name__: sorted(cls.model_json_schema()["properties"])
        for cls in (AgentRequest, AgentResponse, AssistanceRequest, StatusUpdate)
    }
    assert schemas == snapshot
