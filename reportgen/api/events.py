"""Server-Sent Events for one report: status changes and every ACP message as it is logged.

The stream interleaves two kinds of events::

    event: acp                      one line of messages.jsonl (an ACP message)
    id: 17                          its line number (1-based), the reconnect cursor
    data: {"type": "AGENT_RESPONSE", "task_id": "research-1", ...}

    event: status                   the job whenever its status or progress changes
    data: {"id": "...", "status": "working", "progress": {...}, ...}

``status`` events carry no ``id``, so they never move a client's
``Last-Event-ID``; a client that reconnects with ``Last-Event-ID: 17`` gets
lines 18 onwards, then the current status. The stream ends after the status
event of a finished job (``completed``, ``failed`` or ``canceled``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

from sse_starlette import EventSourceResponse, ServerSentEvent

from reportgen.api.schemas import job_view
from reportgen.worker import Worker

__all__ = ["LineReader", "event_stream"]

#: Seconds between keep-alive comments on an idle stream.
PING_S = 15

#: Seconds between looks at the job when nothing woke the stream.
POLL_S = 1.0


class LineReader:
    """Reads the complete lines appended to a file since the last read.

    A line still being written (no newline yet) is left for the next read,
    so a reader never sees half a message.

    Args:
        path: The file (it may not exist yet).
        skip: Lines already seen (the client's ``Last-Event-ID``).
    """

    def __init__(self, path: Path, skip: int = 0) -> None:
        self.path = path
        self.skip = skip
        self.offset = 0
        self.line_no = 0

    def read(self) -> list[tuple[int, str]]:
        """New complete lines as ``(line number, text)``; lines up to ``skip`` are dropped."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                chunk = fh.read()
        except FileNotFoundError:
            return []
        end = chunk.rfind(b"\n")
        if end < 0:
            return []
        self.offset += end + 1
        out = []
        for raw in chunk[: end + 1].splitlines():
            self.line_no += 1
            if self.line_no <= self.skip:
                continue
            text = raw.decode("utf-8", "replace").strip()
            if text and _is_json_object(text):  # a line torn by a kill is skipped, its number kept
                out.append((self.line_no, text))
        return out


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


async def _events(worker: Worker, report_id: str, after: int) -> AsyncIterator[ServerSentEvent]:
    reader = LineReader(worker.report_dir(report_id) / "messages.jsonl", skip=after)
    last = None
    with worker.events.follow(report_id) as wake:
        while True:
            wake.clear()
            job = worker.store.get(report_id)  # before the lines: a finished job's lines are all there
            for line_no, text in reader.read():
                yield ServerSentEvent(data=text, event="acp", id=str(line_no))
            if job is None:
                yield ServerSentEvent(data=json.dumps({"id": report_id, "status": "deleted"}), event="status")
                return
            key = (job.status, job.tasks_done, job.tasks_total, job.cancel_requested)
            if key != last:
                last = key
                view = job_view(job).model_dump(mode="json", by_alias=True)
                yield ServerSentEvent(data=json.dumps(view), event="status")
            if job.status.terminal:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), POLL_S)


def event_stream(worker: Worker, report_id: str, *, after: int = 0) -> EventSourceResponse:
    """The SSE response for ``report_id``, resuming after line ``after``.

    Args:
        worker: The worker whose job it is.
        report_id: A valid, existing report id.
        after: The client's ``Last-Event-ID`` (0 for everything).
    """
    return EventSourceResponse(
        _events(worker, report_id, after),
        ping=PING_S,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
