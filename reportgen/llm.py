"""Chat models for model-driven reports: one OpenAI-compatible endpoint, a model per role.

Any endpoint that speaks the OpenAI chat-completions API works (OpenAI, vLLM,
Ollama, LM Studio, llama.cpp's and llama-cpp-python's servers): set
``REPORTGEN_LLM_MODEL`` and, for anything but OpenAI, ``REPORTGEN_LLM_BASE_URL``.
Calls go through the ``openai`` client (the one ``langchain-openai`` wraps),
always streamed, because only a stream lets a call be really stopped: the
server notices the closed connection and stops computing.

Every call is bounded four ways:

* **time** — one deadline hierarchy, call < attempt < task < run: a call's
  deadline is the earliest of ``llm_timeout_s``, the attempt's deadline (its
  caller passes it) and the run's; a watchdog thread shuts the call's socket
  down when it passes (or when the run ends, :meth:`LLM.close`), so the HTTP
  request is closed, the concurrency slot freed and the worker thread free;
* **output** — ``max_tokens`` per role, ``maxItems`` / ``maxLength`` in every
  schema sent, every field required, and a repetition guard that stops an
  answer looping on the same words; a cut answer is :class:`ModelCutError`
  (ACP 603), never a network failure;
* **concurrency** — per endpoint, starting at ``llm_max_concurrency``,
  halved on timeouts, 429 and 503, grown back by one per window of
  successes (additive increase, multiplicative decrease, as TCP, RFC 5681);
* **tokens** — the run's budget (``max_tokens``) is checked before every
  call, counting what calls in flight may still spend; every call the
  server computed is counted, failed ones too (estimated, about four
  characters a token, when the server reports no usage).

Errors are classified by class, never by message text::

    ModelEndpointError (ConfigError)  fatal: auth (401/403), unknown model (404),
                                      an unsupported structured-output method,
                                      an endpoint that is not the OpenAI API,
                                      an endpoint never reached; the run stops
    ModelCallError                    transient: timeout, network, 429, 5xx;
                                      retried inside the call first
    ModelOutputError                  the answer does not match the schema (607)
    ModelCutError (AgentError 603)    cut at max_tokens, or stopped repeating itself;
                                      also a request the endpoint refuses (400/422)
    BudgetError (AgentError 605)      the token budget is spent

The structured-output method (``json_schema``, then ``function_calling``,
then ``json_mode`` with the schema in the prompt) is detected once per
endpoint and model and cached for the process (``llm_structured_output=auto``).
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import random
import re
import socket
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from reportgen._lazy import lazy_module
from reportgen.acp import StatusCode
from reportgen.config import Settings
from reportgen.errors import AgentError, ConfigError, ReportgenError

if TYPE_CHECKING:
    import httpx2 as httpx  # the HTTP client of openai >= 3 (httpx's successor, same API)
    import openai
else:  # imported with the first model call: the client is ~0.6 s of start-up (issue 15)
    httpx = lazy_module("httpx2")
    openai = lazy_module("openai")

__all__ = [
    "LLM",
    "METHODS",
    "PRICES",
    "ROLES",
    "BudgetError",
    "ModelCallError",
    "ModelCutError",
    "ModelEndpointError",
    "ModelOutputError",
    "Usage",
    "forget_endpoints",
    "repetition",
]

ROLES = ("planner", "researcher", "plot", "writer")
#: Structured-output methods, in the order ``auto`` tries them.
METHODS = ("json_schema", "function_calling", "json_mode")

#: USD per million (input, output) tokens, from OpenAI's public pricing page
#: (2025). Other models are priced only through ``REPORTGEN_LLM_PRICE_IN/OUT``.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
}

#: Share of the token budget kept for the writer role: research, charts and
#: planning stop at ``(1 - WRITING_SHARE) * max_tokens`` so that the sections
#: research reached can still be written.
WRITING_SHARE = 0.4
#: Characters per token when a server reports no usage (OpenAI's rule of
#: thumb for English: "one token is about four characters").
CHARS_PER_TOKEN = 4
#: Transport tries of one call (the first included) for transient errors.
CALL_TRIES = 3
#: Seconds a call keeps free before its attempt's deadline, to return in time.
MARGIN_S = 0.5
#: Fewest seconds a call needs to be worth starting, measured to its own
#: deadline once it has a slot. A server evaluates the prompt before it sends
#: the first token and notices a closed connection only then, so a call cut
#: during its prompt keeps the server busy after the call, or reportgen, is
#: gone (llama-cpp-python: a few seconds for a 1,000-token prompt on 2 cores).
MIN_CALL_S = 8.0

Schema = TypeVar("Schema", bound=BaseModel)


class ModelCallError(ReportgenError):
    """A model call failed in a way that may pass (timeout, network, 429, 5xx).

    Attributes:
        http_status: The HTTP status, when the endpoint answered.
        retry_after_s: The endpoint's ``Retry-After``, in seconds, when given.
    """

    code = "model_call"

    def __init__(self, message: str, *, http_status: int | None = None, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.http_status = http_status
        self.retry_after_s = retry_after_s


class ModelOutputError(ReportgenError):
    """The model answered, but not with output matching the requested schema."""

    code = "model_output"


class ModelEndpointError(ConfigError):
    """The endpoint cannot serve this run: retrying cannot help (the run stops).

    Auth refused, unknown model, a structured-output method it does not
    support, an answer that is not the OpenAI API, an address never reached.
    The message is one line holding the server's own words.
    """

    code = "model_endpoint"


class ModelCutError(AgentError):
    """An answer that cannot be used as sent: cut at ``max_tokens``, stopped while
    repeating itself, or a request the endpoint refused (ACP 603)."""

    code = "model_cut"

    def __init__(self, message: str, resolution: str = "answer again, shorter") -> None:
        super().__init__(StatusCode.INVALID_PARAMETER_USAGE, message, resolution)


class BudgetError(AgentError):
    """The run's token budget leaves nothing for this call (ACP 605; not billed)."""

    code = "budget"

    def __init__(self, message: str) -> None:
        super().__init__(StatusCode.INCOMPLETE_INFORMATION, message, "stop: the token budget is spent")


class _Unsupported(Exception):
    """Internal: the endpoint refused the structured-output method (a probe passed)."""


def _retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Parse ``Retry-After`` (seconds or an HTTP date; RFC 9110 section 10.2.3)."""
    value = headers.get("retry-after") if headers is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            parsed = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, parsed.timestamp() - time.time())


def repetition(text: str, *, min_chars: int = 120, min_repeats: int = 4) -> str | None:
    """The unit ``text`` ends repeating, if it loops (a model stuck on the same words).

    A tail made of one unit of 2..100 characters repeated at least
    ``min_repeats`` times and spanning at least ``min_chars`` characters
    is a loop: ``'"Sections", "Sections", ...'``. Real prose and JSON lists of
    distinct items never are.

    Args:
        text: The answer so far.
        min_chars: Shortest looping tail, in characters.
        min_repeats: Fewest repetitions of the unit.

    Returns:
        The repeated unit, or ``None``.
    """
    tail = text[-1200:]
    for size in range(2, 101):
        repeats = max(min_repeats, -(-min_chars // size))
        if size * repeats > len(tail):
            break
        unit = tail[-size:]
        if unit.strip() and tail.endswith(unit * repeats):
            return unit
    return None


class Usage:
    """Token counts per role and per task, safe to update from worker threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_role: dict[str, dict[str, int]] = defaultdict(lambda: {"input": 0, "output": 0, "calls": 0})
        self.by_task: dict[str, dict[str, int]] = defaultdict(lambda: {"input": 0, "output": 0, "calls": 0})
        self.models: dict[str, str] = {}
        self.estimated_calls = 0
        self.failed_calls = 0

    def add(self, role: str, task_id: str, model: str, tokens_in: int, tokens_out: int, *,
            estimated: bool = False, failed: bool = False) -> None:
        """Count one call (``estimated``: the server reported no usage; ``failed``: it was not used)."""
        with self._lock:
            self.models[role] = model
            self.estimated_calls += estimated
            self.failed_calls += failed
            for bucket in (self.by_role[role], self.by_task[task_id]):
                bucket["input"] += tokens_in
                bucket["output"] += tokens_out
                bucket["calls"] += 1

    @property
    def total(self) -> int:
        """Input + output tokens of every call so far."""
        with self._lock:
            return sum(b["input"] + b["output"] for b in self.by_role.values())

    def cost_usd(self, settings: Settings) -> float | None:
        """Estimated cost in USD, or ``None`` when a model's price is unknown."""
        total = 0.0
        with self._lock:
            for role, bucket in self.by_role.items():
                price = _price(self.models.get(role, ""), settings)
                if price is None:
                    return None
                total += bucket["input"] / 1e6 * price[0] + bucket["output"] / 1e6 * price[1]
        return round(total, 6)

    def as_dict(self, settings: Settings) -> dict[str, Any]:
        """``{"total_tokens", "cost_usd", "by_role", "by_task", "models", "estimated_calls",
        "failed_calls", "budget"}`` for ``report.json``."""
        cost = self.cost_usd(settings)
        with self._lock:
            return {
                "total_tokens": sum(b["input"] + b["output"] for b in self.by_role.values()),
                "cost_usd": cost,
                "by_role": {k: dict(v) for k, v in self.by_role.items()},
                "by_task": {k: dict(v) for k, v in self.by_task.items()},
                "models": dict(self.models),
                "estimated_calls": self.estimated_calls,
                "failed_calls": self.failed_calls,
                "budget": settings.max_tokens,
            }


def _price(model: str, settings: Settings) -> tuple[float, float] | None:
    if settings.llm_price_in is not None and settings.llm_price_out is not None:
        return settings.llm_price_in, settings.llm_price_out
    return PRICES.get(model)


class _Limiter:
    """Calls in flight to one endpoint: AIMD between 1 and ``ceiling``."""

    def __init__(self, ceiling: int) -> None:
        self.ceiling = ceiling
        self.limit = float(ceiling)
        self.inflight = 0
        self._cond = threading.Condition()

    def acquire(self, deadline: float) -> bool:
        with self._cond:
            while self.inflight >= max(1, int(self.limit)):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.25))
            self.inflight += 1
            return True

    def release(self, outcome: str) -> None:
        with self._cond:
            self.inflight -= 1
            if outcome == "overload":
                self.limit = max(1.0, self.limit / 2)
            elif outcome == "ok":
                self.limit = min(float(self.ceiling), self.limit + 1.0 / max(1.0, self.limit))
            self._cond.notify_all()


@dataclass
class _Endpoint:
    """What the process knows of one endpoint: its limiter, methods, whether it answered."""

    limiter: _Limiter
    method: str | None = None
    unsupported: set[str] = field(default_factory=set)
    reached: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


_ENDPOINTS: dict[tuple[str, str], _Endpoint] = {}
_ENDPOINTS_LOCK = threading.Lock()


def _endpoint(base_url: str, model: str, ceiling: int) -> _Endpoint:
    with _ENDPOINTS_LOCK:
        found = _ENDPOINTS.get((base_url, model))
        if found is None:
            found = _ENDPOINTS[(base_url, model)] = _Endpoint(_Limiter(ceiling))
        found.limiter.ceiling = ceiling
        return found


def forget_endpoints() -> None:
    """Drop what the process learnt of endpoints (methods, limits): for tests."""
    with _ENDPOINTS_LOCK:
        _ENDPOINTS.clear()


class _NotOpenAI(Exception):
    """Raised by the response hook: a 200 that is neither JSON nor a server-sent event stream."""

    def __init__(self, content_type: str) -> None:
        super().__init__(content_type)
        self.content_type = content_type


class _Call:
    """One call in flight: its deadline and the socket the watchdog may shut."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.aborted: str | None = None
        self.sock: socket.socket | None = None

    def abort(self, reason: str) -> None:
        if self.aborted is None:
            self.aborted = reason
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _words(exc: openai.APIStatusError) -> str:
    """The server's own error message, on one line (at most 300 characters)."""
    body = exc.body
    message: Any = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        message = message or body.get("detail")
    if not message:
        message = exc.message
    text = " ".join(str(message).split())
    return text if len(text) <= 300 else text[:297] + "..."


#: Longest ``maxLength`` sent to the server. llama.cpp turns a length bound into one nested
#: grammar rule per character; a 1,500-character paragraph bound exceeded its grammar limits
#: ("number of rules that are going to be repeated ... exceeds sane defaults") and the server
#: process died (llama-cpp-python 0.3.36, seen in ``tests/test_llama_server.py``). Longer
#: fields are sent with this bound instead (the model is asked for shorter text; the answer is
#: still checked against the schema's own ``max_length``).
MAX_SENT_LENGTH = 300


def _schema_of(schema: type[BaseModel], choices: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The JSON schema sent for ``schema``.

    String properties named in ``choices`` are limited to them, and every
    ``maxLength`` is capped at :data:`MAX_SENT_LENGTH` (see there why).
    """
    body = schema.model_json_schema()

    def limit(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("maxLength"), int) and node["maxLength"] > MAX_SENT_LENGTH:
                node["maxLength"] = MAX_SENT_LENGTH
            for name, prop in (node.get("properties") or {}).items():
                if choices and name in choices and isinstance(prop, dict) and prop.get("type") == "string":
                    prop["enum"] = list(choices[name])
            for value in node.values():
                limit(value)
        elif isinstance(node, list):
            for value in node:
                limit(value)

    limit(body)
    return body


def _json_text(text: str) -> str:
    """``text`` without a Markdown code fence around it."""
    stripped = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.DOTALL)
    return fenced.group(1) if fenced else stripped


class LLM:
    """The run's model endpoint, by role, with deadlines, usage accounting and a budget.

    Args:
        settings: Model names, endpoint, key, temperature, timeouts, budget.
        usage: Where token counts go (a new :class:`Usage` by default).
        run_deadline: ``time.monotonic()`` value no call outlives (``None``: none).
        backoff_scale: Multiplier on retry delays inside a call (0 in tests).
        on_retry: Called with ``(task_id, role, description)`` for every retry
            made inside a call (the run logs them as ACP status updates).
        on_fatal: Called once with the first :class:`ModelEndpointError`
            (the run stops new work).

    Attributes:
        min_call_s: Fewest seconds a call needs to start (:data:`MIN_CALL_S`).

    Raises:
        ModelEndpointError: The default OpenAI endpoint and no API key.
    """

    min_call_s: float = MIN_CALL_S

    def __init__(
        self, settings: Settings, usage: Usage | None = None, *, run_deadline: float | None = None,
        backoff_scale: float = 1.0, on_retry: Callable[[str, str, str], None] | None = None,
        on_fatal: Callable[[ModelEndpointError], object] | None = None,
    ) -> None:
        self.settings = settings
        self.usage = usage or Usage()
        self.run_deadline = run_deadline
        self.backoff_scale = backoff_scale
        self.on_retry = on_retry
        self.on_fatal = on_fatal
        self.fatal: ModelEndpointError | None = None
        self.base_url = (settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        if not key and settings.llm_base_url is None:
            import os

            key = os.environ.get("OPENAI_API_KEY")
            if not key and settings.llm_configured:
                raise ModelEndpointError(
                    "a model is set (REPORTGEN_LLM_MODEL) for the OpenAI API, but no API key: set "
                    "REPORTGEN_LLM_API_KEY, or REPORTGEN_LLM_BASE_URL for a local server")
        self._key = key or "not-needed"
        self._lock = threading.Lock()
        self._calls: set[_Call] = set()
        self._local = threading.local()
        self._reserved = 0
        self._closed = threading.Event()
        self._http: httpx.Client | None = None
        self._client: openai.OpenAI | None = None
        self._watchdog: threading.Thread | None = None

    # ------------------------------------------------------------------ roles

    def has_model(self, role: str) -> bool:
        """Whether a model is configured for ``role`` (its own setting or ``llm_model``)."""
        return self.settings.role_model(role) is not None

    def model_name(self, role: str) -> str:
        """The model of ``role`` (its own setting, else ``llm_model``).

        Raises:
            ConfigError: No model is configured for the role.
        """
        name = self.settings.role_model(role)
        if not name:
            raise ConfigError(f"no model is configured for the {role} role")
        return name

    def describe(self) -> str:
        """A one-line description for the report: the models and the endpoint."""
        names = sorted({self.model_name(r) for r in ROLES if self.has_model(r)})
        where = self.settings.llm_base_url or "the OpenAI API"
        return f"{', '.join(names)} via {where}"

    def max_output(self, role: str) -> int:
        """The ``max_tokens`` sent with every call of ``role`` (``llm_<role>_max_tokens``)."""
        return int(getattr(self.settings, f"llm_{role}_max_tokens", None) or self.settings.llm_max_output_tokens)

    @property
    def prompt_chars(self) -> int:
        """Longest passages block a prompt may hold, in characters (``llm_prompt_max_chars``)."""
        return self.settings.llm_prompt_max_chars

    # ------------------------------------------------------------------ budget

    def budget_reached(self) -> bool:
        """True when the run's token budget (``max_tokens``) is spent, calls in flight
        counted at their bound."""
        limit = self.settings.max_tokens
        with self._lock:
            return limit is not None and self.usage.total + self._reserved >= limit

    def _admit(self, role: str, bound: int) -> None:
        """Reserve ``bound`` tokens for one call of ``role``, or refuse it.

        A call starts only while the tokens counted plus the bounds of the
        calls in flight are below the role's limit (the whole budget for the
        writer, :data:`WRITING_SHARE` less for the others), so the spend never
        passes the budget by more than one call's bound.
        """
        limit = self.settings.max_tokens
        with self._lock:
            if limit is not None:
                spent = self.usage.total + self._reserved
                cap = limit if role == "writer" else int(limit * (1 - WRITING_SHARE))
                if spent >= cap:
                    kept = "" if role == "writer" else f"; {limit - cap} are kept for writing"
                    raise BudgetError(f"the token budget is spent: {spent} of {limit} tokens used or "
                                      f"committed{kept}")
            self._reserved += bound

    def _release(self, bound: int) -> None:
        with self._lock:
            self._reserved -= bound

    # ------------------------------------------------------------------ lifecycle

    def _ensure_client(self) -> openai.OpenAI:
        with self._lock:
            if self._closed.is_set():
                raise ModelCallError("the run has ended; no more model calls")
            if self._client is None:
                self._http = httpx.Client(event_hooks={"response": [self._on_response]})
                self._client = openai.OpenAI(base_url=self.base_url, api_key=self._key, max_retries=0,
                                             http_client=self._http)
                self._watchdog = threading.Thread(target=self._watch, name="reportgen-llm-watchdog", daemon=True)
                self._watchdog.start()
            return self._client

    def close(self) -> None:
        """End the run's calls: every call in flight is stopped (its socket shut),
        new ones are refused, and the HTTP connections are closed. Idempotent."""
        self._closed.set()
        with self._lock:
            calls = list(self._calls)
        for call in calls:
            call.abort("the run has ended")
        if self._watchdog is not None:
            self._watchdog.join(2)
        if self._http is not None:
            with contextlib.suppress(Exception):
                self._http.close()

    def _watch(self) -> None:
        while not self._closed.wait(0.1):
            now = time.monotonic()
            with self._lock:
                late = [c for c in self._calls if now >= c.deadline]
            for call in late:
                call.abort("deadline")

    def _on_response(self, response: httpx.Response) -> None:
        """Remember the call's socket; refuse a 200 that is not the OpenAI API."""
        call: _Call | None = getattr(self._local, "call", None)
        stream = response.extensions.get("network_stream")
        if call is not None and stream is not None:
            with contextlib.suppress(Exception):
                call.sock = stream.get_extra_info("socket")
            if call.aborted is not None:
                call.abort(call.aborted)
        kind = response.headers.get("content-type", "")
        if response.status_code == 200 and "json" not in kind and "event-stream" not in kind:
            raise _NotOpenAI(kind or "no content type")

    def _fail(self, message: str) -> ModelEndpointError:
        error = ModelEndpointError(message)
        with self._lock:
            first = self.fatal is None
            if first:
                self.fatal = error
        if first and self.on_fatal is not None:
            self.on_fatal(error)
        return self.fatal or error

    # ------------------------------------------------------------------ calls

    def structured(self, role: str, schema: type[Schema], messages: list[tuple[str, str]], *, task_id: str,
                   deadline: float | None = None, choices: Mapping[str, list[str]] | None = None) -> Schema:
        """Ask the role's model for output matching ``schema``.

        Args:
            role: One of :data:`ROLES`.
            schema: A pydantic model class (its JSON schema is sent, with its bounds).
            messages: ``(role, text)`` chat messages.
            task_id: The task the call is for (usage accounting).
            deadline: The attempt's deadline, a ``time.monotonic()`` value;
                the call returns or fails by then (less :data:`MARGIN_S`).
            choices: Allowed values of string properties, by property name
                (e.g. ``{"source": ["S1", "S2"]}``): sent as ``enum`` in the
                schema, so a grammar-constrained server cannot invent a label.

        Returns:
            The validated output.

        Raises:
            ModelEndpointError: The endpoint cannot serve the run (fatal).
            ModelCallError: The call failed for now (timeout, network, HTTP 429/5xx).
            ModelCutError: The answer was cut or looped, or the request was refused.
            ModelOutputError: The answer did not match the schema.
            BudgetError: The token budget is spent.
        """
        model = self.model_name(role)
        endpoint = _endpoint(self.base_url, model, self.settings.llm_max_concurrency)
        configured = self.settings.llm_structured_output
        while True:
            with endpoint.lock:
                method = endpoint.method
                if method is None:
                    candidates = [m for m in (METHODS if configured == "auto" else (configured,))
                                  if m not in endpoint.unsupported]
                    if not candidates:
                        tried = ", ".join(METHODS if configured == "auto" else (configured,))
                        raise self._fail(f"the model endpoint {self.base_url} supports none of the structured-output "
                                         f"methods tried ({tried})")
                    method = candidates[0]
            try:
                text = self._request(role, model, task_id, messages, deadline, method=method, schema=schema,
                                     detecting=endpoint.method is None, choices=choices)
            except _Unsupported as exc:
                with endpoint.lock:
                    endpoint.unsupported.add(method)
                if configured != "auto":
                    raise self._fail(f"the model endpoint {self.base_url} refuses REPORTGEN_LLM_STRUCTURED_OUTPUT="
                                     f"{method}: {exc}; try REPORTGEN_LLM_STRUCTURED_OUTPUT=auto") from None
                continue
            with endpoint.lock:
                endpoint.method = method
            return self._parse(role, schema, text)

    def text(self, role: str, messages: list[tuple[str, str]], *, task_id: str, deadline: float | None = None) -> str:
        """Ask the role's model for plain text (same errors as :meth:`structured`)."""
        return self._request(role, self.model_name(role), task_id, messages, deadline, method=None, schema=None,
                             detecting=False)

    def method_for(self, role: str) -> str | None:
        """The structured-output method detected for the role's model, if any yet."""
        found = _ENDPOINTS.get((self.base_url, self.model_name(role)))
        return found.method if found else None

    def _parse(self, role: str, schema: type[Schema], text: str) -> Schema:
        try:
            data = json.loads(_json_text(text))
        except ValueError:
            raise ModelOutputError(f"the {role} model's answer is not JSON: {text[:120]!r}") from None
        try:
            return schema.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "the answer"
            raise ModelOutputError(f"the {role} model's answer does not match {schema.__name__}: "
                                   f"{where}: {first['msg']}") from None

    def _payload(self, model: str, role: str, messages: list[tuple[str, str]], method: str | None,
                 schema: type[BaseModel] | None, choices: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
        chat = [{"role": "user" if who == "human" else who, "content": text} for who, text in messages]
        payload: dict[str, Any] = {"model": model, "messages": chat, "temperature": self.settings.llm_temperature,
                                   "max_tokens": self.max_output(role), "stream": True,
                                   "stream_options": {"include_usage": True}}
        if schema is None or method is None:
            return payload
        body = _schema_of(schema, choices)
        if method == "json_schema":
            payload["response_format"] = {"type": "json_schema",
                                          "json_schema": {"name": schema.__name__, "schema": body, "strict": False}}
        elif method == "function_calling":
            payload["tools"] = [{"type": "function", "function": {
                "name": schema.__name__, "description": (schema.__doc__ or schema.__name__).strip().splitlines()[0],
                "parameters": body}}]
            payload["tool_choice"] = {"type": "function", "function": {"name": schema.__name__}}
        else:  # json_mode: the schema goes in the prompt, or the model never sees it
            payload["response_format"] = {"type": "json_object"}
            chat.insert(0, {"role": "system", "content": "Answer with one JSON object, and nothing else, that "
                            f"matches this JSON schema:\n{json.dumps(body, separators=(',', ':'))}"})
        return payload

    def _request(self, role: str, model: str, task_id: str, messages: list[tuple[str, str]],
                 deadline: float | None, *, method: str | None, schema: type[BaseModel] | None,
                 detecting: bool, choices: Mapping[str, list[str]] | None = None) -> str:
        if self.fatal is not None:
            raise ModelEndpointError(str(self.fatal))
        now = time.monotonic()
        ends = {"the model timeout (REPORTGEN_LLM_TIMEOUT_S)": now + self.settings.llm_timeout_s}
        if deadline is not None:
            ends[f"the deadline of the attempt of {task_id} (REPORTGEN_TOOL_TIMEOUT_S)"] = deadline - MARGIN_S
        if self.run_deadline is not None:
            ends["the run's deadline (REPORTGEN_RUN_DEADLINE_S)"] = self.run_deadline - MARGIN_S
        bounded_by = min(ends, key=lambda k: ends[k])
        call_deadline = ends[bounded_by]
        payload = self._payload(model, role, messages, method, schema, choices)
        tokens_in = len(json.dumps(payload["messages"], ensure_ascii=False)) // CHARS_PER_TOKEN + 4 * len(messages)
        if "tools" in payload or "response_format" in payload:
            tokens_in += len(json.dumps(payload.get("tools") or payload["response_format"])) // CHARS_PER_TOKEN
        endpoint = _endpoint(self.base_url, model, self.settings.llm_max_concurrency)
        for attempt in range(1, CALL_TRIES + 1):
            if call_deadline - time.monotonic() < self.min_call_s:
                raise ModelCallError(f"no time left for a model call: {bounded_by} is less than {self.min_call_s:g} s "
                                     "away")
            bound = tokens_in + self.max_output(role)
            self._admit(role, bound)
            try:
                if not endpoint.limiter.acquire(call_deadline - self.min_call_s):
                    raise ModelCallError(f"no free slot at the model endpoint in time: {bounded_by} is less than "
                                         f"{self.min_call_s:g} s away")
                outcome = "error"
                try:
                    text, outcome = self._stream(role, model, task_id, payload, call_deadline, tokens_in)
                    endpoint.reached = True
                    return text
                except _Transient as exc:
                    outcome = exc.outcome
                    raise
                finally:
                    endpoint.limiter.release(outcome)
            except openai.APIStatusError as exc:
                endpoint.reached = True
                self.usage.add(role, task_id, model, 0, 0, failed=True)
                self._status_error(exc, role, model, method, detecting, payload, call_deadline, task_id)
                delay = _retry_after(exc.response.headers)
                last: Exception = ModelCallError(f"the model endpoint answered HTTP {exc.status_code}: {_words(exc)}",
                                                 http_status=exc.status_code, retry_after_s=delay)
            except _Transient as exc:
                delay, last = exc.delay, exc.error
            finally:
                self._release(bound)
            wait = (delay if delay is not None else random.uniform(0, 0.5 * 2 ** attempt)) * self.backoff_scale
            if attempt == CALL_TRIES or time.monotonic() + wait >= call_deadline or self._closed.is_set():
                if isinstance(last, _Unreached):
                    raise self._fail(f"{last} (is the server running, and REPORTGEN_LLM_BASE_URL right?)")
                raise last
            if self.on_retry is not None:
                self.on_retry(task_id, role, f"{last}; retrying the call ({attempt + 1} of {CALL_TRIES})")
            time.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def _status_error(self, exc: openai.APIStatusError, role: str, model: str, method: str | None, detecting: bool,
                      payload: dict[str, Any], call_deadline: float, task_id: str) -> None:
        """Raise the error an HTTP error status means; return when it may pass (retry)."""
        words = _words(exc)
        if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
            raise self._fail(f"the model endpoint {self.base_url} refused the API key "
                             f"(HTTP {exc.status_code}): {words}") from None
        if isinstance(exc, openai.NotFoundError):
            raise self._fail(f"the model endpoint {self.base_url} does not know the model {model!r} "
                             f"(HTTP 404): {words}") from None
        if detecting and method is not None and exc.status_code not in (429, 503):
            if self._probe(role, model, call_deadline, task_id):
                raise _Unsupported(f"HTTP {exc.status_code}: {words}") from None
        if isinstance(exc, (openai.BadRequestError, openai.UnprocessableEntityError)) or exc.status_code in (405, 413):
            if detecting:
                raise self._fail(f"the model endpoint {self.base_url} refuses a plain chat request "
                                 f"(HTTP {exc.status_code}): {words}") from None
            raise ModelCutError(f"the model endpoint refused the request (HTTP {exc.status_code}): {words}",
                                "ask with a shorter prompt") from None
        if exc.status_code in (429, 503):
            endpoint = _endpoint(self.base_url, model, self.settings.llm_max_concurrency)
            endpoint.limiter.limit = max(1.0, endpoint.limiter.limit / 2)
        if 400 <= exc.status_code < 500 and exc.status_code not in (408, 409, 429):
            raise self._fail(f"the model endpoint {self.base_url} answered HTTP {exc.status_code}: {words}") from None

    def _probe(self, role: str, model: str, call_deadline: float, task_id: str) -> bool:
        """Whether a plain one-token chat request succeeds (the endpoint works; the method does not)."""
        payload = {"model": model, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1,
                   "temperature": 0, "stream": True, "stream_options": {"include_usage": True}}
        try:
            self._stream(role, model, task_id, payload, min(call_deadline, time.monotonic() + 30), 4)
        except ModelCutError:  # one token asked, one token sent: the endpoint works
            return True
        except (openai.APIStatusError, _Transient):
            return False
        return True

    def _stream(self, role: str, model: str, task_id: str, payload: dict[str, Any], call_deadline: float,
                tokens_in: int) -> tuple[str, str]:
        """One streamed HTTP request; returns ``(text, limiter outcome)``.

        Raises:
            openai.APIStatusError: The endpoint answered an error status.
            _Transient: A failure that may pass (carries the ModelCallError).
            ModelEndpointError, ModelCutError.
        """
        client = self._ensure_client()
        call = _Call(call_deadline)
        with self._lock:
            self._calls.add(call)
        self._local.call = call
        parts: list[str] = []
        chunks = 0
        finish: str | None = None
        usage: tuple[int, int] | None = None
        billed = False
        left = max(0.1, call_deadline - time.monotonic())
        try:
            stream: Any = client.chat.completions.create(
                **payload, timeout=httpx.Timeout(left, connect=min(left, 10.0)))
            billed = True
            with stream:
                for chunk in stream:
                    if call.aborted is not None:
                        break
                    if chunk.usage is not None:
                        usage = (chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0)
                    for choice in chunk.choices or []:
                        delta = choice.delta
                        if delta is not None and delta.content:
                            parts.append(delta.content)
                        for tool in (delta.tool_calls or []) if delta is not None else []:
                            if tool.function is not None and tool.function.arguments:
                                parts.append(tool.function.arguments)
                        if choice.finish_reason:
                            finish = choice.finish_reason
                    chunks += 1
                    if chunks % 8 == 0 and (unit := repetition("".join(parts))) is not None:
                        call.aborted = f"repeat:{unit}"
                        break
        except openai.APIStatusError:
            raise
        except _NotOpenAI as exc:
            self._transport_error(exc, call, billed)
        except openai.APIConnectionError as exc:
            self._transport_error(exc.__cause__ or exc, call, billed)
        except openai.APIError as exc:  # an error event inside the stream
            error = ModelCallError(f"the model endpoint sent an error: {exc.message}")
            raise _Transient(error, None, "error") from None
        except (httpx.HTTPError, OSError) as exc:
            self._transport_error(exc, call, billed)
        finally:
            with self._lock:
                self._calls.discard(call)
            self._local.call = None
            if billed:
                out = "".join(parts)
                counted = usage or (tokens_in, max(chunks, len(out) // CHARS_PER_TOKEN))
                self.usage.add(role, task_id, model, counted[0], counted[1], estimated=usage is None,
                               failed=finish not in ("stop", "tool_calls", "function_call"))
        text = "".join(parts)
        if call.aborted is not None:
            if call.aborted.startswith("repeat:"):
                unit = call.aborted.removeprefix("repeat:")
                raise ModelCutError(f"the answer kept repeating {unit.strip()[:40]!r} and was stopped after "
                                    f"{chunks} chunks", "answer again without repeating yourself")
            raise _Transient(ModelCallError(self._aborted_words(call)), None, "overload")
        if finish == "length":
            raise ModelCutError(f"the answer was cut at the {payload['max_tokens']}-token limit; it ended: "
                                f"...{text[-160:]!r}", "answer again, shorter: fewer and shorter items")
        if finish is None and not text:
            raise _Transient(ModelCallError("the model endpoint closed the answer before sending anything"),
                             None, "error")
        return text, "ok"

    def _aborted_words(self, call: _Call) -> str:
        if call.aborted == "deadline":
            return "the model did not finish before the call's deadline; the call was stopped"
        return f"the model call was stopped: {call.aborted}"

    def _transport_error(self, exc: BaseException, call: _Call, billed: bool) -> None:
        """Raise what a transport failure means (the call's own abort comes first)."""
        if call.aborted is not None:
            raise _Transient(ModelCallError(self._aborted_words(call)), None, "overload")
        if isinstance(exc, _NotOpenAI):
            raise self._fail(f"the model endpoint {self.base_url} answered with {exc.content_type}, not the OpenAI "
                             "API; REPORTGEN_LLM_BASE_URL usually ends in /v1") from None
        if isinstance(exc, (httpx.TimeoutException, TimeoutError)):
            raise _Transient(ModelCallError("the model did not answer before the call's deadline"),
                             None, "overload") from None
        if isinstance(exc, (httpx.ConnectError, ConnectionRefusedError)):
            endpoint_reached = any(e.reached for (url, _), e in list(_ENDPOINTS.items()) if url == self.base_url)
            if not endpoint_reached:
                raise _Transient(_Unreached(f"cannot reach the model endpoint {self.base_url}: {exc}"),
                                 None, "error") from None
        raise _Transient(ModelCallError(f"the connection to the model endpoint failed: {type(exc).__name__}: {exc}"),
                         None, "error") from None


class _Transient(Exception):
    """Internal: a call failure that may pass, carrying the error raised once the tries are spent."""

    def __init__(self, error: ModelCallError, delay: float | None, outcome: str) -> None:
        super().__init__(str(error))
        self.error, self.delay, self.outcome = error, delay, outcome


class _Unreached(ModelCallError):
    """An endpoint never reached in this process: fatal once the call's tries are spent."""
