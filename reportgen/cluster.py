"""A whole deployment on one machine: PostgreSQL and Redis in a temp dir, API replicas and workers.

``make cluster`` (``python -m reportgen.cluster``) starts PostgreSQL and Redis
from Debian's packages in a temp dir (127.0.0.1, free ports, nothing written
outside that dir), then 2 ``reportgen serve`` replicas and 3 ``reportgen
worker`` processes sharing them and one outputs folder; it prints the URLs
and stops everything on Ctrl-C. The tests and ``make bench`` use the same
servers (:class:`PostgresServer`, :class:`RedisServer`) and process group
(:class:`Cluster`) with the tests' fake search.

As root, PostgreSQL runs as an unprivileged user (``initdb`` refuses root):
``postgres`` when Debian's package created it, else ``nobody``, via ``runuser``.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["Cluster", "PostgresServer", "RedisServer", "free_port", "main"]


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
        root: An empty folder for the cluster, its socket and its log (as root,
            it is handed to the unprivileged user, so its parents must be
            traversable: a ``tempfile.mkdtemp()`` folder is).
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
        """A new empty database; returns its URL (libpq form)."""
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


class Cluster:
    """API replicas and workers as child processes, sharing one database, broker and outputs folder.

    Args:
        root: A folder for the outputs, the data dirs and the logs.
        database_url: ``REPORTGEN_DATABASE_URL`` of every process.
        broker_url: ``REPORTGEN_BROKER_URL`` of every process.
        env: More environment for every process (e.g. ``REPORTGEN_LEASE_S``).
        api_command: The command of one API replica; it must print its URL as its first line
            (default ``reportgen serve`` on a free port).
        worker_command: The command of one worker (default ``reportgen worker``).
    """

    def __init__(
        self,
        root: Path,
        database_url: str,
        broker_url: str,
        *,
        env: dict[str, str] | None = None,
        api_command: Sequence[str] | None = None,
        worker_command: Sequence[str] | None = None,
    ) -> None:
        self.root = root
        self.out_dir = root / "outputs"
        self.env = {**os.environ, "REPORTGEN_DATABASE_URL": database_url, "REPORTGEN_BROKER_URL": broker_url,
                    "REPORTGEN_OUT_DIR": str(self.out_dir), **(env or {})}
        self.api_command = list(api_command) if api_command else None
        self.worker_command = list(worker_command or [sys.executable, "-c", "from reportgen.cli import app; app()",
                                                      "worker"])
        self.apis: list[tuple[subprocess.Popen[str], str]] = []  # (process, URL)
        self.workers: list[subprocess.Popen[bytes]] = []
        self._files: list[Any] = []  # the logs and pipes, closed by stop()

    def _env(self, name: str) -> dict[str, str]:
        home = self.root / "homes" / name  # each process its own data dir; what they share is in the database
        return {**self.env, "REPORTGEN_HOME": str(home)}

    def start_api(self) -> str:
        """Start one more API replica; returns its URL once it answers."""
        import httpx

        name = f"api-{len(self.apis) + 1}"
        if self.api_command:
            command = self.api_command
        else:
            port = free_port()
            command = [sys.executable, "-c", f"print('http://127.0.0.1:{port}', flush=True); "
                       "from reportgen.cli import app; app()", "serve", "--port", str(port)]
        log = open(self.root / f"{name}.log", "w")  # noqa: SIM115 - lives as long as the process
        proc = subprocess.Popen(command, env=self._env(name), stdout=subprocess.PIPE, stderr=log, text=True,
                                start_new_session=True)
        assert proc.stdout is not None
        self._files += [log, proc.stdout]
        url = proc.stdout.readline().strip()
        if not url.startswith("http"):
            proc.kill()
            raise RuntimeError(f"API replica {name} did not start; see {self.root / (name + '.log')}")
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/.well-known/agent.json", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"API replica {name} did not answer; see {self.root / (name + '.log')}")
            time.sleep(0.1)
        self.apis.append((proc, url))
        return url

    def start_worker(self) -> subprocess.Popen[bytes]:
        """Start one more worker process (its own process group, so a kill reaches its children)."""
        name = f"worker-{len(self.workers) + 1}"
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 - lives as long as the process
        proc = subprocess.Popen(self.worker_command, env=self._env(name), stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self._files.append(log)
        self.workers.append(proc)
        return proc

    @staticmethod
    def kill(proc: subprocess.Popen[bytes] | subprocess.Popen[str], sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the process's whole group and wait for it."""
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)

    def stop(self) -> None:
        """Stop every replica and worker (SIGTERM, then SIGKILL after 20 s)."""
        procs: list[subprocess.Popen[bytes] | subprocess.Popen[str]] = [*self.workers, *(p for p, _ in self.apis)]
        for proc in procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 20
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.kill(proc)
        self.apis, self.workers = [], []
        for file in self._files:
            file.close()
        self._files = []


def main(argv: Sequence[str] | None = None) -> int:
    """``make cluster``: PostgreSQL, Redis, 2 API replicas and 3 workers on this machine until Ctrl-C.

    Args:
        argv: ``[--apis N] [--workers N]`` (defaults 2 and 3).

    Returns:
        The exit status.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="make cluster", description=main.__doc__)
    parser.add_argument("--apis", type=int, default=2)
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args(argv)

    def _interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    # Ctrl-C, and SIGTERM too, stop everything (also when started in the background, where a shell
    # leaves SIGINT ignored).
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    root = Path(tempfile.mkdtemp(prefix="reportgen-cluster-"))
    postgres = PostgresServer(Path(tempfile.mkdtemp(prefix="reportgen-cluster-pg-")))
    redis_server = RedisServer(root)
    cluster: Cluster | None = None
    try:
        postgres.init()
        postgres.start()
        redis_server.start()
        database = postgres.create_database()
        cluster = Cluster(root, database, redis_server.url)
        for _ in range(args.workers):
            cluster.start_worker()
        urls = [cluster.start_api() for _ in range(args.apis)]
        print(f"PostgreSQL  {database}\nRedis       {redis_server.url}\noutputs     {cluster.out_dir}")
        for url in urls:
            print(f"API replica {url}   (browse: {url}/browse)")
        print(f"{args.workers} workers; logs in {root}. Ctrl-C stops everything.", flush=True)
        while True:
            time.sleep(1)
            for proc in cluster.workers:
                if proc.poll() is not None:
                    print(f"a worker exited ({proc.returncode}); see the logs in {root}", flush=True)
                    cluster.workers.remove(proc)
                    break
    except KeyboardInterrupt:
        print("stopping...", flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
        redis_server.stop()
        postgres.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(postgres.root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
