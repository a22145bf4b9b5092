"""The A2A task and push-config stores: the SDK's SQL stores on the jobs' SQLite database, run off the event loop.

The SDK's :class:`~a2a.server.tasks.DatabaseTaskStore` and
:class:`~a2a.server.tasks.DatabasePushNotificationConfigStore` keep A2A tasks
and webhooks in the SDK's tables (``tasks``, ``push_notification_configs``)
of the same SQLite file as the jobs, so they survive a restart.

Why off the loop: the job store is synchronous (``sqlite3``) and is called on
the event loop. An async SQL transaction holds SQLite's write lock across an
``await``; if the loop then runs a synchronous job-store write, that write
waits for the lock while blocking the very loop the async transaction needs
to commit — a deadlock until the busy timeout (30 s). So every store call runs
on a loop of its own, in one background thread (:class:`StoreThread`): a
synchronous write on the main loop then only waits for a commit that is
already on its way.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from a2a.server.context import ServerCallContext
from a2a.server.tasks import PushNotificationConfigStore, TaskStore

__all__ = ["OffLoopPushConfigStore", "OffLoopTaskStore", "StoreThread", "open_stores", "task_owner"]

T = TypeVar("T")


class StoreThread:
    """An event loop in a daemon thread that runs the stores' coroutines."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="reportgen-a2a-store", daemon=True)
        self.thread.start()

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the store loop and wait for it without blocking the caller's loop."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def close(self, engine: Any) -> None:
        """Dispose of ``engine`` on the store loop, then stop the loop and the thread."""
        asyncio.run_coroutine_threadsafe(engine.dispose(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


def task_owner(context: ServerCallContext) -> str:
    """The owner a task is stored under (the SDK stores' ``owner_resolver``).

    Args:
        context: The call context; ``state["client"]`` is the caller's client
            (set by the A2A context builder), ``state["owner"]`` an admin's
            stand-in for the owner of the task it reaches.

    Returns:
        The client (``"user:<name>"``, ``"key:<hash>"``, ``"ip:<address>"``);
        ``""`` for a context without one.
    """
    if "owner" in context.state:
        return str(context.state["owner"])
    return str(context.state.get("client") or "")


class OffLoopTaskStore(TaskStore):
    """A :class:`TaskStore` whose every call runs on the :class:`StoreThread`.

    The SDK's store keeps each task under its owner (:func:`task_owner`) and
    finds only the caller's own. An admin caller (``state["admin"]``) reaches
    any task by its id: :meth:`get` and :meth:`save` act as the task's stored
    owner, so an admin's answer never moves a task to the admin.

    Args:
        inner: The SDK's SQL task store (a ``DatabaseTaskStore``).
        thread: The store thread.
    """

    def __init__(self, inner: Any, thread: StoreThread) -> None:
        self.inner, self.thread = inner, thread

    async def _stored_owner(self, task_id: str) -> str | None:
        from sqlalchemy import select

        await self.inner.initialize()
        model = self.inner.task_model
        async with self.inner.engine.connect() as conn:
            row = (await conn.execute(select(model.owner).where(model.id == task_id))).first()
        return None if row is None else str(row[0] or "")

    async def _as_owner(self, task_id: str, context: Any) -> Any:
        if not isinstance(context, ServerCallContext) or not context.state.get("admin"):
            return context
        owner = await self.thread.run(self._stored_owner(task_id))
        if owner is None:
            return context
        return context.model_copy(update={"state": {**context.state, "owner": owner}})

    async def save(self, task: Any, context: Any) -> None:  # noqa: D102
        context = await self._as_owner(task.id, context)
        await self.thread.run(self.inner.save(task, context))

    async def get(self, task_id: str, context: Any) -> Any:  # noqa: D102
        context = await self._as_owner(task_id, context)
        return await self.thread.run(self.inner.get(task_id, context))

    async def list(self, params: Any, context: Any) -> Any:  # noqa: D102
        return await self.thread.run(self.inner.list(params, context))

    async def delete(self, task_id: str, context: Any) -> None:  # noqa: D102
        context = await self._as_owner(task_id, context)
        await self.thread.run(self.inner.delete(task_id, context))


class OffLoopPushConfigStore(PushNotificationConfigStore):
    """A :class:`PushNotificationConfigStore` whose every call runs on the :class:`StoreThread`.

    Args:
        inner: The SDK's SQL push-config store.
        thread: The store thread.
    """

    def __init__(self, inner: PushNotificationConfigStore, thread: StoreThread) -> None:
        self.inner, self.thread = inner, thread

    async def set_info(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102
        return await self.thread.run(self.inner.set_info(*args, **kwargs))

    async def get_info(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102
        return await self.thread.run(self.inner.get_info(*args, **kwargs))

    async def get_info_for_dispatch(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102
        return await self.thread.run(self.inner.get_info_for_dispatch(*args, **kwargs))

    async def delete_info(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102
        return await self.thread.run(self.inner.delete_info(*args, **kwargs))


def open_stores(db_path: Path) -> tuple[StoreThread, Any, OffLoopTaskStore, OffLoopPushConfigStore]:
    """The SDK's SQL stores on the jobs' SQLite file, each call run on a store thread.

    The tables are created on first use.

    Args:
        db_path: The jobs database file (``Settings.jobs_db``).

    Returns:
        ``(thread, engine, task_store, push_config_store)``; close with ``thread.close(engine)``.
    """
    from a2a.server.tasks import DatabasePushNotificationConfigStore, DatabaseTaskStore
    from sqlalchemy.ext.asyncio import create_async_engine

    thread = StoreThread()
    engine = create_async_engine(f"sqlite+aiosqlite:///{db_path}", connect_args={"timeout": 30})
    # The SDK's default tables: custom names build a new model class per call.
    tasks = DatabaseTaskStore(engine, owner_resolver=task_owner)
    configs = DatabasePushNotificationConfigStore(engine, owner_resolver=task_owner)
    return thread, engine, OffLoopTaskStore(tasks, thread), OffLoopPushConfigStore(configs, thread)
