"""The report service's jobs, in SQLite, through named append-only migrations.

Following simonw/llm's ``migrations.py``: every schema change is a function
registered with :func:`migration`, applied once, in order, and recorded by
name in the ``_migrations`` table. Migrations are never edited or reordered
once released; a change is a new migration at the end of :data:`MIGRATIONS`.

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
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "Idempotent",
    "Job",
    "JobStatus",
    "JobStore",
    "MIGRATIONS",
    "migrate",
    "migration",
]

Migration = Callable[[sqlite3.Connection], None]

#: Every migration in the order it is applied: ``(name, function)``.
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    """Register ``fn`` as the next migration, named after the function."""
    MIGRATIONS.append((fn.__name__, fn))
    return fn


@migration
def m001_jobs(db: sqlite3.Connection) -> None:
    db.execute(
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
    db.execute("CREATE INDEX jobs_created ON jobs (created_at)")
    db.execute("CREATE INDEX jobs_client_status ON jobs (client, status)")


@migration
def m002_idempotency_keys(db: sqlite3.Connection) -> None:
    db.execute(
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
def m003_plan_review(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE jobs ADD COLUMN plan TEXT")
    db.execute("ALTER TABLE jobs ADD COLUMN review_answer TEXT")
    db.execute("ALTER TABLE jobs ADD COLUMN review_deadline TEXT")


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply the migrations ``db`` has not seen yet, each in its own transaction.

    Args:
        db: An open connection (autocommit mode is not required).

    Returns:
        The names of the migrations applied now (empty when up to date).
    """
    db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    db.commit()
    done = {row[0] for row in db.execute("SELECT name FROM _migrations")}
    applied = []
    for name, fn in MIGRATIONS:
        if name in done:
            continue
        with db:  # one transaction: the change and its record land together
            db.execute("BEGIN")
            fn(db)
            db.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, _now()))
        applied.append(name)
    return applied


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


class Idempotent(NamedTuple):
    """A job already created under an ``Idempotency-Key``.

    Attributes:
        job_id: The job the key created.
        request_hash: Fingerprint of the request that created it.
    """

    job_id: str
    request_hash: str


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


class JobStore:
    """Report jobs in one SQLite file, safe to share between threads.

    Every call takes a lock and runs one short statement or transaction, so
    progress callbacks from the pipeline's worker threads and the event loop
    can share one store.

    Args:
        path: The database file (created, and migrated, when opened).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA foreign_keys = ON")
        with self._lock:
            migrate(self._db)

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            yield self._db

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
        with self._tx() as db:
            if idempotency is not None:
                found = db.execute(
                    "SELECT job_id, request_hash FROM idempotency_keys WHERE client = ? AND key = ?",
                    (client, idempotency[0]),
                ).fetchone()
                if found is not None:
                    return Idempotent(found["job_id"], found["request_hash"])
            now = _now()
            db.execute(
                "INSERT INTO jobs (id, topic, options, status, client, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (job_id, topic, json.dumps(options, sort_keys=True), JobStatus.SUBMITTED.value, client, now),
            )
            if idempotency is not None:
                db.execute(
                    "INSERT INTO idempotency_keys (client, key, job_id, request_hash, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (client, idempotency[0], job_id, idempotency[1], now),
                )
        job = self.get(job_id)
        assert job is not None
        return job

    def find_idempotent(self, client: str, key: str) -> Idempotent | None:
        """The job ``client`` created with the ``Idempotency-Key`` ``key``, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT job_id, request_hash FROM idempotency_keys WHERE client = ? AND key = ?",
                (client, key),
            ).fetchone()
        return Idempotent(row["job_id"], row["request_hash"]) if row is not None else None

    def get(self, job_id: str) -> Job | None:
        """The job with ``job_id``, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _job(row) if row is not None else None

    def list(self, *, limit: int = 20, offset: int = 0, client: str | None = None) -> list[Job]:
        """Jobs newest first.

        Args:
            limit: Page size.
            offset: Jobs skipped from the newest.
            client: Only this client's jobs (a user's own); ``None`` for everyone's.
        """
        where, args = ("WHERE client = ? ", (client,)) if client is not None else ("", ())
        with self._lock:
            rows = self._db.execute(
                f"SELECT * FROM jobs {where}ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
                (*args, limit, offset),
            ).fetchall()
        return [_job(r) for r in rows]

    def count(self, *, client: str | None = None) -> int:
        """Number of jobs (of ``client`` only, when given)."""
        where, args = ("WHERE client = ?", (client,)) if client is not None else ("", ())
        with self._lock:
            return int(self._db.execute(f"SELECT count(*) FROM jobs {where}", args).fetchone()[0])

    def unfinished(self) -> builtins.list[Job]:  # ``list`` here is the method above
        """Jobs ``submitted`` or ``working``, oldest first (the ones to run on start).

        A job ``input_required`` whose review was answered counts too; one
        still waiting for its review does not.
        """
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM jobs WHERE status IN (?, ?) OR (status = ? AND review_answer IS NOT NULL) "
                "ORDER BY created_at, rowid",
                (JobStatus.SUBMITTED.value, JobStatus.WORKING.value, JobStatus.INPUT_REQUIRED.value),
            ).fetchall()
        return [_job(r) for r in rows]

    def active_count(self, client: str) -> int:
        """Jobs of ``client`` that are ``submitted``, ``working`` or ``input_required``."""
        with self._lock:
            row = self._db.execute(
                "SELECT count(*) FROM jobs WHERE client = ? AND status IN (?, ?, ?)",
                (client, JobStatus.SUBMITTED.value, JobStatus.WORKING.value, JobStatus.INPUT_REQUIRED.value),
            ).fetchone()
        return int(row[0])

    def mark_working(self, job_id: str) -> None:
        """The job starts (or starts again after a restart)."""
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = ?, runs = runs + 1, started_at = coalesce(started_at, ?) "
                "WHERE id = ?",
                (JobStatus.WORKING.value, _now(), job_id),
            )

    def set_progress(self, job_id: str, done: int, total: int) -> None:
        """Record blueprint tasks finished of planned."""
        with self._tx() as db:
            db.execute("UPDATE jobs SET tasks_done = ?, tasks_total = ? WHERE id = ?", (done, total, job_id))

    def wait_for_review(self, job_id: str, plan: dict[str, Any], deadline: datetime | None) -> None:
        """The job stops for review of ``plan`` (any earlier answer is used up).

        Args:
            job_id: The job.
            plan: The proposed blueprint (JSON).
            deadline: When it is approved automatically (``None``: it waits for ever).
        """
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = ?, plan = ?, review_answer = NULL, review_deadline = ? WHERE id = ?",
                (JobStatus.INPUT_REQUIRED.value, json.dumps(plan), deadline.isoformat() if deadline else None,
                 job_id),
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
        with self._tx() as db:
            return db.execute(
                "UPDATE jobs SET status = ?, review_answer = ?, plan = ?, review_deadline = NULL "
                "WHERE id = ? AND status = ? AND review_answer IS NULL",
                (JobStatus.SUBMITTED.value, json.dumps(answer), json.dumps(plan), job_id,
                 JobStatus.INPUT_REQUIRED.value),
            ).rowcount > 0

    def reviews_due(self, now: datetime) -> builtins.list[Job]:
        """Jobs waiting for review whose deadline has passed."""
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM jobs WHERE status = ? AND review_answer IS NULL AND review_deadline IS NOT NULL "
                "AND review_deadline <= ?",
                (JobStatus.INPUT_REQUIRED.value, now.isoformat()),
            ).fetchall()
        return [_job(r) for r in rows]

    def request_cancel(self, job_id: str) -> None:
        """Remember that a cancel was asked for (it survives a restart)."""
        with self._tx() as db:
            db.execute("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (job_id,))

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
        """Move the job to a terminal status and record what it produced.

        Raises:
            ValueError: ``status`` is not terminal.
        """
        if not status.terminal:
            raise ValueError(f"{status.value} is not a terminal status")
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = ?, finished_at = ?, error_code = ?, error = ?, "
                "title = coalesce(?, title), lang = coalesce(?, lang), pages = coalesce(?, pages), "
                "timings = coalesce(?, timings) WHERE id = ?",
                (status.value, _now(), error_code, error, title, lang, pages,
                 json.dumps(timings) if timings is not None else None, job_id),
            )

    def delete(self, job_id: str) -> bool:
        """Delete the job and its idempotency keys; ``False`` when there was none."""
        with self._tx() as db:
            return db.execute("DELETE FROM jobs WHERE id = ?", (job_id,)).rowcount > 0


def _job(row: sqlite3.Row) -> Job:
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
    )
