"""The run's LangGraph checkpointer: the SQLite file in the data dir, or PostgreSQL.

With ``REPORTGEN_DATABASE_URL=postgresql://...`` every run's checkpoints live
in that database (``langgraph-checkpoint-postgres``), so a report started on
one worker resumes on another from the tasks that one finished. Without it,
the SQLite checkpointer of :func:`reportgen.run.open_checkpointer`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from reportgen.config import Settings

__all__ = ["open_saver"]

#: Databases whose checkpoint tables this process has already set up.
_SET_UP: set[str] = set()


@contextlib.asynccontextmanager
async def open_saver(settings: Settings) -> AsyncIterator[Any]:
    """The checkpointer of one run, closed on exit.

    PostgreSQL: an :class:`~langgraph.checkpoint.postgres.aio.AsyncPostgresSaver`
    on a small connection pool whose connections are checked before use (a
    restarted server is reconnected to), with the connection settings the
    saver's own ``from_conn_string`` uses (autocommit, no prepared
    statements, dict rows); its tables are created once per process
    (``setup()``, idempotent).

    Args:
        settings: ``database_url`` chooses PostgreSQL; otherwise ``checkpoint_db``.

    Yields:
        The saver.
    """
    if not settings.postgres:
        from reportgen.run import open_checkpointer

        async with open_checkpointer(settings.checkpoint_db) as saver:
            yield saver
        return
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from psycopg.rows import dict_row
    from psycopg_pool import AsyncConnectionPool

    from reportgen.store import libpq_url

    assert settings.database_url
    url = libpq_url(settings.database_url)
    async with AsyncConnectionPool(
        url, min_size=1, max_size=max(2, settings.max_concurrency), open=False,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        check=AsyncConnectionPool.check_connection,
    ) as pool:
        postgres_saver = AsyncPostgresSaver(pool)  # type: ignore[arg-type]
        if url not in _SET_UP:
            await postgres_saver.setup()
            _SET_UP.add(url)
        yield postgres_saver
