"""Server-Sent Events for one report: status changes and every ACP message as it is logged.

The stream interleaves two kinds of events::

    event: acp                      one ACP message (a line of messages.jsonl)
    id: 17                          its number in the job's event log (1-based), the reconnect cursor
    data: {"type": "AGENT_RESPONSE", "task_id": "research-1", ...}

    event: status                   the job whenever its status or progress changes
    data: {"id": "...", "status": "working", "progress": {...}, ...}

``status`` events carry no ``id``, so they never move a client's
``Last-Event-ID``; a client that reconnects with ``Last-Event-ID: 17`` gets
lines 18 onwards, then the current status. The stream ends after the status
event of a finished job (``completed``, ``failed`` or ``canceled``).

The messages come from the job's event log in the database
(:meth:`~reportgen.store.JobStore.events_after`), not from the report folder,
so any API replica serves any stream and a client that reconnects to another
replica with its ``Last-Event-ID`` misses nothing and gets nothing twice. A
replica wakes when the job changes (in process, or through the broker's
pub/sub from the worker that runs it) and looks again every ``POLL_S``
seconds anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

from sse_starlette import EventSourceResponse, ServerSentEvent

from reportgen.acp.messages import log_lines
from reportgen.api.schemas import job_view
from reportgen.worker import Worker

__all__ = ["event_stream"]

#: Seconds between keep-alive comments on an idle stream.
PING_S = 15

#: Seconds between looks at the job when nothing woke the stream.
POLL_S = 1.0

#: Most events read from the database at once.
EVENT_BATCH = 500


def _import_legacy_log(worker: Worker, report_id: str) -> None:
    """A finished report made before the event log existed: its ``messages.jsonl`` becomes its log, once.

    The ids stay the line numbers (a line torn by a kill is skipped, its number kept).
    """
    job = worker.store.get(report_id)
    if job is None or not job.status.terminal or worker.store.events_after(report_id, 0, limit=1):
        return
    lines, _, _ = log_lines(worker.report_dir(report_id) / "messages.jsonl")
    if lines:
        worker.store.log_events(report_id, lines)


async def _events(worker: Worker, report_id: str, after: int) -> AsyncIterator[ServerSentEvent]:
    _import_legacy_log(worker, report_id)
    last = None
    with worker.events.follow(report_id) as wake:
        while True:
            wake.clear()
            job = worker.store.get(report_id)  # before the events: a finished job's events are all there
            while True:
                batch = worker.store.events_after(report_id, after, limit=EVENT_BATCH)
                for seq, text in batch:
                    after = seq
                    if _is_json_object(text):
                        yield ServerSentEvent(data=text, event="acp", id=str(seq))
                if len(batch) < EVENT_BATCH:
                    break
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


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


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
