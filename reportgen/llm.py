"""Chat models for model-driven reports: one OpenAI-compatible client per role.

Any endpoint that speaks the OpenAI chat-completions API works through
``langchain-openai`` (OpenAI, vLLM, Ollama, LM Studio, llama.cpp server):
set ``REPORTGEN_LLM_MODEL`` and, for anything but OpenAI,
``REPORTGEN_LLM_BASE_URL``. Each role (planner, researcher, plot, writer) may
use its own model.

The client never retries by itself (``max_retries=0``): a failed call raises
:class:`ModelCallError` carrying the HTTP status and ``Retry-After``, and the
ACP recovery node decides, so every retry is logged. Token usage is counted
per role and per task, with a cost estimate where the price is known.
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections import defaultdict
from collections.abc import Mapping
from typing import Any, TypeVar

import openai
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

from reportgen.config import Settings
from reportgen.errors import ConfigError, ReportgenError

__all__ = ["LLM", "PRICES", "ROLES", "ModelCallError", "ModelOutputError", "Usage"]

ROLES = ("planner", "researcher", "plot", "writer")

#: USD per million (input, output) tokens, from OpenAI's public pricing page
#: (2025). Other models are priced only through ``REPORTGEN_LLM_PRICE_IN/OUT``.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
}

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


def _retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Parse ``Retry-After`` (seconds or an HTTP date; RFC 9110 section 10.2.3)."""
    value = headers.get("retry-after") if headers is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value)
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


class Usage:
    """Token counts per role and per task, safe to update from worker threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_role: dict[str, dict[str, int]] = defaultdict(lambda: {"input": 0, "output": 0, "calls": 0})
        self.by_task: dict[str, dict[str, int]] = defaultdict(lambda: {"input": 0, "output": 0, "calls": 0})
        self.models: dict[str, str] = {}

    def add(self, role: str, task_id: str, model: str, tokens_in: int, tokens_out: int) -> None:
        """Count one call."""
        with self._lock:
            self.models[role] = model
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
        """``{"total_tokens", "cost_usd", "by_role", "by_task", "models"}`` for ``report.json``."""
        cost = self.cost_usd(settings)
        with self._lock:
            return {
                "total_tokens": sum(b["input"] + b["output"] for b in self.by_role.values()),
                "cost_usd": cost,
                "by_role": {k: dict(v) for k, v in self.by_role.items()},
                "by_task": {k: dict(v) for k, v in self.by_task.items()},
                "models": dict(self.models),
            }


def _price(model: str, settings: Settings) -> tuple[float, float] | None:
    if settings.llm_price_in is not None and settings.llm_price_out is not None:
        return settings.llm_price_in, settings.llm_price_out
    return PRICES.get(model)


class LLM:
    """The run's model clients, by role, with usage accounting and a budget.

    Args:
        settings: Model names, endpoint, key, temperature, timeouts, budget.
        usage: Where token counts go (a new :class:`Usage` by default).
    """

    def __init__(self, settings: Settings, usage: Usage | None = None) -> None:
        self.settings = settings
        self.usage = usage or Usage()
        self._clients: dict[str, ChatOpenAI] = {}
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(settings.llm_max_concurrency)

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

    def budget_reached(self) -> bool:
        """True when the run's token budget (``max_tokens``) is used up."""
        return self.settings.max_tokens is not None and self.usage.total >= self.settings.max_tokens

    def _client(self, model: str) -> ChatOpenAI:
        with self._lock:
            client = self._clients.get(model)
            if client is None:
                key = self.settings.llm_api_key.get_secret_value() if self.settings.llm_api_key else None
                client = ChatOpenAI(
                    model=model,
                    base_url=self.settings.llm_base_url,
                    api_key=key or ("not-needed" if self.settings.llm_base_url else None),
                    temperature=self.settings.llm_temperature,
                    timeout=self.settings.llm_timeout_s,
                    max_retries=0,
                )
                self._clients[model] = client
            return client

    def structured(self, role: str, schema: type[Schema], messages: list[tuple[str, str]], *, task_id: str) -> Schema:
        """Ask the role's model for output matching ``schema``.

        Args:
            role: One of :data:`ROLES`.
            schema: A pydantic model class.
            messages: ``(role, text)`` chat messages.
            task_id: The task the call is for (usage accounting).

        Returns:
            The validated output.

        Raises:
            ModelCallError: The call failed (timeout, network, HTTP error).
            ModelOutputError: The answer did not match the schema.
        """
        model = self.model_name(role)
        runnable = self._client(model).with_structured_output(
            schema, method=self.settings.llm_structured_output, include_raw=True
        )
        out = self._call(runnable, messages)
        self._count(role, task_id, model, out.get("raw"))
        if out.get("parsing_error") is not None or out.get("parsed") is None:
            raise ModelOutputError(
                f"the {role} model's answer does not match {schema.__name__}: {out.get('parsing_error')}"
            )
        parsed = out["parsed"]
        return parsed if isinstance(parsed, schema) else schema.model_validate(parsed)

    def text(self, role: str, messages: list[tuple[str, str]], *, task_id: str) -> str:
        """Ask the role's model for plain text (same errors as :meth:`structured`)."""
        model = self.model_name(role)
        message = self._call(self._client(model), messages)
        self._count(role, task_id, model, message)
        return str(message.content)

    def _call(self, runnable: Any, messages: list[tuple[str, str]]) -> Any:
        with self._slots:
            try:
                return runnable.invoke(messages)
            except openai.APIStatusError as exc:
                raise ModelCallError(
                    f"the model endpoint answered HTTP {exc.status_code}",
                    http_status=exc.status_code, retry_after_s=_retry_after(exc.response.headers),
                ) from exc
            except openai.APITimeoutError as exc:
                raise ModelCallError(f"the model did not answer within {self.settings.llm_timeout_s:g} s") from exc
            except openai.APIConnectionError as exc:
                raise ModelCallError(f"cannot reach the model endpoint: {exc}") from exc
            except ValueError as exc:  # unparseable JSON raised while parsing
                raise ModelOutputError(f"the model's answer could not be parsed: {exc}") from exc

    def _count(self, role: str, task_id: str, model: str, message: Any) -> None:
        meta = getattr(message, "usage_metadata", None) or {}
        self.usage.add(role, task_id, model, int(meta.get("input_tokens", 0)), int(meta.get("output_tokens", 0)))
