"""Real PostgreSQL and Redis servers for the tests, from Debian's packages, one of each per session.

``postgres_server`` runs ``initdb`` and ``pg_ctl`` in a temp dir (listening on
127.0.0.1 and a free port, its unix socket in that dir, no fsync); as root it
runs them as an unprivileged user (``initdb`` refuses root), via ``runuser``.
``redis_server`` runs ``redis-server`` on 127.0.0.1 and a free port with no
persistence. Both stop at the end of the session; both can be restarted in
place (same port) by the fault tests. The binaries come from PATH or, for
PostgreSQL, ``/usr/lib/postgresql/*/bin`` (``make test-deps`` installs
``postgresql`` and ``redis-server``). A machine without them skips the tests
that need them, saying which package is missing.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["PostgresServer", "RedisServer", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class PostgresServer:
    """A throwaway PostgreSQL cluster in a temp dir.

    Args:
        root: The folder for the cluster, its socket and its log.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.port = free_port()
        self.initdb = _postgres_bin("initdb")
        self.pg_ctl = _postgres_bin("pg_ctl")
        if not (self.initdb and self.pg_ctl):
            raise FileNotFoundError("PostgreSQL's initdb/pg_ctl not found (Debian package postgresql)")
        self.user: str | None = None
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as an unprivileged user
            self.user = "postgres" if _has_user("postgres") else "nobody"
            shutil.chown(root, self.user)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [*args]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        """Create the cluster (trust authentication, user ``postgres``)."""
        assert self.initdb
        self._run(self.initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def start(self) -> None:
        """Start (or start again) on the same port; returns once it accepts connections."""
        assert self.pg_ctl
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(self.pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w",
                  "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: roll back open transactions and disconnect clients)."""
        assert self.pg_ctl
        self._run(self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


class RedisServer:
    """A throwaway ``redis-server`` on 127.0.0.1 with no persistence (a restart starts it empty).

    Args:
        root: The folder it runs in.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(self.binary).exists():
            raise FileNotFoundError("redis-server not found (Debian package redis-server)")
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start (or start again, empty) on the same port; returns once it answers PING."""
        import redis

        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.root), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        client = redis.Redis.from_url(self.url)
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        """Stop it (SIGKILL: what it holds is lost, as in a crash)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.proc = None


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
