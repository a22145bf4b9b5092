"""The A2A face: report jobs as A2A tasks, served with the official ``a2a-sdk``.

An A2A ``SendMessage`` becomes a report job, and the task follows the job:

- the message: its text parts are the topic; a data part holds the options
  (``lang``, ``sections``, ``corpus``, ``wiki``, ``template``, ``appendix``);
- ``submitted`` while the job is queued; ``working`` while it runs, each status
  update saying "n of m tasks done" (metadata ``report_id``, ``tasks_done``,
  ``tasks_total``);
- artifacts ``report.html`` and ``report.pdf`` (bytes) and ``report.json``
  (data), then ``completed``; or ``failed`` (the message says why);
- ``rejected`` for an invalid request, or when a cap or rate limit is hit;
- ``CancelTask`` cancels the job: it stops at its next task boundary.

The SDK keeps A2A tasks in memory (``InMemoryTaskStore``); report jobs are in
SQLite and survive a restart, so after one the report is still at
``/reports/<report_id>`` even though its A2A task is gone.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from a2a.helpers import new_data_part, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import DefaultServerCallContextBuilder, add_a2a_routes_to_fastapi, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import Part, TaskState
from fastapi import FastAPI
from google.protobuf.json_format import MessageToDict
from pydantic import ValidationError
from starlette.requests import Request

from reportgen.api.card import A2A_PATH, a2a_agent_card
from reportgen.api.security import RateLimiter
from reportgen.errors import InputError
from reportgen.store import Idempotent, Job, JobStatus
from reportgen.worker import ReportRequest, Worker

__all__ = ["ReportAgentExecutor", "mount_a2a"]

logger = logging.getLogger(__name__)


class _ContextBuilder(DefaultServerCallContextBuilder):
    """Passes the client identity (set by the API-key middleware) to the executor."""

    def build(self, request: Request) -> ServerCallContext:
        context = super().build(request)
        context.state["client"] = request.scope.get("state", {}).get("client", "a2a")
        return context


class ReportAgentExecutor(AgentExecutor):
    """Runs A2A tasks as report jobs.

    Args:
        worker: The service's worker.
        limiter: The per-client rate limit on report creation.
    """

    def __init__(self, worker: Worker, limiter: RateLimiter) -> None:
        self.worker = worker
        self.limiter = limiter
        self.jobs: dict[str, str] = {}  # A2A task id -> report id

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Queue a report for the message, then stream its progress and results."""
        assert context.message is not None
        task = context.current_task or new_task_from_user_message(context.message)
        if context.current_task is None:
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        client = str(context.call_context.state.get("client", "a2a"))
        try:
            request = _request(context)
            self.worker.check(request)
        except (ValidationError, InputError) as exc:
            await updater.reject(_text(updater, f"invalid request: {_reason(exc)}"))
            return
        if self.worker.admission_delay(client) is not None or self.limiter.acquire(client):
            await updater.reject(_text(updater, "too many report requests from this client; try again later"))
            return
        job = self.worker.submit(request, client)
        assert not isinstance(job, Idempotent)
        self.jobs[task.id] = job.id
        try:
            final: Job = job
            async for current in self.worker.watch(job.id):
                final = current
                if current.status is JobStatus.WORKING:
                    await updater.update_status(
                        TaskState.TASK_STATE_WORKING,
                        message=_text(updater, _progress_text(current)),
                        metadata=_metadata(current),
                    )
            await self._finish(updater, final)
        finally:
            self.jobs.pop(task.id, None)

    async def _finish(self, updater: TaskUpdater, job: Job) -> None:
        current = self.worker.store.get(job.id)
        if current is None:
            await updater.failed(_text(updater, f"report {job.id} was deleted"))
            return
        if current.status is JobStatus.COMPLETED:
            folder = self.worker.report_dir(current.id)
            for name, media_type in (("report.html", "text/html"), ("report.pdf", "application/pdf")):
                data = (folder / name).read_bytes()
                await updater.add_artifact(
                    [Part(raw=data, filename=name, media_type=media_type)], name=name,
                    metadata={"report_id": current.id, "path": f"/reports/{current.id}/{name}"},
                )
            report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
            await updater.add_artifact(
                [new_data_part(report, media_type="application/json")], name="report.json",
                metadata={"report_id": current.id, "path": f"/reports/{current.id}/report.json"},
            )
            pages = f", {current.pages} pages" if current.pages else ""
            await updater.complete(_text(updater, f"report {current.id} completed: {current.title}{pages}"))
        elif current.status is JobStatus.CANCELED:
            await updater.cancel(_text(updater, current.error or "canceled"))
        else:
            await updater.failed(_text(updater, f"{current.error_code}: {current.error}"))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Cancel the task's report: it stops at its next task boundary."""
        assert context.task_id is not None
        job_id = self.jobs.get(context.task_id)
        if job_id is not None:
            self.worker.cancel(job_id)
        updater = TaskUpdater(event_queue, context.task_id, context.context_id or "")
        await updater.cancel(_text(updater, "canceled; the report stops at its next task boundary"))


def _request(context: RequestContext) -> ReportRequest:
    """The report request of an A2A message: text parts are the topic, data parts the options."""
    assert context.message is not None
    options: dict[str, Any] = {}
    texts: list[str] = []
    for part in context.message.parts:
        if part.HasField("text"):
            texts.append(part.text)
        elif part.HasField("data"):
            value = MessageToDict(part.data)
            if isinstance(value, dict):
                options.update(value)
    if "sections" in options and isinstance(options["sections"], float) and options["sections"].is_integer():
        options["sections"] = int(options["sections"])  # protobuf Values hold every number as a double
    options.setdefault("topic", " ".join(texts))
    return ReportRequest.model_validate(options)


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'request'}: {e['msg']}" for e in exc.errors())
    return str(exc)


def _progress_text(job: Job) -> str:
    if not job.tasks_total:
        return f"report {job.id}: planning"
    return f"report {job.id}: {job.tasks_done} of {job.tasks_total} tasks finished"


def _metadata(job: Job) -> dict[str, Any]:
    return {"report_id": job.id, "tasks_done": job.tasks_done, "tasks_total": job.tasks_total}


def _text(updater: TaskUpdater, text: str):  # noqa: ANN202 - returns an a2a Message
    return updater.new_agent_message([new_text_part(text)])


def mount_a2a(app: FastAPI, worker: Worker, limiter: RateLimiter, base_url: str) -> DefaultRequestHandler:
    """Mount the A2A JSON-RPC endpoint at :data:`~reportgen.api.card.A2A_PATH`.

    Args:
        app: The FastAPI app.
        worker: The service's worker.
        limiter: The report-creation rate limit.
        base_url: The URL written in the handler's agent card.

    Returns:
        The request handler (close it with ``await handler.aclose()`` on shutdown).
    """
    handler = DefaultRequestHandler(
        agent_executor=ReportAgentExecutor(worker, limiter),
        task_store=InMemoryTaskStore(),
        agent_card=a2a_agent_card(worker.settings, base_url),
    )
    add_a2a_routes_to_fastapi(
        app, jsonrpc_routes=create_jsonrpc_routes(handler, rpc_url=A2A_PATH, context_builder=_ContextBuilder()),
    )
    return handler
