"""The A2A face: report jobs as A2A tasks, served with the official ``a2a-sdk`` (1.0, with 0.3 beside it).

An A2A ``SendMessage`` becomes a report job, and the task follows the job:

- the message: its text parts are the topic; a data part holds the options
  (``lang``, ``sections``, ``corpus``, ``wiki``, ``template``, ``appendix``,
  ``guidance``, ``review``, ``review_timeout_s``);
- ``submitted`` while the job is queued; ``working`` while it runs, each status
  update saying "n of m tasks done" (metadata ``report_id``, ``tasks_done``,
  ``tasks_total``);
- with ``review: true``, ``input-required`` once the plan exists: the status
  message holds the plan as text and as a data part
  (:func:`reportgen.review.plan_view`). The client answers on the **same
  task** (``taskId`` set): a data part ``{"action": "approve"}``,
  ``{"action": "edit", "plan": {"sections": [...]}}``,
  ``{"action": "guidance", "guidance": "..."}`` — or just the text
  ``approve`` (any other text is guidance). An invalid edit keeps the task
  ``input-required`` and says what is wrong;
- artifacts ``report.html`` and ``report.pdf`` (bytes) and ``report.json``
  (data), then ``completed``; or ``failed`` (the message says why);
- ``CancelTask`` cancels the job at any stage: the task is ``canceled`` and
  nothing follows it (the job ends ``canceled`` too, at its next task
  boundary);
- invalid input — a wrong type, a non-finite number such as ``1e400``, a lone
  surrogate, a control character — is refused with ``InvalidParams``
  (-32602) before anything is stored.

Tasks live in the SDK's SQL task store, in the same SQLite database as the
jobs (the SDK's tables ``tasks`` and ``push_notification_configs``), so they survive a
restart. Each task belongs to the caller that created it (its ``owner`` is the
caller's client, as a job's ``client`` is): another user's task id is
``TaskNotFound``, exactly like a missing one; an admin reaches any task by its id
(``ListTasks`` lists the caller's own); the task's metadata names its ``report_id``, which is how an answer
sent after a restart finds its job. ``A2A-Version`` is read from the header
or, when there is none, from the ``A2A-Version`` query parameter; requests
without either are 0.3 requests (the SDK's rule) and are served by its 0.3
compatibility layer on the same endpoint.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import unicodedata
from typing import Any

from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import DefaultServerCallContextBuilder, add_a2a_routes_to_fastapi, create_jsonrpc_routes
from a2a.server.tasks import TaskUpdater
from a2a.types.a2a_pb2 import Message, Part, SendMessageRequest, TaskState
from a2a.utils.constants import VERSION_HEADER
from a2a.utils.errors import InvalidParamsError
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from google.protobuf.json_format import MessageToDict
from google.protobuf.struct_pb2 import Struct, Value
from pydantic import ValidationError
from starlette.requests import Request

from reportgen.api.a2a_push import PushSender, push_url_policy
from reportgen.api.a2a_scenarios import ScenarioExecutor, is_scenario, new_task
from reportgen.api.a2a_stores import StoreThread, open_stores
from reportgen.api.card import A2A_PATH, a2a_agent_card
from reportgen.api.security import RateLimiter, caller_of
from reportgen.errors import InputError
from reportgen.review import PlanError, ReviewAnswer, outline, plan_view
from reportgen.store import Idempotent, Job, JobStatus
from reportgen.worker import ReportRequest, ReviewStateError, Worker

__all__ = ["ReportAgentExecutor", "ValidatingRequestHandler", "check_message", "mount_a2a"]

logger = logging.getLogger(__name__)

#: Words that approve a plan when sent as text.
_APPROVALS = {"approve", "approved", "ok", "okay", "yes", "go", "lgtm"}


class _ContextBuilder(DefaultServerCallContextBuilder):
    """Passes the caller (set by the API-key middleware) and the A2A version to the handler.

    ``state["client"]`` and ``state["admin"]`` are the :class:`~reportgen.api.security.Caller`;
    the task stores keep each task under its client (:func:`~reportgen.api.a2a_stores.task_owner`).
    """

    def build(self, request: Request) -> ServerCallContext:
        context = super().build(request)
        caller = caller_of(request.scope)
        context.state["client"], context.state["admin"] = caller.client, caller.admin
        headers = context.state.setdefault("headers", {})
        if not (headers.get(VERSION_HEADER) or headers.get(VERSION_HEADER.lower())):
            version = request.query_params.get(VERSION_HEADER) or request.query_params.get(VERSION_HEADER.lower())
            if version:
                headers[VERSION_HEADER.lower()] = version
        return context


def _bad_text(value: str, where: str) -> str | None:
    for ch in value:
        category = unicodedata.category(ch)
        if category == "Cs":
            return f"{where} holds a lone surrogate (U+{ord(ch):04X})"
        if category == "Cc" and ch not in "\t\n\r":
            return f"{where} holds a control character (U+{ord(ch):04X})"
    return None


def _bad_value(value: Value, where: str) -> str | None:
    kind = value.WhichOneof("kind")
    if kind == "number_value" and not math.isfinite(value.number_value):
        return f"{where} is not a finite number"
    if kind == "string_value":
        return _bad_text(value.string_value, where)
    if kind == "struct_value":
        return _bad_struct(value.struct_value, where)
    if kind == "list_value":
        for i, item in enumerate(value.list_value.values):
            if problem := _bad_value(item, f"{where}[{i}]"):
                return problem
    return None


def _bad_struct(struct: Struct, where: str) -> str | None:
    for key, item in struct.fields.items():
        if problem := _bad_text(key, f"{where} key") or _bad_value(item, f"{where}.{key}"):
            return problem
    return None


def check_message(message: Message) -> str | None:
    """What makes ``message`` unacceptable, or ``None``.

    Refused: non-finite numbers (``1e400`` parses as infinity), lone
    surrogates and control characters (tab, newline and carriage return
    aside) anywhere in text, data or metadata.

    Args:
        message: The incoming message.

    Returns:
        The first problem in words, or ``None`` when the message is clean.
    """
    for i, part in enumerate(message.parts):
        where = f"part {i}"
        if part.HasField("text") and (problem := _bad_text(part.text, f"{where} text")):
            return problem
        if part.HasField("data") and (problem := _bad_value(part.data, f"{where} data")):
            return problem
        if problem := _bad_struct(part.metadata, f"{where} metadata"):
            return problem
    return _bad_struct(message.metadata, "message metadata")


class ValidatingRequestHandler(DefaultRequestHandler):
    """The SDK's request handler, refusing bad messages with ``InvalidParams`` before anything is stored.

    Besides :func:`check_message`, a message that starts a report must be a
    valid :class:`~reportgen.worker.ReportRequest` the server can serve (a
    corpus and template it offers), and one that answers a review must be a
    well-formed :class:`~reportgen.review.ReviewAnswer`.

    Args:
        worker: The service's worker (what it offers).
        **kwargs: Passed to :class:`a2a.server.request_handlers.DefaultRequestHandler`.
    """

    def __init__(self, worker: Worker, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.worker = worker

    def _check(self, params: SendMessageRequest) -> None:
        message = params.message
        if problem := check_message(message):
            raise InvalidParamsError(message=f"invalid message: {problem}")
        if is_scenario(message.message_id):
            return
        try:
            if message.task_id:
                answer_of(message)
            else:
                self.worker.check(request_of(message))
        except (ValidationError, InputError) as exc:
            raise InvalidParamsError(message=f"invalid request: {_reason(exc)}") from None

    async def on_message_send(self, params: SendMessageRequest, context: ServerCallContext) -> Any:  # noqa: D102
        await self.worker.ready()
        self._check(params)
        return await super().on_message_send(params, context)

    async def on_message_send_stream(self, params: SendMessageRequest, context: ServerCallContext) -> Any:  # noqa: D102
        await self.worker.ready()
        self._check(params)
        async for event in super().on_message_send_stream(params, context):
            yield event


class ReportAgentExecutor(AgentExecutor):
    """Runs A2A tasks as report jobs.

    Args:
        worker: The service's worker.
        limiter: The per-client rate limit on report creation.
    """

    def __init__(self, worker: Worker, limiter: RateLimiter) -> None:
        self.worker = worker
        self.limiter = limiter
        self.canceled: set[str] = set()  # tasks canceled: nothing more is sent for them

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Start a report (or answer its review), then stream its progress and results."""
        assert context.message is not None
        current = context.current_task
        if current is not None and "report_id" in current.metadata:
            updater = TaskUpdater(event_queue, current.id, current.context_id)
            await self._answer(context, updater, str(current.metadata["report_id"]))
            return
        assert context.task_id is not None and context.context_id is not None
        task = current or new_task(context.task_id, context.context_id, context.message)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        client = str(context.call_context.state.get("client", "a2a"))
        await self.worker.ready()
        try:
            request = request_of(context.message)
            self.worker.check(request)
        except (ValidationError, InputError) as exc:
            await _first(event_queue, task, current)
            await updater.reject(_text(updater, f"invalid request: {_reason(exc)}"))
            return
        if self.worker.admission_delay(client) is not None or self.limiter.acquire(client):
            await _first(event_queue, task, current)
            await updater.reject(_text(updater, "too many report requests from this client; try again later"))
            return
        job = self.worker.submit(request, client)
        assert not isinstance(job, Idempotent)
        task.metadata.update({"report_id": job.id})
        await _first(event_queue, task, current)
        await self._follow(updater, job.id)

    async def _answer(self, context: RequestContext, updater: TaskUpdater, job_id: str) -> None:
        assert context.message is not None
        client = str(context.call_context.state.get("client", "a2a"))
        try:
            answer = answer_of(context.message).model_copy(update={"client": f"a2a {client}"})
            self.worker.review(job_id, answer)
        except (PlanError, ValidationError) as exc:
            job = self.worker.store.get(job_id)
            if job is not None and job.status is JobStatus.INPUT_REQUIRED:
                await self._ask(updater, job, f"That plan cannot run: {_reason(exc)}. Send a corrected one.")
                return
        except ReviewStateError:
            pass  # not waiting (answered already, running): follow it as it is
        await self._follow(updater, job_id)

    async def _follow(self, updater: TaskUpdater, job_id: str) -> None:
        final: Job | None = None
        async for current in self.worker.watch(job_id):
            if updater.task_id in self.canceled:
                return
            final = current
            if current.status is JobStatus.WORKING:
                await updater.update_status(
                    TaskState.TASK_STATE_WORKING, message=_text(updater, _progress_text(current)),
                    metadata=_metadata(current),
                )
            elif current.status is JobStatus.INPUT_REQUIRED and current.review_answer is None:
                await self._ask(updater, current, "Review the plan: approve it, send an edited plan, or guidance.")
                return
        if updater.task_id not in self.canceled:
            await self._finish(updater, final)

    async def _ask(self, updater: TaskUpdater, job: Job, prompt: str) -> None:
        view = plan_view(job.plan or {})
        message = updater.new_agent_message([
            new_text_part(f"{prompt}\n\n{outline(view['blueprint'])}"),
            new_data_part({"kind": "plan_review", "report_id": job.id,
                           "plan": {"sections": view["sections"]}, "blueprint": view["blueprint"]},
                          media_type="application/json"),
        ])
        await updater.requires_input(message)

    async def _finish(self, updater: TaskUpdater, job: Job | None) -> None:
        current = self.worker.store.get(job.id) if job is not None else None
        if current is None:
            await updater.failed(_text(updater, "the report was deleted"))
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
        """Cancel the task's report at any stage; the task is ``canceled`` at once and stays so."""
        assert context.task_id is not None
        self.canceled.add(context.task_id)
        task = context.current_task
        job_id = str(task.metadata["report_id"]) if task is not None and "report_id" in task.metadata else None
        detail = "canceled"
        if job_id is not None:
            job = self.worker.cancel(job_id)
            if job is not None and not job.status.terminal:
                detail = "canceled; the report stops at its next task boundary"
        updater = TaskUpdater(event_queue, context.task_id, context.context_id or "")
        await updater.cancel(_text(updater, detail))


async def _first(queue: EventQueue, task: Any, current: Any) -> None:
    """Enqueue the new task itself (its first event), unless it existed already."""
    if current is None:
        await queue.enqueue_event(task)


def _options(message: Message) -> tuple[dict[str, Any], list[str]]:
    options: dict[str, Any] = {}
    texts: list[str] = []
    for part in message.parts:
        if part.HasField("text"):
            texts.append(part.text)
        elif part.HasField("data"):
            value = MessageToDict(part.data)
            if isinstance(value, dict):
                options.update(value)
    return options, texts


def request_of(message: Message) -> ReportRequest:
    """The report request of an A2A message: text parts are the topic, data parts the options.

    Args:
        message: The message that starts a report.

    Returns:
        The request (not yet checked against what the server offers).

    Raises:
        ValidationError: The options are not a valid request.
    """
    options, texts = _options(message)
    for name in ("sections",):  # protobuf Values hold every number as a double
        if isinstance(options.get(name), float) and options[name].is_integer():
            options[name] = int(options[name])
    options.setdefault("topic", " ".join(texts))
    return ReportRequest.model_validate(options)


def answer_of(message: Message) -> ReviewAnswer:
    """The review answer in a message sent to a task waiting for review.

    A data part is a :class:`~reportgen.review.ReviewAnswer` (``action`` and
    its fields; a bare ``{"sections": [...]}`` is an edit); without one, the
    text ``approve`` (or ``ok``, ``yes``) approves and any other text is guidance.

    Args:
        message: The answer.

    Returns:
        The answer (its ``client`` still to be set).

    Raises:
        ValidationError: The data part is not a valid answer, or the message is empty.
    """
    options, texts = _options(message)
    if options:
        if "action" not in options and "sections" in options:
            options = {"action": "edit", "plan": options}
        options.pop("client", None)
        options.pop("changes", None)
        return ReviewAnswer.model_validate(options)
    text = " ".join(t.strip() for t in texts).strip()
    if text.lower().rstrip(".!") in _APPROVALS:
        return ReviewAnswer(action="approve")
    return ReviewAnswer.model_validate({"action": "guidance", "guidance": text})


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


def _text(updater: TaskUpdater, text: str) -> Message:
    return updater.new_agent_message([new_text_part(text)])


class A2AMount:
    """The A2A endpoint's parts: the request handler, its push sender and the database engine.

    Args:
        handler: The request handler.
        sender: The push-notification sender.
        engine: The SQLAlchemy engine of the stores.
        thread: The thread the stores run on.
    """

    def __init__(self, handler: ValidatingRequestHandler, sender: PushSender, engine: Any,
                 thread: StoreThread) -> None:
        self.handler, self.sender, self.engine, self.thread = handler, sender, engine, thread

    async def close(self) -> None:
        """Close the handler, the push client, the database engine and the store thread."""
        await self.handler.aclose()
        await self.sender.aclose()
        await asyncio.to_thread(self.thread.close, self.engine)


def mount_a2a(
    app: FastAPI, worker: Worker, limiter: RateLimiter, base_url: str, *, allow_private_push: bool = False,
) -> A2AMount:
    """Mount the A2A JSON-RPC endpoint (1.0 and 0.3) at :data:`~reportgen.api.card.A2A_PATH`.

    Args:
        app: The FastAPI app.
        worker: The service's worker.
        limiter: The report-creation rate limit.
        base_url: The URL written in the handler's agent card.
        allow_private_push: Allow push webhooks to loopback, private and link-local addresses (tests).

    Returns:
        The mount; ``await mount.close()`` on shutdown.
    """
    import httpx

    thread, engine, tasks, configs = open_stores(worker.settings.jobs_db)
    sender = PushSender(httpx.AsyncClient(timeout=10, follow_redirects=False), configs,
                        push_url_validator=push_url_policy(allow_private=allow_private_push))
    handler = ValidatingRequestHandler(
        worker,
        agent_executor=ScenarioExecutor(ReportAgentExecutor(worker, limiter)),
        task_store=tasks,
        agent_card=a2a_agent_card(worker.settings, base_url),
        push_config_store=configs,
        push_sender=sender,
        push_url_validator=push_url_policy(allow_private=allow_private_push, resolve=False),
    )
    routes = [  # with and without the trailing slash (clients that join "/" to the URL)
        route for path in (A2A_PATH, f"{A2A_PATH}/")
        for route in create_jsonrpc_routes(handler, rpc_url=path, context_builder=_ContextBuilder(),
                                           enable_v0_3_compat=True)
    ]
    add_a2a_routes_to_fastapi(app, jsonrpc_routes=routes)
    app.add_middleware(JsonOnly, paths=(A2A_PATH, f"{A2A_PATH}/"))
    return A2AMount(handler, sender, engine, thread)


class JsonOnly:
    """ASGI middleware: a POST to the JSON-RPC endpoint in anything but JSON gets ``ContentTypeNotSupported``.

    Args:
        app: The ASGI app.
        paths: The endpoint's paths.
    """

    def __init__(self, app: Any, paths: tuple[str, ...]) -> None:
        self.app, self.paths = app, paths

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:  # noqa: D102
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] in self.paths:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media and media != "application/json" and not media.endswith("+json"):
                response = JSONResponse({"jsonrpc": "2.0", "id": None, "error": {
                    "code": -32005, "message": f"Content type {media!r} is not supported; send application/json",
                    "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                              "reason": "CONTENT_TYPE_NOT_SUPPORTED", "domain": "a2a-protocol.org", "metadata": {}}],
                }})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
