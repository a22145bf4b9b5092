"""A2A against one real uvicorn: reviewed reports with the 1.x and 0.3 SDK clients, final cancel, bad input,
A2A-Version from a query parameter, push webhooks (credentials, retries, SSRF), tasks alive after a restart."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_data_part, new_text_part
from a2a.types.a2a_pb2 import (
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Role,
    SendMessageRequest,
    TaskState,
)
from google.protobuf.json_format import MessageToDict

from reportgen.acp import read_messages
from reportgen.api import create_app

from api_kit import TOPIC, SlowSearch, live, make_settings, wait_until

A2A03_PYTHON = Path(os.environ.get("REPORTGEN_A2A03_VENV", ".venv-a2a03")) / "bin" / "python"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module: slow enough search to cancel mid-run, private webhooks allowed."""
    base = tmp_path_factory.mktemp("a2a")
    settings = make_settings(base, home=base / "home", max_jobs=2, max_jobs_per_client=50, rate_limit=1000)
    app = create_app(settings, search=SlowSearch(0.05), backoff_scale=0, allow_private_push=True)
    with live(app) as running:
        running.out = base / "out"  # type: ignore[attr-defined]
        running.settings = settings  # type: ignore[attr-defined]
        yield running


def _message(*parts, task_id: str = "", context_id: str = "") -> SendMessageRequest:
    return SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=str(uuid.uuid4()), parts=list(parts),
                                              task_id=task_id, context_id=context_id))


async def _run(a2a, request) -> tuple[list[int], object]:
    """Send, follow the stream; return the states seen and the last task/status event."""
    states, last, task = [], None, None
    async for event in a2a.send_message(request):
        if event.HasField("task"):
            task = event.task
            states.append(event.task.status.state)
        elif event.HasField("status_update"):
            states.append(event.status_update.status.state)
            last = event.status_update
    return states, (last, task)


async def test_a_1x_client_reviews_the_plan_and_the_report_follows_the_edit(server):
    async with httpx.AsyncClient(timeout=60) as http:
        a2a = await create_client(server.url, client_config=ClientConfig(httpx_client=http, streaming=True))
        states, (last, task) = await _run(a2a, _message(new_text_part(TOPIC),
                                                        new_data_part({"sections": 3, "review": True})))
        assert states[-1] == TaskState.TASK_STATE_INPUT_REQUIRED
        text, data = last.status.message.parts
        assert "Review the plan" in text.text and "1. " in text.text
        plan = MessageToDict(data.data)
        assert plan["kind"] == "plan_review"
        sections = plan["plan"]["sections"]
        report_id = plan["report_id"]
        assert (await http.get(f"{server.url}/reports/{report_id}")).json()["status"] == "input_required"

        # An invalid edit keeps the same task waiting, and says why.
        bad = {"action": "edit", "plan": {"sections": [{"id": "s9", "title": "Nowhere"}]}}
        states, (last, _) = await _run(a2a, _message(new_data_part(bad), task_id=task.id, context_id=task.context_id))
        assert states[-1] == TaskState.TASK_STATE_INPUT_REQUIRED
        assert "'s9'" in last.status.message.parts[0].text

        edit = {"action": "edit", "plan": {"sections": [{**sections[0], "title": "Wind turbines"}, sections[2]]}}
        states, (last, _) = await _run(a2a, _message(new_data_part(edit), task_id=task.id, context_id=task.context_id))
        assert states[-1] == TaskState.TASK_STATE_COMPLETED and last.task_id == task.id
        done = await a2a.get_task(GetTaskRequest(id=task.id))
        assert done.status.state == TaskState.TASK_STATE_COMPLETED
        assert [a.name for a in done.artifacts] == ["report.html", "report.pdf", "report.json"]
        await a2a.close()
    report = json.loads((server.out / report_id / "report.json").read_text())
    titles = [s["title"] for s in report["sections"]]
    assert "Wind turbines" in titles and sections[1]["title"] not in titles and sections[2]["title"] in titles
    review = [m for m in read_messages(server.out / report_id / "messages.jsonl")
              if m.type == "STATUS_UPDATE" and m.task_id == "review"]
    assert [m.status for m in review] == ["edited"] and "by a2a" in review[0].detail


@pytest.mark.skipif(not A2A03_PYTHON.exists(), reason="the a2a-sdk 0.3 venv is missing (make a2a03-deps)")
def test_an_0_3_client_reviews_the_plan_and_the_report_follows_the_edit(server):
    script = Path(__file__).with_name("a2a03_client.py")
    done = subprocess.run([str(A2A03_PYTHON), "-W", "ignore", str(script), server.url],
                          capture_output=True, text=True, timeout=180, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["protocol"] == "0.3.0"
    assert result["states"][0] == "input-required" and result["states"][-1] == "completed"
    assert result["artifacts"] == ["report.html", "report.pdf", "report.json"]
    report = json.loads((server.out / result["report_id"] / "report.json").read_text())
    titles = [s["title"] for s in report["sections"]]
    assert "Wind turbines" in titles and result["dropped"] not in titles


async def test_canceled_is_final_on_a2a_and_rest(server):
    async with httpx.AsyncClient(timeout=60) as http:
        a2a = await create_client(server.url, client_config=ClientConfig(httpx_client=http, streaming=True))
        seen: list[int] = []
        task_id = None

        async def follow():
            nonlocal task_id
            async for event in a2a.send_message(_message(new_text_part(TOPIC), new_data_part({"sections": 4}))):
                if event.HasField("task"):
                    task_id = event.task.id
                elif event.HasField("status_update"):
                    seen.append(event.status_update.status.state)

        stream = asyncio.create_task(follow())
        await wait_until(lambda: TaskState.TASK_STATE_WORKING in seen)
        canceled = await a2a.cancel_task(CancelTaskRequest(id=task_id))
        assert canceled.status.state == TaskState.TASK_STATE_CANCELED
        await asyncio.wait_for(stream, 30)
        after = seen[seen.index(TaskState.TASK_STATE_CANCELED) + 1:] if TaskState.TASK_STATE_CANCELED in seen else []
        assert after == []  # nothing streamed after CANCELED
        for _ in range(5):
            assert (await a2a.get_task(GetTaskRequest(id=task_id))).status.state == TaskState.TASK_STATE_CANCELED
            await asyncio.sleep(0.2)
        report_id = canceled.metadata["report_id"]

        async def job_canceled():
            return (await http.get(f"{server.url}/reports/{report_id}")).json()["status"] == "canceled"

        await wait_until(job_canceled)
        with pytest.raises(Exception, match="(?i)cancel"):
            await a2a.cancel_task(CancelTaskRequest(id=task_id))  # terminal: refused with a reason
        await a2a.close()


async def test_a_rest_cancel_while_rendering_ends_canceled(server):
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 2})).json()

        async def research_over():
            state = (await http.get(f"/reports/{job['id']}")).json()
            progress = state["progress"]
            return state if progress["tasks_total"] and progress["tasks_done"] == progress["tasks_total"] else None

        state = await wait_until(research_over, step=0.01)
        if state["status"] == "completed":
            pytest.skip("the report rendered before the cancel could be sent")
        assert (await http.delete(f"/reports/{job['id']}")).status_code == 202
        final = await wait_until(lambda: _terminal(http, job["id"]))
        assert final["status"] == "canceled" and final["error"]["code"] == "canceled"
        assert (await http.get(f"/reports/{job['id']}/report.pdf")).status_code == 409


async def _terminal(http, report_id):
    job = (await http.get(f"/reports/{report_id}")).json()
    return job if job["status"] in ("completed", "failed", "canceled") else None


@pytest.mark.parametrize("params", [
    '{"message": {"messageId": "m-1", "role": "ROLE_USER", '
    '"parts": [{"text": "Solar"}, {"data": {"sections": 1e400}}]}}',
    '{"message": {"messageId": "m-2", "role": "ROLE_USER", "parts": [{"text": "Solar \\ud800 power"}]}}',
    '{"message": {"messageId": "m-3", "role": "ROLE_USER", "parts": [{"text": "Solar\\u0000power"}]}}',
    '{"message": {"messageId": "m-4", "role": "ROLE_USER", "parts": [{"text": "Solar"}, {"data": {"sections": "5"}}]}}',
    '{"message": {"messageId": "m-5", "role": "ROLE_USER", "parts": [{"text": "Solar"}, {"data": {"wiki": 3}}]}}',
])
async def test_bad_input_is_invalid_params_and_never_stored(server, params):
    body = '{"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": ' + params + "}"
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        answer = await http.post("/a2a", content=body.encode("utf-8", "surrogatepass"),
                                 headers={"content-type": "application/json", "A2A-Version": "1.0"})
        error = answer.json()["error"]
        assert error["code"] in (-32602, -32700), error  # a lone surrogate is not even valid JSON text
        a2a = await create_client(server.url, client_config=ClientConfig(httpx_client=http, streaming=False))
        listed = await a2a.list_tasks(ListTasksRequest())
        for task in listed.tasks:  # every stored task still reads back
            assert (await a2a.get_task(GetTaskRequest(id=task.id))).id == task.id
            assert all(p.text != "Solar" for m in task.history for p in m.parts)
        await a2a.close()


async def test_the_version_may_come_as_a_query_parameter(server):
    body = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "no-such-task"}}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        unsupported = (await http.post("/a2a?A2A-Version=99.0", json=body)).json()
        assert "not supported" in unsupported["error"]["message"]
        missing = (await http.post("/a2a?A2A-Version=1.0", json=body)).json()
        assert missing["error"]["code"] == -32001  # TaskNotFound: the 1.0 handler answered


class _Webhook(BaseHTTPRequestHandler):
    calls: list[dict] = []
    fail_first = 2

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        _Webhook.calls.append({"auth": self.headers.get("authorization"),
                               "token": self.headers.get("x-a2a-notification-token"), "body": json.loads(body)})
        failing = len(_Webhook.calls) <= _Webhook.fail_first
        self.send_response(503 if failing else 200)
        self.end_headers()

    def log_message(self, *args):
        pass


async def test_push_notifications_carry_credentials_retry_and_refuse_internal_targets(tmp_path, server):
    hook = ThreadingHTTPServer(("127.0.0.1", 0), _Webhook)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            config = {"url": f"http://127.0.0.1:{hook.server_port}/hook", "token": "tok-1",
                      "authentication": {"scheme": "Bearer", "credentials": "s3cret"}}
            body = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
                "message": {"messageId": "tck-complete-task-push", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
                "configuration": {"taskPushNotificationConfig": config, "returnImmediately": False}}}
            sent = (await http.post("/a2a", json=body, headers={"A2A-Version": "1.0"})).json()
            assert "result" in sent, sent
            await wait_until(lambda: len(_Webhook.calls) >= 3, timeout=20)
        assert all(c["auth"] == "Bearer s3cret" and c["token"] == "tok-1" for c in _Webhook.calls)
        assert len(_Webhook.calls) >= 3  # two 503s, then delivered
    finally:
        hook.shutdown()
        hook.server_close()

    # Without allow_private_push, internal targets are refused when registered.
    from reportgen.api.a2a_push import push_url_policy

    check = push_url_policy()
    for url in ("http://127.0.0.1:9/x", "http://localhost/x", "http://10.0.0.5/x", "http://169.254.169.254/x",
                "http://[::1]/x", "http://[::ffff:127.0.0.1]/x", "ftp://example.com/x"):
        assert not await push_url_policy(resolve=False)(url), url
        assert not await check(url), url
    assert await push_url_policy(resolve=False)("https://example.com/hook")


def test_a2a_tasks_and_jobs_survive_a_restart(tmp_path):
    settings = make_settings(tmp_path)

    async def first() -> tuple[str, str]:
        async with httpx.AsyncClient(timeout=60) as http:
            a2a = await create_client(srv.url, client_config=ClientConfig(httpx_client=http, streaming=True))
            states, (last, task) = await _run(a2a, _message(new_text_part(TOPIC),
                                                            new_data_part({"sections": 2, "review": True})))
            assert states[-1] == TaskState.TASK_STATE_INPUT_REQUIRED
            await a2a.close()
            return task.id, task.context_id

    with live(create_app(settings, search=SlowSearch(0.01), backoff_scale=0)) as srv:
        task_id, context_id = asyncio.run(first())

    async def second() -> None:
        async with httpx.AsyncClient(timeout=60) as http:
            a2a = await create_client(srv.url, client_config=ClientConfig(httpx_client=http, streaming=True))
            waiting = await a2a.get_task(GetTaskRequest(id=task_id))
            assert waiting.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
            states, _ = await _run(a2a, _message(new_text_part("approve"), task_id=task_id, context_id=context_id))
            assert states[-1] == TaskState.TASK_STATE_COMPLETED
            await a2a.close()

    with live(create_app(settings, search=SlowSearch(0.01), backoff_scale=0)) as srv:
        asyncio.run(second())


def test_the_kill_of_a_server_waiting_for_review_loses_nothing(tmp_path):
    """A real ``kill -9`` of the service while the job waits for review; the restarted one finishes it."""
    env = {**os.environ, "REPORTGEN_HOME": str(tmp_path / "home"), "REPORTGEN_OUT_DIR": str(tmp_path / "out")}
    script = Path(__file__).with_name("serve_fake.py")

    def start() -> tuple[subprocess.Popen, str]:
        proc = subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        return proc, proc.stdout.readline().strip()

    proc, url = start()
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            job = http.post("/reports", json={"topic": TOPIC, "sections": 2, "review": True}).json()
            asyncio.run(wait_until(lambda: http.get(f"/reports/{job['id']}").json()["status"] == "input_required"))
            plan = http.get(f"/reports/{job['id']}/plan").json()
    finally:
        proc.kill()
        proc.wait(10)
        proc.stdout.close()
    proc, url = start()
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            assert http.get(f"/reports/{job['id']}").json()["status"] == "input_required"
            assert http.get(f"/reports/{job['id']}/plan").json() == plan
            assert http.post(f"/reports/{job['id']}/review", json={"action": "approve"}).status_code == 202
            done = asyncio.run(wait_until(lambda: http.get(f"/reports/{job['id']}").json()["status"]
                                          in ("completed", "failed"), timeout=60))
            assert done and http.get(f"/reports/{job['id']}").json()["status"] == "completed"
    finally:
        proc.terminate()
        proc.wait(30)
        proc.stdout.close()
