"""Real PostgreSQL and Redis servers for the tests, from Debian's packages, one of each per session.

``postgres_server`` runs ``initdb`` and ``pg_ctl`` in a temp dir (listening on
127.0.0.1 and a free port, its unix socket in that dir, no fsync); as root it
runs them as an unprivileged user (``initdb`` refuses root), via ``runuser``.
``redis_server`` runs ``redis-server`` on 127.0.0.1 and a free port with no
persistence. Both stop at the end of the session; both can be restarted in
place (same port) by the fault tests. The binaries come from PATH or, for
PostgreSQL, ``/usr/lib/postgresql/*/bin`` (``make service-deps`` installs
``postgresql`` and ``redis-server``). A machine without them skips the tests
that need them, saying which package is missing.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from reportgen.cluster import PostgresServer, RedisServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (skips when Debian's postgresql is not installed)."""
    root = Path(tempfile.mkdtemp(prefix="reportgen-pg-"))
    try:
        server = PostgresServer(root)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    server.init()
    server.start()
    try:
        yield server
    finally:
        server.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One Redis server for the session (skips when Debian's redis-server is not installed)."""
    root = Path(tempfile.mkdtemp(prefix="reportgen-redis-"))
    try:
        server = RedisServer(root)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty jobs database: a SQLite file, then a PostgreSQL database (the store tests run on both)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'jobs.sqlite'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()
