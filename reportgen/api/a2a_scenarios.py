"""The conformance kit's scenarios, on the real A2A stack.

The A2A conformance kit (a2a-tck) tests the protocol layer: it sends
messages whose ``messageId`` starts with ``tck-`` (or is
``test-resubscribe-message-id``) and expects the behaviour its
``scenarios/*.feature`` files describe (complete, add an artifact, ask for
input, reject, ...). :class:`ScenarioExecutor` acts those out and hands every
other message to the report executor, so the kit runs against the service's
own request handler, task store, routes, version handling and validation —
only the agent behind them is the kit's.
"""

from __future__ import annotations

import asyncio

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types.a2a_pb2 import Message, Part, Task, TaskState, TaskStatus
from a2a.utils.errors import A2AError
from google.protobuf import json_format
from google.protobuf.struct_pb2 import Value

__all__ = ["ScenarioExecutor", "is_scenario", "new_task"]

#: Message ids the kit uses.
_PREFIXES = ("tck-", "test-resubscribe-message-id")


def is_scenario(message_id: str) -> bool:
    """Tell whether ``message_id`` is one of the conformance kit's.

    Args:
        message_id: A message's ``messageId``.

    Returns:
        True for ``tck-...`` and ``test-resubscribe-message-id...``.
    """
    return message_id.startswith(_PREFIXES)


class ScenarioExecutor(AgentExecutor):
    """Routes the kit's message ids to its scenarios and every other message to ``reports``.

    Args:
        reports: The report executor.
    """

    def __init__(self, reports: AgentExecutor) -> None:
        self.reports = reports

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Act out the scenario named by the message id, or run a report."""
        message = context.message
        if message is None or not is_scenario(message.message_id) or _is_report(context):
            await self.reports.execute(context, event_queue)
            return
        assert context.task_id is not None and context.context_id is not None
        if context.current_task is None:  # the task itself comes first
            await event_queue.enqueue_event(new_task(context.task_id, context.context_id, message))
        await _scenario(message.message_id, TaskUpdater(event_queue, context.task_id, context.context_id),
                        event_queue)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Cancel a report's task through the report executor; a scenario's at once."""
        if _is_report(context):
            await self.reports.cancel(context, event_queue)
            return
        assert context.task_id is not None
        await TaskUpdater(event_queue, context.task_id, context.context_id or "").cancel()


def new_task(task_id: str, context_id: str, message: Message) -> Task:
    """A ``submitted`` task with the handler's ids and ``message`` as its history.

    Args:
        task_id: The id the request handler gave the task.
        context_id: Its context id.
        message: The user's first message.

    Returns:
        The task, to enqueue before any status or artifact event.
    """
    return Task(id=task_id, context_id=context_id, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED),
                history=[message])


def _is_report(context: RequestContext) -> bool:
    task = context.current_task
    return task is not None and "report_id" in task.metadata


async def _scenario(message_id: str, updater: TaskUpdater, queue: EventQueue) -> None:  # noqa: C901, PLR0911, PLR0912
    """The behaviours of the kit's ``scenarios/*.feature`` (its ``sut/a2a-python`` agent, in the same order)."""
    if message_id.startswith("tck-stream-artifact-chunked"):
        await updater.start_work()
        await updater.add_artifact(parts=[Part(text="chunk-1 ")], append=True)
        await updater.add_artifact(parts=[Part(text="chunk-2")], append=True, last_chunk=True)
        await updater.complete()
        return
    if message_id.startswith("test-resubscribe-message-id"):
        await updater.start_work()
        await asyncio.sleep(4)
        await updater.complete()
        return
    if message_id.startswith("tck-stream-artifact-text"):
        await updater.start_work()
        await updater.add_artifact(parts=[Part(text="Streamed text content")])
        await updater.complete()
        return
    if message_id.startswith("tck-stream-artifact-file"):
        await updater.start_work()
        await updater.add_artifact(parts=[Part(raw=b"tck", media_type="text/plain", filename="output.txt")])
        await updater.complete()
        return
    if message_id.startswith("tck-stream-ordering-001"):
        await updater.start_work()
        await updater.add_artifact(parts=[Part(text="Ordered output")])
        await updater.complete()
        return
    if message_id.startswith("tck-artifact-file-url"):
        await updater.add_artifact(parts=[Part(url="https://example.com/output.txt", media_type="text/plain",
                                               filename="output.txt")])
        await updater.complete()
        return
    if message_id.startswith("tck-message-response"):
        await queue.enqueue_event(updater.new_agent_message([Part(text="Direct message response")]))
        return
    if message_id.startswith("tck-input-required"):
        await updater.requires_input()
        return
    if message_id.startswith("tck-complete-task"):
        await updater.complete(updater.new_agent_message([Part(text="Hello from TCK")]))
        return
    if message_id.startswith("tck-artifact-text"):
        await updater.add_artifact(parts=[Part(text="Generated text content")])
        await updater.complete()
        return
    if message_id.startswith("tck-artifact-file"):
        await updater.add_artifact(parts=[Part(raw=b"tck", media_type="text/plain", filename="output.txt")])
        await updater.complete()
        return
    if message_id.startswith("tck-artifact-data"):
        data = json_format.Parse('{"key": "value", "count": 42}', Value())
        await updater.add_artifact(parts=[Part(data=data)])
        await updater.complete()
        return
    if message_id.startswith("tck-reject-task"):
        raise A2AError("rejected")
    if message_id.startswith(("tck-stream-001", "tck-stream-003")):
        text = "Stream hello from TCK" if message_id.startswith("tck-stream-001") else "Stream task lifecycle"
        await updater.start_work()
        await updater.add_artifact(parts=[Part(text=text)])
        await updater.complete()
        return
    if message_id.startswith("tck-stream-002"):
        await updater.complete()
        return
    await updater.complete(updater.new_agent_message([Part(text="Unhandled messageId prefix: " + message_id)]))
