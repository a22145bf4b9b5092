"""Fault injection: make tool calls fail at a given rate, with given kinds, reproducibly.

For tests and benchmarks. A :class:`FaultPlan` is parsed from a short spec,
given on the command line (``reportgen report --faults SPEC``) or in the
environment (``REPORTGEN_FAULTS=SPEC``)::

    rate=0.3,kinds=exception+timeout+429+empty+garbage+wrong_topic,seed=7
    rate=1,kinds=delay,delay=0.3,agents=browser

Keys: ``rate`` (0..1, share of tool calls hit), ``kinds`` (``+``-separated,
from :data:`KINDS`), ``seed`` (int), ``agents`` (``+``-separated agent names;
default all), ``tasks`` (``+``-separated task ids or shell patterns such as
``chart-*``; default all), ``first`` (only the first N calls of each task
can be hit, e.g. ``first=2`` for a burst of two), ``delay`` (seconds, for the
``delay`` and ``timeout`` kinds).

Each decision is drawn from ``random.Random(f"{seed}:{task_id}:{call_no}")``,
so a fault hits the same call of the same task in every run with the same
seed, whatever the scheduling order.

Kinds and the ACP code they provoke:

===========  ============================================  =====
kind         what happens                                  code
===========  ============================================  =====
exception    the tool raises ``InjectedFault``             604
timeout      the tool sleeps past its deadline             604
429          the tool raises ``InjectedRateLimit``         604 (Retry-After honoured)
             (``retry_after_s`` = 0.01)
empty        the tool returns nothing                      605
garbage      the tool returns random text                  607 (or 605)
wrong_topic  the tool returns text about another subject   607 (or 605)
truncated    research notes keep only their titles         606
missing      the request loses its required inputs         601
invalid      the request's inputs get the wrong types      603
bad_step     the step's details are wrong (its kind)       602
delay        the tool is slowed by ``delay`` s (no error)  200
===========  ============================================  =====
"""

from __future__ import annotations

import fnmatch
import random
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from reportgen.errors import ConfigError, ReportgenError

__all__ = ["KINDS", "REQUEST_KINDS", "FaultPlan", "InjectedFault", "InjectedRateLimit"]

KINDS = (
    "exception", "timeout", "429", "empty", "garbage", "wrong_topic", "truncated",
    "missing", "invalid", "bad_step", "delay",
)
#: Kinds that change the request before it is built.
REQUEST_KINDS = ("missing", "invalid", "bad_step")

_GARBAGE = "\ufffd\x7f#@!~ lorem ipsum qwxz zzkq 0x1F ÿþ ::: ;;; ⍰⍰⍰"
_WRONG_TOPIC = (
    "The medieval lute is a plucked string instrument with a deep round back. "
    "Lute music was popular in Renaissance courts across Europe."
)


class InjectedFault(ReportgenError):
    """A tool failure made on purpose by a :class:`FaultPlan`."""

    code = "injected"


class InjectedRateLimit(InjectedFault):
    """An injected HTTP 429; carries ``retry_after_s`` like a real rate limit."""

    code = "injected_429"

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.http_status = 429


@dataclass
class FaultPlan:
    """Which tool calls fail, and how.

    Attributes:
        rate: Share of tool calls hit, 0..1.
        kinds: Fault kinds to draw from (see :data:`KINDS`).
        seed: Seed of the per-call draws.
        agents: Agent names to hit (empty = all).
        tasks: Task-id prefixes to hit (empty = all).
        delay_s: Seconds of the ``delay`` and ``timeout`` kinds.
        first: When > 0, only the first ``first`` calls of each task can be hit.
        injected: Count of faults injected, by kind (filled while running).
    """

    rate: float = 0.0
    kinds: tuple[str, ...] = ("exception",)
    seed: int = 0
    agents: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()
    delay_s: float = 0.0
    first: int = 0
    injected: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _calls: dict[str, int] = field(default_factory=lambda: defaultdict(int), repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def parse(cls, spec: str) -> "FaultPlan":
        """Parse ``"rate=0.3,kinds=exception+429,seed=7"``.

        Raises:
            ConfigError: An unknown key or kind, or a value out of range.
        """
        values: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, _, raw = part.partition("=")
            key = key.strip()
            try:
                if key == "rate":
                    values["rate"] = float(raw)
                elif key == "kinds":
                    values["kinds"] = tuple(k for k in raw.split("+") if k)
                elif key == "seed":
                    values["seed"] = int(raw)
                elif key == "agents":
                    values["agents"] = tuple(a for a in raw.split("+") if a)
                elif key == "tasks":
                    values["tasks"] = tuple(t for t in raw.split("+") if t)
                elif key == "delay":
                    values["delay_s"] = float(raw)
                elif key == "first":
                    values["first"] = int(raw)
                else:
                    raise ConfigError(f"unknown fault setting {key!r} in {spec!r}")
            except ValueError:
                raise ConfigError(f"bad value for {key!r} in fault spec {spec!r}") from None
        plan = cls(**values)
        unknown = [k for k in plan.kinds if k not in KINDS]
        if unknown or not plan.kinds:
            raise ConfigError(f"unknown fault kind(s) {unknown}; choose from {', '.join(KINDS)}")
        if not 0.0 <= plan.rate <= 1.0:
            raise ConfigError(f"fault rate must be between 0 and 1, not {plan.rate}")
        if plan.delay_s < 0 or plan.first < 0:
            raise ConfigError(f"delay and first must not be negative in {spec!r}")
        return plan

    def draw(self, agent: str, task_id: str) -> str | None:
        """Decide the fault of the next tool call of ``task_id`` (``None``: no fault)."""
        if self.agents and agent not in self.agents:
            return None
        if self.tasks and not any(fnmatch.fnmatchcase(task_id, pattern) for pattern in self.tasks):
            return None
        with self._lock:
            self._calls[task_id] += 1
            call_no = self._calls[task_id]
        if self.first and call_no > self.first:
            return None
        rng = random.Random(f"{self.seed}:{task_id}:{call_no}")
        if rng.random() >= self.rate:
            return None
        kind = rng.choice(self.kinds)
        with self._lock:
            self.injected[kind] += 1
        return kind

    def apply_before(self, kind: str, tool_timeout_s: float) -> None:
        """Run the part of a fault that happens instead of or before the tool call.

        Raises:
            InjectedFault: For ``exception``.
            InjectedRateLimit: For ``429``.
        """
        if kind == "exception":
            raise InjectedFault("injected tool failure")
        if kind == "429":
            raise InjectedRateLimit("injected HTTP 429 Too Many Requests", retry_after_s=0.01)
        if kind == "timeout":
            time.sleep(max(self.delay_s, tool_timeout_s * 1.5))
        if kind == "delay":
            time.sleep(self.delay_s)

    @staticmethod
    def corrupt_request(kind: str, inputs: dict[str, Any], task: Any) -> tuple[dict[str, Any], Any]:
        """Apply the request kinds to a task's inputs (and the task itself)."""
        if kind == "missing":
            return {}, task
        if kind == "invalid":
            return {name: 12345 for name in inputs}, task
        if kind == "bad_step":
            return inputs, task.model_copy(update={"kind": "undefined-step"})
        return inputs, task

    @staticmethod
    def corrupt(kind: str, raw: Any) -> Any:
        """Replace a tool's output for the output kinds (``empty``, ``garbage``, ``wrong_topic``, ``truncated``)."""
        if kind == "truncated":
            if isinstance(raw, list):
                return [p.model_copy(update={"text": p.title}) if hasattr(p, "title") else p for p in raw]
            return raw
        text = {"garbage": _GARBAGE, "wrong_topic": _WRONG_TOPIC}.get(kind)
        if kind == "empty":
            if isinstance(raw, dict):
                return {k: ([] if isinstance(v, list) else None) for k, v in raw.items()}
            return type(raw)() if isinstance(raw, (list, tuple, str)) else None
        if text is None:
            return raw
        return _replace_text(raw, text)


def _replace_text(raw: Any, text: str) -> Any:
    """Replace every text field of passages / sentences / chart quotes with ``text``."""
    if isinstance(raw, list):
        return [_replace_text(item, text) for item in raw]
    if isinstance(raw, dict):  # "passages" is what the agent read: evidence, left as retrieved
        return {
            k: (text if k in ("text", "quote", "sentence") else v if k == "passages" else _replace_text(v, text))
            for k, v in raw.items()
        }
    if hasattr(raw, "model_copy") and hasattr(raw, "points"):  # a chart spec: its quotes
        return raw.model_copy(update={"points": [p.model_copy(update={"quote": text}) for p in raw.points]})
    if hasattr(raw, "model_copy") and hasattr(raw, "text"):
        return raw.model_copy(update={"text": text, "title": "Lute"})
    return raw
