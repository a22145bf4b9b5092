"""The report service's jobs, in SQLite or PostgreSQL, through named append-only migrations.

Following simonw/llm's ``migrations.py``: every schema change is a function
registered with :func:`migration`, applied once, in order, and recorded by
name in the ``_migrations`` table. Migrations are never edited or reordered
once released; a change is a new migration at the end of :data:`MIGRATIONS`.
Every statement is written once, in the SQL both databases speak, and run
through SQLAlchemy Core (``REPORTGEN_DATABASE_URL``: a ``sqlite:///`` file by
default, or ``postgresql://``); times are ISO 8601 UTC text, so they compare
as text in both.

A job is one report the service was asked for; its id is the report id (the
folder name under the outputs directory and the checkpoint thread)::

    submitted ──► working ──► completed | failed | canceled
        │           │   ▲              ▲
        │           ▼   │ (answered)   │
        │        input_required ───────┤ (canceled while waiting)
        └──────────── (canceled before it started) ──┘

A job asked for with ``review`` stops after planning in ``input_required``
with its proposed plan in ``plan``; the reviewer's answer is stored in
``review_answer`` and the job is queued again (``submitted``). Both columns
survive a restart: a job waiting for review keeps waiting, an answered one
runs.

A job still ``submitted`` or ``working`` when the service stops is run again
with the same report id when it starts (see :mod:`reportgen.worker`).

Leases: whoever runs a job (the in-process worker or a Celery worker) first
takes its lease (``lease_owner`` until ``lease_expires``) with one conditional
``UPDATE``, and renews it while it runs; a job whose lease is held and not
expired is never started by anyone else, so one job never runs twice at once.
A worker killed mid-report stops renewing, and its lease runs out.

Events: every line of a job's ``messages.jsonl`` (each ACP message its runs
logged) is also a row of ``job_events``, numbered as the line is (``seq``,
the SSE ``id``), so any API replica replays a stream after ``Last-Event-ID``
from the database. The file is the source: whoever runs the job copies the
lines the log lacks (:meth:`JobStore.log_events`), so lines a worker could
not copy before it lost the job go in, in their place, with the next run's.
The job's row counts the lines logged (``last_event_seq``).
"""

from __future__ import annotations

import builtins
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

__all__ = [
    "Database",
    "Idempotent",
    "Job",
    "JobStatus",
    "JobStore",
    "MIGRATIONS",
    "database_errors",
    "engine_url",
    "libpq_url",
    "migrate",
    "migration",
    "open_engine",
    "sqlite_wal",
]

Migration = Callable[[Connection], None]

#: Every migration in the order it is applied: ``(name, function)``.
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    """Register ``fn`` as the next migration, named after the function."""
    MIGRATIONS.append((fn.__name__, fn))
    return fn


@migration
def m001_jobs(db: Connection) -> None:
    db.exec_driver_sql(
        """
        CREATE TABLE jobs (
            id TEXT PRIMARY KEY,
            topic TEXT NOT NULL,
            options TEXT NOT NULL,
            status TEXT NOT NULL,
            client TEXT NOT NULL,
            created_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT,
            runs INTEGER NOT NULL DEFAULT 0,
            cancel_requested INTEGER NOT NULL DEFAULT 0,
            tasks_done INTEGER NOT NULL DEFAULT 0,
            tasks_total INTEGER NOT NULL DEFAULT 0,
            timings TEXT NOT NULL DEFAULT '{}',
            title TEXT,
            lang TEXT,
            pages INTEGER,
            error_code TEXT,
            error TEXT
        )
        """
    )
    db.exec_driver_sql("CREATE INDEX jobs_created ON jobs (created_at)")
    db.exec_driver_sql("CREATE INDEX jobs_client_status ON jobs (client, status)")


@migration
def m002_idempotency_keys(db: Connection) -> None:
    db.exec_driver_sql(
        """
        CREATE TABLE idempotency_keys (
            client TEXT NOT NULL,
            key TEXT NOT NULL,
            job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
            request_hash TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (client, key)
        )
        """
    )


@migration
def m003_plan_review(db: Connection) -> None:
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN plan TEXT")
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN review_answer TEXT")
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN review_deadline TEXT")


@migration
def m004_leases(db: Connection) -> None:
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN lease_owner TEXT")
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN lease_expires TEXT")
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN queued_at TEXT")
    db.exec_driver_sql("CREATE INDEX jobs_status ON jobs (status)")


@migration
def m005_job_events(db: Connection) -> None:
    db.exec_driver_sql(
        """
        CREATE TABLE job_events (
            job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (job_id, seq)
        )
        """
    )


@migration
def m006_api_keys(db: Connection) -> None:
    # IF NOT EXISTS: a development build of the keys created the table outside the migrations
    db.exec_driver_sql(
        """
        CREATE TABLE IF NOT EXISTS api_keys (
            digest TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            hint TEXT NOT NULL,
            admin INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            revoked_at TEXT
        )
        """
    )
    # One live key per name; revoked ones stay as a record.
    db.exec_driver_sql(
        "CREATE UNIQUE INDEX IF NOT EXISTS api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL"
    )


@migration
def m007_event_counter(db: Connection) -> None:
    # Each job counts its own events: an append takes the next seq by one UPDATE of the job's row
    # (a row lock on PostgreSQL, the write lock on SQLite), never by racing on max(seq) + 1.
    db.exec_driver_sql("ALTER TABLE jobs ADD COLUMN last_event_seq INTEGER NOT NULL DEFAULT 0")
    db.exec_driver_sql(
        "UPDATE jobs SET last_event_seq = coalesce((SELECT max(seq) FROM job_events WHERE job_id = jobs.id), 0)"
    )


def migrate(db: Connection) -> list[str]:
    """Apply the migrations ``db`` has not seen yet, each in its own transaction.

    On PostgreSQL the whole run holds an advisory lock, so API replicas and
    workers starting together migrate once, one after the other.

    Args:
        db: An open SQLAlchemy connection with no transaction begun.

    Returns:
        The names of the migrations applied now (empty when up to date).
    """
    postgres = db.dialect.name == "postgresql"
    db.execution_options(reportgen_write=True)  # SQLite: BEGIN IMMEDIATE (a read lock cannot be upgraded)
    with db.begin():
        if postgres:  # the one statement only PostgreSQL needs: released at commit
            db.exec_driver_sql("SELECT pg_advisory_xact_lock(7305917)")
        db.exec_driver_sql(
            "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        done = {row[0] for row in db.exec_driver_sql("SELECT name FROM _migrations")}
        pending = [(name, fn) for name, fn in MIGRATIONS if name not in done]
        if not pending:
            return []
    applied = []
    for name, fn in pending:
        with db.begin():  # one transaction: the change and its record land together
            if postgres:
                db.exec_driver_sql("SELECT pg_advisory_xact_lock(7305917)")
            if db.execute(text("SELECT 1 FROM _migrations WHERE name = :n"), {"n": name}).first():
                continue  # another process applied it meanwhile
            fn(db)
            db.execute(text("INSERT INTO _migrations (name, applied_at) VALUES (:n, :t)"), {"n": name, "t": _now()})
        applied.append(name)
    return applied


def engine_url(url: str | Path, *, asynchronous: bool = False) -> str:
    """The SQLAlchemy URL of a jobs database: ``postgresql://`` gets the psycopg 3 driver.

    Args:
        url: A database URL (``sqlite:///path``, ``postgresql://...``) or a SQLite file path.
        asynchronous: The asyncio driver (``aiosqlite``, ``psycopg_async``) for the A2A stores.

    Returns:
        The URL with its driver named.

    Raises:
        ValueError: Neither SQLite nor PostgreSQL.
    """
    if isinstance(url, Path) or "://" not in str(url):
        url = f"sqlite:///{url}"
    parsed = make_url(str(url))
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        driver = "aiosqlite" if asynchronous else "pysqlite"
    elif backend in ("postgresql", "postgres"):
        backend, driver = "postgresql", "psycopg_async" if asynchronous else "psycopg"
    else:
        raise ValueError(f"unsupported database {backend!r}: REPORTGEN_DATABASE_URL takes sqlite:/// or postgresql://")
    return parsed.set(drivername=f"{backend}+{driver}").render_as_string(hide_password=False)


def open_engine(database: str | Path) -> Engine:
    """A SQLAlchemy engine on the jobs database, set up as the store needs it.

    SQLite: WAL, foreign keys, transactional DDL and ``BEGIN IMMEDIATE`` for
    writes (:func:`_sqlite_transactions`); PostgreSQL: psycopg 3 with a small
    pool whose connections are checked before use (a restarted server is
    reconnected to, not reported as an error).

    Args:
        database: A SQLite file path or a database URL (see :func:`engine_url`).

    Raises:
        ValueError: Another kind of database.
    """
    url = engine_url(database)
    if url.startswith("postgresql"):
        return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
    database_path = make_url(url).database
    assert database_path, "a SQLite URL names its file"
    Path(database_path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
    _sqlite_transactions(engine)
    _wal(engine)
    return engine


def database_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the database cannot be reached right now" (SQLAlchemy's and psycopg's).

    A run that meets one is not failed: it is tried again once the
    database is back, and resumes from its checkpoints.
    """
    import psycopg
    import sqlalchemy.exc

    return (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError, psycopg.OperationalError,
            psycopg.InterfaceError)


def libpq_url(url: str) -> str:
    """A ``postgresql://`` URL as libpq (psycopg, LangGraph's saver) reads it: no SQLAlchemy driver name."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


class JobStatus(str, Enum):
    """Lifecycle of a report job (the A2A task states)."""

    SUBMITTED = "submitted"
    WORKING = "working"
    INPUT_REQUIRED = "input_required"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELED = "canceled"

    @property
    def terminal(self) -> bool:
        """True when the job will not run again."""
        return self in (JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELED)


@dataclass
class Job:
    """One report job, as stored.

    Attributes:
        id: The report id (``^[a-z0-9][a-z0-9-]{0,63}$``).
        topic: The topic as requested (whitespace normalised).
        options: The request's options (``lang``, ``sections``, ``corpus``,
            ``wiki``, ``template``, ``appendix``, ``guidance``), as JSON values.
        status: Where the job is in its lifecycle.
        client: Who asked (``"key:<hash>"`` or ``"ip:<address>"``); the
            per-client caps count by it.
        created_at: When it was requested (UTC).
        started_at: When it first started running.
        finished_at: When it reached a terminal status.
        runs: How many times it was started (more than 1 after a restart).
        cancel_requested: A cancel was asked for; the run stops at the next
            task boundary.
        tasks_done: Blueprint tasks finished (done, failed or skipped).
        tasks_total: Blueprint tasks planned (0 until the plan exists).
        timings: Seconds per stage of the last run.
        title: The report title, once completed.
        lang: The report language.
        pages: Pages of the PDF, once completed.
        error_code: The :class:`~reportgen.errors.ReportgenError` code of a
            failed or canceled job.
        error: Its one-line description.
        plan: The proposed blueprint (JSON) while it waits for review, then the reviewed one.
        review_answer: The reviewer's answer not yet applied by a run (JSON).
        review_deadline: When an unattended review is approved automatically (``None``: never).
        lease_owner: The worker running it now (``None`` when nobody holds its lease).
        lease_expires: When that lease runs out unless renewed.
    """

    id: str
    topic: str
    options: dict[str, Any]
    status: JobStatus
    client: str
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    runs: int = 0
    cancel_requested: bool = False
    tasks_done: int = 0
    tasks_total: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    title: str | None = None
    lang: str | None = None
    pages: int | None = None
    error_code: str | None = None
    error: str | None = None
    plan: dict[str, Any] | None = None
    review_answer: dict[str, Any] | None = None
    review_deadline: datetime | None = None
    lease_owner: str | None = None
    lease_expires: datetime | None = None


class Idempotent(NamedTuple):
    """A job already created under an ``Idempotency-Key``.

    Attributes:
        job_id: The job the key created.
        request_hash: Fingerprint of the request that created it.
    """

    job_id: str
    request_hash: str


def _now() -> str:
    return _iso(datetime.now(timezone.utc))


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


class Database:
    """The service database (SQLite file or PostgreSQL), migrated when opened, safe to share between threads.

    Every call runs one short statement or transaction. On SQLite every call
    also takes a process-wide lock and every write transaction begins with
    ``BEGIN IMMEDIATE`` (the file has one writer at a time), so progress
    callbacks from the pipeline's worker threads and the event loop share one
    store; on PostgreSQL a connection pool serves the threads. The stores of
    its tables (:class:`JobStore`, :class:`reportgen.keys.KeyStore`) are
    subclasses.

    Args:
        database: A SQLite file path, or a database URL (``sqlite:///path``,
            ``postgresql://user:pass@host:port/db``); created and migrated when opened.

    Raises:
        ValueError: The URL names another kind of database.
    """

    def __init__(self, database: str | Path) -> None:
        self._engine: Engine = open_engine(database)
        self.url = self._engine.url.render_as_string(hide_password=False)
        self.postgres = self._engine.dialect.name == "postgresql"
        self._lock: Any = nullcontext() if self.postgres else threading.RLock()
        with self._lock, self._engine.connect() as db:
            migrate(db)

    def close(self) -> None:
        """Close the database connections."""
        with self._lock:
            self._engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite)."""
        with self._lock, self._engine.connect() as db:
            db.execution_options(reportgen_write=True)
            with db.begin():
                yield db

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._lock, self._engine.connect() as db:
            yield db

    def _one(self, sql: str, **params: Any) -> Any:
        with self._read() as db:
            return db.execute(text(sql), params).mappings().first()

    def _all(self, sql: str, **params: Any) -> builtins.list[Any]:
        with self._read() as db:
            return builtins.list(db.execute(text(sql), params).mappings().all())

    def _write(self, sql: str, **params: Any) -> int:
        with self._tx() as db:
            return int(db.execute(text(sql), params).rowcount)


class JobStore(Database):
    """Report jobs in the service database (see :class:`Database`).

    Args:
        database: A SQLite file path, or a database URL (``sqlite:///path``,
            ``postgresql://user:pass@host:port/db``); created and migrated when opened.

    Raises:
        ValueError: The URL names another kind of database.
    """

    def create(
        self,
        job_id: str,
        topic: str,
        options: dict[str, Any],
        client: str,
        *,
        idempotency: tuple[str, str] | None = None,
    ) -> Job | Idempotent:
        """Record a new ``submitted`` job.

        Args:
            job_id: The new report id.
            topic: The topic.
            options: The request's other options (JSON-compatible).
            client: Who asked.
            idempotency: ``(key, request_hash)`` of an ``Idempotency-Key``
                request; the key is recorded with the job in one transaction.

        Returns:
            The new job, or the :class:`Idempotent` record when ``client``
            already used that key (nothing is created then).
        """
        try:
            with self._tx() as db:
                if idempotency is not None:
                    found = db.execute(
                        text("SELECT job_id, request_hash FROM idempotency_keys WHERE client = :c AND key = :k"),
                        {"c": client, "k": idempotency[0]},
                    ).mappings().first()
                    if found is not None:
                        return Idempotent(found["job_id"], found["request_hash"])
                now = _now()
                db.execute(
                    text("INSERT INTO jobs (id, topic, options, status, client, created_at) "
                         "VALUES (:id, :topic, :options, :status, :client, :now)"),
                    {"id": job_id, "topic": topic, "options": json.dumps(options, sort_keys=True),
                     "status": JobStatus.SUBMITTED.value, "client": client, "now": now},
                )
                if idempotency is not None:
                    db.execute(
                        text("INSERT INTO idempotency_keys (client, key, job_id, request_hash, created_at) "
                             "VALUES (:c, :k, :j, :h, :now)"),
                        {"c": client, "k": idempotency[0], "j": job_id, "h": idempotency[1], "now": now},
                    )
        except IntegrityError:
            # Two replicas took the same Idempotency-Key at once (PostgreSQL
            # reads committed): the other's job is the answer.
            if idempotency is None:
                raise
            found_later = self.find_idempotent(client, idempotency[0])
            if found_later is None:
                raise
            return found_later
        job = self.get(job_id)
        assert job is not None
        return job

    def find_idempotent(self, client: str, key: str) -> Idempotent | None:
        """The job ``client`` created with the ``Idempotency-Key`` ``key``, if any."""
        row = self._one("SELECT job_id, request_hash FROM idempotency_keys WHERE client = :c AND key = :k",
                        c=client, k=key)
        return Idempotent(row["job_id"], row["request_hash"]) if row is not None else None

    def get(self, job_id: str) -> Job | None:
        """The job with ``job_id``, or ``None``."""
        row = self._one("SELECT * FROM jobs WHERE id = :id", id=job_id)
        return _job(row) if row is not None else None

    def list(self, *, limit: int = 20, offset: int = 0, client: str | None = None) -> builtins.list[Job]:
        """Jobs newest first.

        Args:
            limit: Page size.
            offset: Jobs skipped from the newest.
            client: Only this client's jobs (a user's own); ``None`` for everyone's.
        """
        where = "WHERE client = :client " if client is not None else ""
        rows = self._all(f"SELECT * FROM jobs {where}ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset",
                         limit=limit, offset=offset, **({"client": client} if client is not None else {}))
        return [_job(r) for r in rows]

    def count(self, *, client: str | None = None) -> int:
        """Number of jobs (of ``client`` only, when given)."""
        if client is None:
            return int(self._one("SELECT count(*) AS n FROM jobs")["n"])
        return int(self._one("SELECT count(*) AS n FROM jobs WHERE client = :client", client=client)["n"])

    def unfinished(self) -> builtins.list[Job]:  # ``list`` here is the method above
        """Jobs ``submitted`` or ``working``, oldest first (the ones to run on start).

        A job ``input_required`` whose review was answered counts too; one
        still waiting for its review does not.
        """
        rows = self._all(
            "SELECT * FROM jobs WHERE status IN (:s, :w) OR (status = :r AND review_answer IS NOT NULL) "
            "ORDER BY created_at, id",
            s=JobStatus.SUBMITTED.value, w=JobStatus.WORKING.value, r=JobStatus.INPUT_REQUIRED.value,
        )
        return [_job(r) for r in rows]

    def active_count(self, client: str) -> int:
        """Jobs of ``client`` that are ``submitted``, ``working`` or ``input_required``."""
        row = self._one(
            "SELECT count(*) AS n FROM jobs WHERE client = :c AND status IN (:s, :w, :r)",
            c=client, s=JobStatus.SUBMITTED.value, w=JobStatus.WORKING.value, r=JobStatus.INPUT_REQUIRED.value,
        )
        return int(row["n"])

    def mark_working(self, job_id: str) -> None:
        """The job starts (or starts again after a restart)."""
        self._write(
            "UPDATE jobs SET status = :w, runs = runs + 1, started_at = coalesce(started_at, :now) WHERE id = :id",
            w=JobStatus.WORKING.value, now=_now(), id=job_id,
        )

    def set_progress(self, job_id: str, done: int, total: int) -> None:
        """Record blueprint tasks finished of planned."""
        self._write("UPDATE jobs SET tasks_done = :d, tasks_total = :t WHERE id = :id", d=done, t=total, id=job_id)

    def wait_for_review(self, job_id: str, plan: dict[str, Any], deadline: datetime | None) -> None:
        """The job stops for review of ``plan`` (any earlier answer is used up).

        Args:
            job_id: The job.
            plan: The proposed blueprint (JSON).
            deadline: When it is approved automatically (``None``: it waits for ever).
        """
        self._write(
            "UPDATE jobs SET status = :r, plan = :plan, review_answer = NULL, review_deadline = :d WHERE id = :id",
            r=JobStatus.INPUT_REQUIRED.value, plan=json.dumps(plan),
            d=deadline.isoformat() if deadline else None, id=job_id,
        )

    def answer_review(self, job_id: str, answer: dict[str, Any], plan: dict[str, Any]) -> bool:
        """Record the reviewer's answer and queue the job again (``submitted``).

        Args:
            job_id: The job.
            answer: The checked answer (JSON).
            plan: The blueprint to run (JSON).

        Returns:
            ``False`` when the job was not waiting for review (nothing changed).
        """
        return self._write(
            "UPDATE jobs SET status = :s, review_answer = :a, plan = :plan, review_deadline = NULL "
            "WHERE id = :id AND status = :r AND review_answer IS NULL",
            s=JobStatus.SUBMITTED.value, a=json.dumps(answer), plan=json.dumps(plan), id=job_id,
            r=JobStatus.INPUT_REQUIRED.value,
        ) > 0

    def reviews_due(self, now: datetime) -> builtins.list[Job]:
        """Jobs waiting for review whose deadline has passed."""
        rows = self._all(
            "SELECT * FROM jobs WHERE status = :r AND review_answer IS NULL AND review_deadline IS NOT NULL "
            "AND review_deadline <= :now",
            r=JobStatus.INPUT_REQUIRED.value, now=now.isoformat(),
        )
        return [_job(r) for r in rows]

    def request_cancel(self, job_id: str) -> None:
        """Remember that a cancel was asked for (it survives a restart; a running job polls it)."""
        self._write("UPDATE jobs SET cancel_requested = 1 WHERE id = :id", id=job_id)

    def cancel_if_idle(self, job_id: str, error: str, *, code: str = "canceled") -> bool:
        """Cancel a job at once unless a live lease holds it (someone is running it).

        Args:
            job_id: The job.
            error: The one-line reason recorded.
            code: The error code recorded (:class:`~reportgen.errors.RunCanceled`'s).

        Returns:
            ``True`` when the job is now ``canceled``; ``False`` when it is
            finished already or running somewhere (that runner sees
            ``cancel_requested`` and stops at its next task boundary).
        """
        return self._write(
            "UPDATE jobs SET status = :c, finished_at = :now, error_code = :code, error = :e, "
            "lease_owner = NULL, lease_expires = NULL "
            "WHERE id = :id AND status NOT IN (:c, :done, :f) AND (lease_owner IS NULL OR lease_expires < :now)",
            c=JobStatus.CANCELED.value, done=JobStatus.COMPLETED.value, f=JobStatus.FAILED.value,
            now=_now(), code=code, e=error, id=job_id,
        ) > 0

    def acquire_lease(self, job_id: str, owner: str, seconds: float) -> bool:
        """Take the job's lease for ``seconds`` unless someone else holds a live one.

        One conditional ``UPDATE``: of two workers handed the same job, one
        gets the lease, the other gets ``False``.

        Args:
            job_id: The job (not finished).
            owner: Who runs it (unique per worker process and run).
            seconds: Lease length.

        Returns:
            ``True`` when ``owner`` holds the lease now.
        """
        now = datetime.now(timezone.utc)
        return self._write(
            "UPDATE jobs SET lease_owner = :o, lease_expires = :exp "
            "WHERE id = :id AND status NOT IN (:c, :done, :f) "
            "AND (lease_owner IS NULL OR lease_owner = :o OR lease_expires < :now)",
            o=owner, exp=_iso(now + timedelta(seconds=seconds)), id=job_id,
            c=JobStatus.CANCELED.value, done=JobStatus.COMPLETED.value, f=JobStatus.FAILED.value,
            now=_iso(now),
        ) > 0

    def renew_lease(self, job_id: str, owner: str, seconds: float) -> bool:
        """Extend ``owner``'s lease by ``seconds`` from now; ``False`` when it lost the lease."""
        return self._write(
            "UPDATE jobs SET lease_expires = :exp WHERE id = :id AND lease_owner = :o",
            exp=_iso(datetime.now(timezone.utc) + timedelta(seconds=seconds)), id=job_id, o=owner,
        ) > 0

    def release_lease(self, job_id: str, owner: str) -> None:
        """Give the lease back (a no-op unless ``owner`` holds it)."""
        self._write("UPDATE jobs SET lease_owner = NULL, lease_expires = NULL WHERE id = :id AND lease_owner = :o",
                    id=job_id, o=owner)

    def mark_queued(self, job_id: str) -> None:
        """Record that a message for the job was just handed to the broker."""
        self._write("UPDATE jobs SET queued_at = :now WHERE id = :id", now=_now(), id=job_id)

    def orphaned(self, queued_before: datetime) -> builtins.list[Job]:
        """Jobs that should be running or queued but that no live lease holds, oldest first.

        ``submitted`` jobs (and answered reviews) queued before
        ``queued_before`` or never, and ``working`` jobs whose lease ran
        out: the reconciler checks them against the broker.
        """
        rows = self._all(
            "SELECT * FROM jobs WHERE (status IN (:s, :w) OR (status = :r AND review_answer IS NOT NULL)) "
            "AND (lease_owner IS NULL OR lease_expires < :now) "
            "AND (queued_at IS NULL OR queued_at < :before) ORDER BY created_at, id",
            s=JobStatus.SUBMITTED.value, w=JobStatus.WORKING.value, r=JobStatus.INPUT_REQUIRED.value,
            now=_now(), before=_iso(queued_before),
        )
        return [_job(r) for r in rows]

    def finish(
        self,
        job_id: str,
        status: JobStatus,
        *,
        error_code: str | None = None,
        error: str | None = None,
        title: str | None = None,
        lang: str | None = None,
        pages: int | None = None,
        timings: dict[str, float] | None = None,
    ) -> None:
        """Move the job to a terminal status and record what it produced (its lease ends).

        Raises:
            ValueError: ``status`` is not terminal.
        """
        if not status.terminal:
            raise ValueError(f"{status.value} is not a terminal status")
        self._write(
            "UPDATE jobs SET status = :s, finished_at = :now, error_code = :code, error = :e, "
            "title = coalesce(:title, title), lang = coalesce(:lang, lang), pages = coalesce(:pages, pages), "
            "timings = coalesce(:timings, timings), lease_owner = NULL, lease_expires = NULL WHERE id = :id",
            s=status.value, now=_now(), code=error_code, e=error, title=title, lang=lang, pages=pages,
            timings=json.dumps(timings) if timings is not None else None, id=job_id,
        )

    def delete(self, job_id: str) -> bool:
        """Delete the job, its events and its idempotency keys; ``False`` when there was none."""
        with self._tx() as db:
            db.execute(text("DELETE FROM job_events WHERE job_id = :id"), {"id": job_id})
            db.execute(text("DELETE FROM idempotency_keys WHERE job_id = :id"), {"id": job_id})
            return int(db.execute(text("DELETE FROM jobs WHERE id = :id"), {"id": job_id}).rowcount) > 0

    # -- the event log behind SSE ---------------------------------------------

    def log_events(self, job_id: str, lines: builtins.list[tuple[int, str]]) -> int | None:
        """Put lines of the job's ``messages.jsonl`` in its event log, numbered as the lines are.

        The log mirrors the file, whoever writes it: a line logged already
        (by this worker, by one that lost the job, by a replica importing an
        old report) is skipped, so any number of processes may mirror the same
        lines at once and each lands once. One transaction; the job's row
        counts the lines logged (``last_event_seq``), and its row lock
        (PostgreSQL) or the write lock (SQLite) queues concurrent calls.

        Args:
            job_id: The job.
            lines: ``(line number, JSON text)``, 1-based line numbers of the
                file's complete lines (a line torn by a kill is left out, its
                number kept: the SSE ids stay the line numbers).

        Returns:
            The number of the last line logged now or before (0 for none), or
            ``None`` when the job is gone (a deleted job's late lines are dropped).
        """
        with self._tx() as db:
            top = max((n for n, _ in lines), default=0)
            row = db.execute(
                text("UPDATE jobs SET last_event_seq = CASE WHEN last_event_seq < :top THEN :top "
                     "ELSE last_event_seq END WHERE id = :id RETURNING last_event_seq"),
                {"id": job_id, "top": top},
            ).first()
            if row is None:
                return None
            if lines:
                db.execute(text("INSERT INTO job_events (job_id, seq, data) VALUES (:id, :seq, :data) "
                                "ON CONFLICT (job_id, seq) DO NOTHING"),
                           [{"id": job_id, "seq": n, "data": data} for n, data in lines])
            return int(row[0])

    def events_logged(self, job_id: str) -> int:
        """The number of the last line of the job's ``messages.jsonl`` in its event log (0 for none or no job)."""
        rows = self._all("SELECT last_event_seq FROM jobs WHERE id = :id", id=job_id)
        return int(rows[0]["last_event_seq"]) if rows else 0

    def events_after(self, job_id: str, after: int, *, limit: int = 500) -> builtins.list[tuple[int, str]]:
        """The job's events after ``seq`` ``after``, in order, as ``(seq, JSON text)``.

        Args:
            job_id: The job.
            after: The last seq the client has (its ``Last-Event-ID``; 0 for all).
            limit: Most events returned by one call.
        """
        rows = self._all(
            "SELECT seq, data FROM job_events WHERE job_id = :id AND seq > :after ORDER BY seq LIMIT :limit",
            id=job_id, after=after, limit=limit,
        )
        return [(int(r["seq"]), str(r["data"])) for r in rows]


def _sqlite_transactions(engine: Engine) -> None:
    """SQLite as the store needs it: foreign keys, ``BEGIN IMMEDIATE`` for writes.

    pysqlite's own transaction handling is turned off and SQLAlchemy emits
    ``BEGIN`` itself (the recipe of SQLAlchemy's "Serializable isolation /
    Savepoints / Transactional DDL" section for pysqlite), so DDL is
    transactional (a failed migration leaves nothing) and a write takes the
    file's write lock before it reads.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        immediate = conn.get_execution_options().get("reportgen_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _wal(engine: Engine) -> None:
    """Put the engine's SQLite file in WAL mode (see :func:`sqlite_wal`)."""
    raw = engine.raw_connection()
    try:
        sqlite_wal(raw)
    finally:
        raw.close()


def sqlite_wal(conn: Any, *, wait_s: float = 30.0) -> None:
    """Put a SQLite file in WAL mode (persistent in the file), outside any transaction.

    Switching needs the file to itself, so another process or connection
    opening it at the same moment makes one try fail with "database is
    locked": changing into WAL mode takes an exclusive lock, and SQLite
    answers at once, without calling its busy handler, where waiting could
    deadlock (SQLite C API, ``sqlite3_busy_handler``: "The presence of a busy
    handler does not guarantee that it will be invoked when there is lock
    contention"); it is tried again for up to ``wait_s``. A file already in WAL mode
    is left alone, so the usual case takes no lock at all.

    Args:
        conn: An open DB-API connection to the file (``sqlite3`` or a pool's raw connection).
        wait_s: Seconds to keep trying before giving up.

    Raises:
        sqlite3.OperationalError: The file stayed locked for ``wait_s`` seconds.
    """
    import sqlite3
    import time

    deadline = time.monotonic() + wait_s
    while True:
        cursor = conn.cursor()
        try:
            if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
        finally:
            cursor.close()


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def _job(row: Any) -> Job:
    return Job(
        id=row["id"],
        topic=row["topic"],
        options=json.loads(row["options"]),
        status=JobStatus(row["status"]),
        client=row["client"],
        created_at=_time(row["created_at"]),  # type: ignore[arg-type]
        started_at=_time(row["started_at"]),
        finished_at=_time(row["finished_at"]),
        runs=row["runs"],
        cancel_requested=bool(row["cancel_requested"]),
        tasks_done=row["tasks_done"],
        tasks_total=row["tasks_total"],
        timings=json.loads(row["timings"]),
        title=row["title"],
        lang=row["lang"],
        pages=row["pages"],
        error_code=row["error_code"],
        error=row["error"],
        plan=json.loads(row["plan"]) if row["plan"] else None,
        review_answer=json.loads(row["review_answer"]) if row["review_answer"] else None,
        review_deadline=_time(row["review_deadline"]),
        lease_owner=row["lease_owner"],
        lease_expires=_time(row["lease_expires"]),
    )
