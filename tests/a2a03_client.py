"""An a2a-sdk 0.3 client (run in the 0.3 venv of ``make a2a03-deps``): a reviewed report, end to end.

Usage: ``a2a03_client.py URL`` — reads the legacy card (``/.well-known/agent.json``,
the 0.3 form), asks for a 3-section report with review, renames the first
section to "Wind turbines" and drops the second on the *same task*, waits for
the task to complete, and prints one JSON line: the states seen, the artifact
names, the report id and the card's protocol version.
"""

from __future__ import annotations

import asyncio
import json
import sys
import uuid

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import (
    DataPart,
    GetTaskRequest,
    Message,
    MessageSendParams,
    Part,
    Role,
    SendMessageRequest,
    TaskQueryParams,
    TextPart,
)


def _message(parts: list[Part], task_id: str | None = None, context_id: str | None = None) -> SendMessageRequest:
    return SendMessageRequest(id=str(uuid.uuid4()), params=MessageSendParams(message=Message(
        role=Role.user, message_id=str(uuid.uuid4()), parts=parts, task_id=task_id, context_id=context_id)))


async def main(url: str) -> None:
    async with httpx.AsyncClient(timeout=120) as http:
        card = await A2ACardResolver(http, url, agent_card_path="/.well-known/agent.json").get_agent_card()
        client = A2AClient(http, agent_card=card)
        first = await client.send_message(_message([
            Part(root=TextPart(text="Renewable energy")), Part(root=DataPart(data={"sections": 3, "review": True})),
        ]))
        task = first.root.result  # type: ignore[union-attr]
        states = [task.status.state.value]
        while task.status.state.value not in ("input-required", "completed", "failed", "canceled", "rejected"):
            await asyncio.sleep(0.3)
            task = (await client.get_task(GetTaskRequest(id=str(uuid.uuid4()),
                                                         params=TaskQueryParams(id=task.id)))).root.result
            states.append(task.status.state.value)
        plan = next(p.root.data for p in task.status.message.parts if p.root.kind == "data")
        sections = plan["plan"]["sections"]
        edit = {"action": "edit", "plan": {"sections": [{**sections[0], "title": "Wind turbines"}, sections[2]]}}
        second = await client.send_message(_message([Part(root=DataPart(data=edit))], task.id, task.context_id))
        task = second.root.result  # type: ignore[union-attr]
        while task.status.state.value not in ("completed", "failed", "canceled", "rejected"):
            await asyncio.sleep(0.3)
            task = (await client.get_task(GetTaskRequest(id=str(uuid.uuid4()),
                                                         params=TaskQueryParams(id=task.id)))).root.result
        states.append(task.status.state.value)
        artifacts = [a.name for a in task.artifacts or []]
        report_id = (task.metadata or {}).get("report_id")
        print(json.dumps({"protocol": card.protocol_version, "states": states, "artifacts": artifacts,
                          "report_id": report_id, "task_id": task.id, "dropped": sections[1]["title"]}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
