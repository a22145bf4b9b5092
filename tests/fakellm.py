"""A scripted OpenAI-compatible server on 127.0.0.1, so the real ``ChatOpenAI`` HTTP path runs.

A Starlette app served by uvicorn in a background thread, on an ephemeral
port. ``POST /v1/chat/completions`` answers from a queue of scripted replies
(first in, first out); ``GET /v1/models`` lists the one model ``"fake"``.
Every request is recorded. Build replies with the helpers::

    fake_llm.script(
        text("An outline follows."),                    # plain assistant text
        structured({"title": "Wind", "sections": []}),  # json_schema / json_mode / tool call,
                                                        # whichever the request asked for
        tool_call("get_weather", {"lat": 1.0}),         # an explicit tool call
        rate_limited(retry_after=2),                    # HTTP 429 + Retry-After
        server_error(),                                 # HTTP 500
        invalid_json(),                                 # content that is not JSON
        delayed(0.5, text("late")),                     # answers after a delay
        lambda request: text(request.body["model"]),    # computed from the request
    )
    llm = ChatOpenAI(base_url=fake_llm.base_url, api_key="test", model="fake", max_retries=0)

Every successful reply carries ``usage`` token counts (estimated from the
text, about four characters a token, unless the reply sets them). Streaming
requests (``"stream": true``) get the same reply as server-sent chunks, with
a final usage chunk when ``stream_options.include_usage`` asks for it. When
the queue is empty the server answers :attr:`FakeLLM.default` if set, else
HTTP 500 with an error saying so (and counts it in :attr:`FakeLLM.exhausted`).

The ``fake_llm`` fixture is registered for the whole suite (``tests/conftest.py``).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

MODEL = "fake"


@dataclass
class Reply:
    """One scripted answer.

    Attributes:
        content: Assistant message text (``None`` with tool calls only).
        tool_calls: ``[{"name": str, "arguments": dict | str, "id": str?}]``.
        structured: Data to answer in the form the request asked for: a tool
            call when the request forces a tool (``function_calling``), JSON
            content otherwise (``json_schema``, ``json_mode``).
        status: HTTP status; anything but 200 sends an OpenAI-shaped error.
        error: The error message of a non-200 reply.
        headers: Extra response headers (``Retry-After``).
        delay_s: Seconds to wait before answering.
        usage: ``(prompt_tokens, completion_tokens)``; default estimated.
        finish_reason: Default ``"tool_calls"`` with tool calls, else ``"stop"``.
        pieces: Stream the content (or the structured JSON) as these pieces,
            one chunk each, ``chunk_delay_s`` apart (streaming requests only).
        chunk_delay_s: Seconds between streamed pieces.
        raw_body: Send this body as is, with ``content_type`` (an endpoint
            that is not the OpenAI API: an HTML page).
        content_type: The media type of ``raw_body``.
    """

    content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    structured: Any = None
    status: int = 200
    error: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: tuple[int, int] | None = None
    finish_reason: str | None = None
    pieces: Any = None
    chunk_delay_s: float = 0.0
    raw_body: str | None = None
    content_type: str = "text/html"


def trickle(pieces: Any, delay_s: float = 0.05, *, finish_reason: str | None = None) -> Reply:
    """A streamed answer sent piece by piece (an iterable: it may be endless, e.g.
    ``itertools.repeat('"Sections", ')``); the server counts a client that hangs up."""
    return Reply(content="", pieces=pieces, chunk_delay_s=delay_s, finish_reason=finish_reason)


def html_page(body: str = "<!doctype html><html><body>Welcome</body></html>") -> Reply:
    """HTTP 200 with an HTML page: a base URL that is a web site, not the OpenAI API."""
    return Reply(raw_body=body, content_type="text/html; charset=utf-8")


def cut(data: Any) -> Reply:
    """Structured output that stops at the length limit (``finish_reason: "length"``), JSON cut in half."""
    raw = json.dumps(data)
    return Reply(content=raw[: len(raw) // 2], finish_reason="length")


#: A reply, or a function of the request that returns one.
Scripted = Reply | Callable[["RecordedRequest"], Reply]


def text(content: str, *, usage: tuple[int, int] | None = None) -> Reply:
    """A plain text reply."""
    return Reply(content=content, usage=usage)


def structured(data: Any, *, usage: tuple[int, int] | None = None) -> Reply:
    """Structured output, shaped to the request (tool call or JSON content)."""
    return Reply(structured=data, usage=usage)


def json_content(data: Any) -> Reply:
    """A reply whose content is ``data`` as JSON, whatever the request asked for."""
    return Reply(content=json.dumps(data))


def tool_call(name: str, arguments: dict[str, Any] | str, *, call_id: str | None = None) -> Reply:
    """A reply calling one tool (``arguments`` as a dict, or a raw string)."""
    call: dict[str, Any] = {"name": name, "arguments": arguments}
    if call_id is not None:
        call["id"] = call_id
    return Reply(tool_calls=[call])


def invalid_json(content: str = '{"title": "Unfinished", "sections": [') -> Reply:
    """Content that is not valid JSON (a truncated object)."""
    return Reply(content=content)


def rate_limited(retry_after: float | str = 1, message: str = "Rate limit reached") -> Reply:
    """HTTP 429 with ``Retry-After``."""
    value = f"{retry_after:g}" if isinstance(retry_after, int | float) else retry_after
    return Reply(status=429, error=message, headers={"Retry-After": value})


def server_error(status: int = 500, message: str = "The server had an error") -> Reply:
    """HTTP 5xx (default 500)."""
    return Reply(status=status, error=message)


def delayed(seconds: float, reply: Reply) -> Reply:
    """``reply``, sent after ``seconds``."""
    return Reply(**{**reply.__dict__, "delay_s": seconds})


@dataclass
class RecordedRequest:
    """One request the server received.

    Attributes:
        method: ``"POST"``, ``"GET"``.
        path: The URL path (``"/v1/chat/completions"``).
        headers: Request headers (lower-case names).
        body: The parsed JSON body (``{}`` for a GET).
    """

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages sent."""
        return list(self.body.get("messages") or [])


def _estimate_tokens(value: Any) -> int:
    raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return max(1, len(raw) // 4)


def _forced_tool(body: dict[str, Any]) -> str | None:
    """The tool a request forces (``function_calling``), else ``None``."""
    tools = body.get("tools") or []
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return (choice.get("function") or {}).get("name")
    if isinstance(choice, str) and choice not in ("none", "auto") and tools:
        if choice == "required":
            return tools[0]["function"]["name"]
        return choice
    return None


class FakeLLM:
    """The scripted OpenAI-compatible server (see the module docstring).

    Attributes:
        base_url: ``http://127.0.0.1:<port>/v1`` (give it to ``ChatOpenAI``).
        requests: Every request received, in order.
        default: Answered when the queue is empty (``None``: HTTP 500).
        exhausted: Requests that found the queue empty and no default.
        disconnects: Streamed answers whose client hung up before the end.
        streaming: Streamed answers being sent right now.
    """

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.default: Scripted | None = None
        self.exhausted = 0
        self.disconnects = 0
        self.streaming = 0
        self._queue: deque[Scripted] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._counter = 0
        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
            ]
        )
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        port = self._socket.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        config = uvicorn.Config(
            app, log_level="error", access_log=False, lifespan="off", ws="none", http="h11",
            timeout_graceful_shutdown=2,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, name="fake-llm",
            daemon=True,
        )  # fmt: skip

    # ------------------------------------------------------------------ script

    def script(self, *replies: Scripted) -> FakeLLM:
        """Queue replies, answered in order."""
        with self._lock:
            self._queue.extend(replies)
        return self

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        with self._lock:
            return len(self._queue)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The ``/v1/chat/completions`` requests received."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> FakeLLM:
        """Start serving; returns once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the fake LLM server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Wake delayed replies, stop the server, join its thread, close the socket."""
        self._stopping.set()
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(10)
        self._socket.close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ handlers

    async def _models(self, request: Request) -> Response:
        self._record(request, {})
        return JSONResponse(
            {"object": "list", "data": [
                {"id": MODEL, "object": "model", "created": 0, "owned_by": "fakellm"}
            ]}
        )  # fmt: skip

    def _record(self, request: Request, body: dict[str, Any]) -> RecordedRequest:
        recorded = RecordedRequest(
            method=request.method,
            path=request.url.path,
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
        )
        with self._lock:
            self.requests.append(recorded)
        return recorded

    def _next(self, recorded: RecordedRequest) -> Reply | None:
        with self._lock:
            scripted = self._queue.popleft() if self._queue else self.default
            if scripted is None:
                self.exhausted += 1
            self._counter += 1
        if scripted is None:
            return None
        return scripted(recorded) if callable(scripted) else scripted

    async def _chat(self, request: Request) -> Response:
        try:
            body = json.loads(await request.body())
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self._record(request, {})
            return _error(400, "request body is not a JSON object", "invalid_request_error")
        recorded = self._record(request, body)
        reply = self._next(recorded)
        if reply is None:
            return _error(500, "fakellm: no scripted reply left", "server_error")
        if reply.delay_s:
            await self._sleep(reply.delay_s)
        if reply.status != 200:
            kind = {429: "rate_limit_exceeded", 401: "invalid_api_key", 404: "model_not_found",
                    400: "invalid_request_error"}.get(reply.status, "server_error")
            return _error(reply.status, reply.error or f"HTTP {reply.status}", kind, reply.headers)
        if reply.raw_body is not None:
            return Response(reply.raw_body, media_type=reply.content_type)
        if reply.pieces is not None and body.get("stream"):
            return StreamingResponse(self._trickle(reply, body), media_type="text/event-stream")
        message, finish = self._message(reply, body)
        prompt, completion = reply.usage or (
            _estimate_tokens(body.get("messages", [])),
            _estimate_tokens(message.get("content") or message.get("tool_calls") or ""),
        )
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        completion_id = f"chatcmpl-fake-{self._counter}"
        model = str(body.get("model") or MODEL)
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            chunks = _stream_chunks(completion_id, model, message, finish, usage, include_usage)
            return StreamingResponse(iter(chunks), media_type="text/event-stream",
                                     headers=reply.headers)  # fmt: skip
        return JSONResponse(
            {
                "id": completion_id,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "system_fingerprint": "fakellm",
                "choices": [
                    {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
                ],
                "usage": usage,
            },
            headers=reply.headers,
        )

    async def _trickle(self, reply: Reply, body: dict[str, Any]) -> Any:
        base = {"id": f"chatcmpl-fake-{self._counter}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": str(body.get("model") or MODEL)}
        forced = _forced_tool(body)
        finished = False
        self.streaming += 1
        try:
            for n, piece in enumerate(reply.pieces):
                if self._stopping.is_set():
                    return
                if forced is not None:
                    delta: dict[str, Any] = {"tool_calls": [{"index": 0, "id": "call_0", "type": "function",
                                                             "function": {"name": forced if n == 0 else None,
                                                                          "arguments": piece}}]}
                else:
                    delta = {"content": piece}
                yield f"data: {json.dumps({**base, 'choices': [{'index': 0, 'delta': delta}]})}\n\n".encode()
                await self._sleep(reply.chunk_delay_s)
            finish = reply.finish_reason or ("tool_calls" if forced else "stop")
            done = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
            yield f"data: {json.dumps(done)}\n\n".encode()
            yield b"data: [DONE]\n\n"
            finished = True
        finally:
            self.streaming -= 1
            if not finished:
                self.disconnects += 1

    async def _sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not self._stopping.is_set():
            await asyncio.sleep(min(0.02, max(0.0, deadline - time.monotonic())))

    def _message(self, reply: Reply, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        content = reply.content
        calls = reply.tool_calls
        if reply.structured is not None:
            forced = _forced_tool(body)
            if forced is not None:
                calls = [{"name": forced, "arguments": reply.structured}]
            else:
                content = json.dumps(reply.structured)
        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
        if calls:
            message["tool_calls"] = [
                {
                    "id": call.get("id") or f"call_{self._counter}_{n}",
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": call["arguments"]
                        if isinstance(call["arguments"], str)
                        else json.dumps(call["arguments"]),
                    },
                }
                for n, call in enumerate(calls)
            ]
        finish = reply.finish_reason or ("tool_calls" if calls else "stop")
        return message, finish


def _error(
    status: int, message: str, kind: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": kind, "param": None, "code": kind}},
        status_code=status,
        headers=headers or {},
    )


def _stream_chunks(
    completion_id: str,
    model: str,
    message: dict[str, Any],
    finish: str,
    usage: dict[str, int],
    include_usage: bool,
) -> list[bytes]:
    base = {"id": completion_id, "object": "chat.completion.chunk", "created": int(time.time()),
            "model": model, "system_fingerprint": "fakellm"}  # fmt: skip
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    if message.get("tool_calls"):
        delta["tool_calls"] = [
            {"index": n, **call} for n, call in enumerate(message["tool_calls"])
        ]
    events = [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
    ]
    if include_usage:
        events.append({**base, "choices": [], "usage": usage})
    out = [f"data: {json.dumps(event)}\n\n".encode() for event in events]
    out.append(b"data: [DONE]\n\n")
    return out


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    """A running scripted OpenAI-compatible server, stopped after the test."""
    with FakeLLM() as server:
        yield server
