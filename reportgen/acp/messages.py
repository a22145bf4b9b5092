"""ACP message models and the append-only message log (``messages.jsonl``).

Field names follow the ACP paper's message formats: an ``AGENT_REQUEST``
carries the method, the endpoint or function, headers and a body in which each
parameter has a value and a source; an ``AGENT_RESPONSE`` carries the status
code, output variables and the input variables of dependent steps; an
``ASSISTANCE_REQUEST`` carries the status update, code, error step, tool,
description, relevant context and a suggested resolution.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Literal, TextIO, Union

from pydantic import BaseModel, Field, TypeAdapter

from reportgen.acp.codes import StatusCode

__all__ = [
    "AgentRequest",
    "AgentResponse",
    "AssistanceRequest",
    "Message",
    "MessageLog",
    "log_lines",
    "Parameter",
    "StatusUpdate",
    "read_messages",
]


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Parameter(BaseModel):
    """One parameter of a tool call.

    Attributes:
        value: The value passed (JSON-serialisable; long values are summarised).
        source: ``"llm"`` when the planner gave it, or ``"<task_id>.<output>"``
            when taken from another task's output.
    """

    value: Any
    source: str = "llm"


class _Base(BaseModel):
    task_id: str
    agent: str = ""
    attempt: int = 1
    timestamp: datetime = Field(default_factory=_now)


class AgentRequest(_Base):
    """An agent's validated tool call (phase 1 of the runtime)."""

    type: Literal["AGENT_REQUEST"] = "AGENT_REQUEST"
    method: str = "CALL"
    endpoint: str
    headers: dict[str, str] = Field(default_factory=dict)
    body: dict[str, Parameter] = Field(default_factory=dict)


class AgentResponse(_Base):
    """The validated result of a tool call (phase 3 of the runtime)."""

    type: Literal["AGENT_RESPONSE"] = "AGENT_RESPONSE"
    status_code: StatusCode
    output_variables: dict[str, Any] = Field(default_factory=dict)
    dependent_input_variables: dict[str, list[str]] = Field(default_factory=dict)
    duration_ms: float = 0.0


class AssistanceRequest(_Base):
    """A request for help after a failure, answered by the recovery node."""

    type: Literal["ASSISTANCE_REQUEST"] = "ASSISTANCE_REQUEST"
    status_update: Literal["failure"] = "failure"
    status_code: StatusCode
    error_step: str
    tool: str
    description: str
    relevant_context: dict[str, Any] = Field(default_factory=dict)
    suggested_resolution: str = ""


class StatusUpdate(_Base):
    """A change in a task's or the run's state (started, retried, rerouted, failed, done).

    Attributes:
        status: The new state, e.g. ``"running"``, ``"done"``, ``"failed"``,
            ``"retry"``, ``"reroute"``, ``"amend"``, ``"skipped"``.
        detail: Plain-text detail, e.g. the recovery decision.
        status_code: The code that caused the change, when there is one.
    """

    type: Literal["STATUS_UPDATE"] = "STATUS_UPDATE"
    status: str
    detail: str = ""
    status_code: StatusCode | None = None


Message = Annotated[
    Union[AgentRequest, AgentResponse, AssistanceRequest, StatusUpdate],
    Field(discriminator="type"),
]
_MESSAGE = TypeAdapter(Message)


class MessageLog:
    """Append-only JSON-lines log of every ACP message of one run.

    Safe to share between the dispatcher's worker threads and asyncio tasks;
    each message is one ``write`` of one line followed by a flush (no
    ``fsync``: once flushed the line is in the OS page cache, which survives a
    killed process; a per-message ``fsync`` on the event loop cost more than
    the orchestration itself, see ``make bench``), so a killed process leaves
    at most one partial last line, which :func:`read_messages` ignores.

    Args:
        path: The ``messages.jsonl`` file; its folder is created with the
            first message, so a run that fails before any message leaves nothing.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._checked_tail = False
        self._listeners: list[Any] = []
        self._file: TextIO | None = None

    def subscribe(self, listener: Any) -> None:
        """Call ``listener(message)`` after each appended message (progress displays)."""
        self._listeners.append(listener)

    def append(self, message: BaseModel) -> None:
        """Append ``message`` as one JSON line.

        The file stays open between messages (one ``write`` and one flush
        each): opening it, and making sure its folder exists, for every
        message were four system calls per message whose cost grew with the
        run (issue 15, ``make bench`` overhead). A flushed line is as durable
        as before: in the OS, which outlives a killed process.
        """
        line = message.model_dump_json() + "\n"
        with self._lock:
            if self._file is None or self._file.closed:
                self._file = self._open()
                weakref.finalize(self, self._file.close)
            if not self._checked_tail:  # a killed writer may have left half a line
                self._checked_tail = True
                if self._file.tell():
                    with open(self.path, "rb") as fh:
                        fh.seek(-1, os.SEEK_END)
                        if fh.read(1) != b"\n":
                            line = "\n" + line
            self._file.write(line)
            self._file.flush()  # in the OS once flushed: a killed process loses nothing
        for listener in list(self._listeners):
            listener(message)

    def _open(self) -> TextIO:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open; closed by close()

    def close(self) -> None:
        """Close the file (idempotent); a later :meth:`append` opens it again."""
        with self._lock:
            if self._file is not None:
                self._file.close()


def log_lines(path: Path, offset: int = 0, line: int = 0) -> tuple[list[tuple[int, str]], int, int]:
    """The complete lines of a ``messages.jsonl`` after byte ``offset``, numbered as in the file.

    What the job's event log mirrors (:meth:`reportgen.store.JobStore.log_events`):
    a line still being written (no newline yet) is left for the next call, and
    a line torn by a killed writer (not a JSON object) is skipped, its number kept.

    Args:
        path: The log file (missing: nothing).
        offset: Byte offset of the first line to read (0: the start, or the
            end of a line read before).
        line: The number of the last line before ``offset`` (0 at the start).

    Returns:
        ``(lines, offset, line)``: the ``(line number, JSON text)`` of the
        messages read, and the byte offset and number of the last complete
        line read (to pass to the next call).
    """
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            raw = fh.read()
    except FileNotFoundError:
        return [], offset, line
    end = raw.rfind(b"\n") + 1
    out: list[tuple[int, str]] = []
    for chunk in raw[:end].split(b"\n")[:-1]:
        line += 1
        text = chunk.decode("utf-8", "replace").strip()
        try:
            if isinstance(json.loads(text), dict):
                out.append((line, text))
        except ValueError:
            continue
    return out, offset + end, line


def read_messages(path: Path) -> list[Message]:
    """Read a ``messages.jsonl`` file back into message models.

    Args:
        path: The log file.

    Returns:
        The messages in order; a truncated last line (a killed writer) is skipped.
    """
    out: list[Message] = []
    if not Path(path).exists():
        return out
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            out.append(_MESSAGE.validate_python(json.loads(line)))
        except (json.JSONDecodeError, ValueError):
            continue
    return out
