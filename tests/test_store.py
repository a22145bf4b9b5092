"""The job store: named append-only migrations, exact schema, job lifecycle, leases, the event log.

Every store test runs on SQLite and on a real PostgreSQL (the ``database_url``
fixture of ``servers.py``), as LangGraph's own checkpointer tests do.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy

from reportgen.store import MIGRATIONS, Idempotent, JobStatus, JobStore, migrate, open_engine

ALL_MIGRATIONS = ["m001_jobs", "m002_idempotency_keys", "m003_plan_review", "m004_leases", "m005_job_events",
                  "m006_api_keys", "m007_event_counter"]


def _columns(db: sqlite3.Connection, table: str) -> list[tuple[str, str, int, object, int]]:
    return [(r[1], r[2], r[3], r[4], r[5]) for r in db.execute(f"PRAGMA table_info({table})")]


def _migrated(path):
    engine = open_engine(path)
    with engine.connect() as conn:
        applied = migrate(conn)
        again = migrate(conn)
    engine.dispose()
    return applied, again


def test_a_blank_database_migrates_to_the_exact_schema(tmp_path):
    applied, again = _migrated(tmp_path / "jobs.sqlite")
    assert applied == ALL_MIGRATIONS and again == []  # applied once, recorded by name
    db = sqlite3.connect(tmp_path / "jobs.sqlite")
    # (name, type, not null, default, primary key)
    assert _columns(db, "jobs") == [
        ("id", "TEXT", 0, None, 1),
        ("topic", "TEXT", 1, None, 0),
        ("options", "TEXT", 1, None, 0),
        ("status", "TEXT", 1, None, 0),
        ("client", "TEXT", 1, None, 0),
        ("created_at", "TEXT", 1, None, 0),
        ("started_at", "TEXT", 0, None, 0),
        ("finished_at", "TEXT", 0, None, 0),
        ("runs", "INTEGER", 1, "0", 0),
        ("cancel_requested", "INTEGER", 1, "0", 0),
        ("tasks_done", "INTEGER", 1, "0", 0),
        ("tasks_total", "INTEGER", 1, "0", 0),
        ("timings", "TEXT", 1, "'{}'", 0),
        ("title", "TEXT", 0, None, 0),
        ("lang", "TEXT", 0, None, 0),
        ("pages", "INTEGER", 0, None, 0),
        ("error_code", "TEXT", 0, None, 0),
        ("error", "TEXT", 0, None, 0),
        ("plan", "TEXT", 0, None, 0),
        ("review_answer", "TEXT", 0, None, 0),
        ("review_deadline", "TEXT", 0, None, 0),
        ("lease_owner", "TEXT", 0, None, 0),
        ("lease_expires", "TEXT", 0, None, 0),
        ("queued_at", "TEXT", 0, None, 0),
        ("last_event_seq", "INTEGER", 1, "0", 0),
    ]
    assert _columns(db, "idempotency_keys") == [
        ("client", "TEXT", 1, None, 1),
        ("key", "TEXT", 1, None, 2),
        ("job_id", "TEXT", 1, None, 0),
        ("request_hash", "TEXT", 1, None, 0),
        ("created_at", "TEXT", 1, None, 0),
    ]
    assert _columns(db, "job_events") == [
        ("job_id", "TEXT", 1, None, 1), ("seq", "INTEGER", 1, None, 2), ("data", "TEXT", 1, None, 0),
    ]
    assert _columns(db, "api_keys") == [
        ("digest", "TEXT", 0, None, 1), ("name", "TEXT", 1, None, 0), ("hint", "TEXT", 1, None, 0),
        ("admin", "INTEGER", 1, "0", 0), ("created_at", "TEXT", 1, None, 0), ("revoked_at", "TEXT", 0, None, 0),
    ]
    assert [r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY rowid")] == ALL_MIGRATIONS
    db.close()


def test_both_databases_migrate_to_the_same_tables(database_url):
    engine = open_engine(database_url)
    with engine.connect() as conn:
        assert migrate(conn) == ALL_MIGRATIONS and migrate(conn) == []
        columns = sqlalchemy.inspect(conn).get_columns("jobs")
    engine.dispose()
    assert [c["name"] for c in columns][-4:] == ["lease_owner", "lease_expires", "queued_at", "last_event_seq"]


def test_processes_starting_together_migrate_once(database_url):
    stores: list[JobStore] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            stores.append(JobStore(database_url))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(stores) == 4
    for store in stores:
        store.close()


def test_migrations_are_named_in_order_and_unique():
    names = [name for name, _ in MIGRATIONS]
    assert names == sorted(names) and len(set(names)) == len(names)
    assert all(name[0] == "m" and name[1:4].isdigit() for name in names)


def test_a_failing_migration_leaves_no_trace(tmp_path, monkeypatch):
    def m999_broken(db):
        db.exec_driver_sql("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    monkeypatch.setattr("reportgen.store.MIGRATIONS", [*MIGRATIONS, ("m999_broken", m999_broken)])
    engine = open_engine(tmp_path / "jobs.sqlite")
    with engine.connect() as conn, pytest.raises(RuntimeError):
        migrate(conn)
    engine.dispose()
    db = sqlite3.connect(tmp_path / "jobs.sqlite")
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "half_done" not in tables and "jobs" in tables
    assert "m999_broken" not in {r[0] for r in db.execute("SELECT name FROM _migrations")}
    db.close()


def test_an_event_log_from_before_the_counter_carries_on_where_it_stopped(tmp_path, monkeypatch):
    path = tmp_path / "jobs.sqlite"
    before = [m for m in MIGRATIONS if m[0] != "m007_event_counter"]
    monkeypatch.setattr("reportgen.store.MIGRATIONS", before)
    engine = open_engine(path)
    with engine.connect() as conn:
        migrate(conn)
    engine.dispose()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO jobs (id, topic, options, status, client, created_at) "
               "VALUES ('old-000001', 'Old', '{}', 'completed', 'ip:1', '2026-01-01T00:00:00Z')")
    db.executemany("INSERT INTO job_events (job_id, seq, data) VALUES ('old-000001', ?, '{}')", [(1,), (2,), (3,)])
    db.commit()
    db.close()
    monkeypatch.setattr("reportgen.store.MIGRATIONS", MIGRATIONS)
    store = JobStore(path)
    assert store.events_logged("old-000001") == 3  # the migration counted the three
    assert store.log_events("old-000001", [(4, '{"late": true}')]) == 4
    store.close()


def test_the_event_log_numbers_lines_as_the_file_does_and_skips_lines_logged_already(database_url):
    store = JobStore(database_url)
    store.create("imp-000001", "Imported", {}, "ip:1")
    assert store.log_events("imp-000001", [(1, '{"a": 1}'), (2, '{"a": 2}'), (5, '{"a": 5}')]) == 5  # 3, 4 torn
    assert store.log_events("imp-000001", [(1, '{"again": 1}')]) == 5  # logged already: nothing changes
    assert store.log_events("imp-000001", []) == 5 == store.events_logged("imp-000001")
    assert store.log_events("imp-000001", [(6, "{}")]) == 6
    assert store.events_after("imp-000001", 0)[:3] == [(1, '{"a": 1}'), (2, '{"a": 2}'), (5, '{"a": 5}')]
    assert store.log_events("gone", [(1, "{}")]) is None and store.events_logged("gone") == 0
    store.close()


def test_job_lifecycle(database_url):
    store = JobStore(database_url)
    first = store.create("wind-power-000001", "Wind power", {"lang": "en"}, "ip:1", idempotency=("k1", "h1"))
    second = store.create("solar-power-000002", "Solar power", {"lang": "fr"}, "ip:1")
    assert first.status is JobStatus.SUBMITTED and not first.status.terminal
    assert store.create("other-000003", "Other", {}, "ip:1", idempotency=("k1", "h2")) == Idempotent(
        "wind-power-000001", "h1")
    assert store.get("other-000003") is None
    assert store.find_idempotent("ip:1", "k1") == Idempotent("wind-power-000001", "h1")
    assert store.find_idempotent("ip:2", "k1") is None  # keys are per client
    assert [j.id for j in store.list()] == [second.id, first.id]  # newest first
    assert [j.id for j in store.list(limit=1, offset=1)] == [first.id]
    assert store.count() == 2 and store.active_count("ip:1") == 2 and store.active_count("ip:2") == 0

    store.mark_working(first.id)
    store.set_progress(first.id, 3, 15)
    store.finish(first.id, JobStatus.COMPLETED, title="Wind power", lang="en", pages=4, timings={"pdf": 0.5})
    job = store.get(first.id)
    assert (job.status, job.runs, job.tasks_done, job.tasks_total, job.pages) == (JobStatus.COMPLETED, 1, 3, 15, 4)
    assert job.started_at <= job.finished_at and job.timings == {"pdf": 0.5}
    assert [j.id for j in store.unfinished()] == [second.id]
    with pytest.raises(ValueError):
        store.finish(second.id, JobStatus.WORKING)

    assert store.delete(first.id) and not store.delete(first.id)
    assert store.find_idempotent("ip:1", "k1") is None  # the key went with its job
    store.close()
    reopened = JobStore(database_url)  # migrations are not applied twice
    assert [j.id for j in reopened.list()] == [second.id]
    reopened.close()


def test_one_lease_at_a_time_and_an_expired_one_is_taken_over(database_url):
    store = JobStore(database_url)
    store.create("wind-power-000001", "Wind power", {}, "ip:1")
    assert store.acquire_lease("wind-power-000001", "worker-a", 30)
    assert not store.acquire_lease("wind-power-000001", "worker-b", 30)  # two workers handed the same job
    assert store.renew_lease("wind-power-000001", "worker-a", 30)
    assert not store.renew_lease("wind-power-000001", "worker-b", 30)
    job = store.get("wind-power-000001")
    assert job.lease_owner == "worker-a" and job.lease_expires > datetime.now(timezone.utc)
    assert not store.cancel_if_idle("wind-power-000001", "canceled before it started")  # it runs somewhere
    assert store.orphaned(datetime.now(timezone.utc) + timedelta(hours=1)) == []  # held by a live lease

    assert store.acquire_lease("wind-power-000001", "worker-a", -1)  # as if worker-a died a while ago
    assert [j.id for j in store.orphaned(datetime.now(timezone.utc) + timedelta(hours=1))] == ["wind-power-000001"]
    assert store.acquire_lease("wind-power-000001", "worker-b", 30)  # the expired lease is taken over
    assert not store.renew_lease("wind-power-000001", "worker-a", 30)  # and worker-a knows it lost it
    store.release_lease("wind-power-000001", "worker-a")  # a no-op: not the holder
    assert store.get("wind-power-000001").lease_owner == "worker-b"
    store.finish("wind-power-000001", JobStatus.COMPLETED)
    assert store.get("wind-power-000001").lease_owner is None
    assert not store.acquire_lease("wind-power-000001", "worker-c", 30)  # a finished job is never leased
    store.close()


def test_orphans_are_jobs_queued_long_ago_or_never(database_url):
    store = JobStore(database_url)
    for n in range(3):
        store.create(f"job-00000{n}", "Topic", {}, "ip:1")
    store.mark_queued("job-000001")
    past = datetime.now(timezone.utc) - timedelta(minutes=1)
    assert [j.id for j in store.orphaned(past)] == ["job-000000", "job-000002"]  # job-000001 was just queued
    store.request_cancel("job-000002")
    assert store.cancel_if_idle("job-000002", "canceled before it started")
    assert store.get("job-000002").status is JobStatus.CANCELED
    assert [j.id for j in store.orphaned(past)] == ["job-000000"]
    store.close()


def test_the_event_log_numbers_events_per_job_and_replays_after_an_id(database_url):
    store = JobStore(database_url)
    store.create("a-000001", "A", {}, "ip:1")
    store.create("b-000002", "B", {}, "ip:1")
    assert store.log_events("a-000001", [(n + 1, f'{{"n": {n}}}') for n in range(3)]) == 3
    assert store.log_events("b-000002", [(1, '{"n": 0}')]) == 1
    assert store.events_after("a-000001", 1) == [(2, '{"n": 1}'), (3, '{"n": 2}')]
    assert store.events_after("a-000001", 3) == [] and store.events_after("missing", 0) == []

    # Two stores (a worker that lost the job and the one that runs it now, each with its own
    # connections) copy the same lines of the same file at once, in overlapping windows, from
    # 8 threads each: every line lands once, in its place, none skipped.
    other = JobStore(database_url)
    errors: list[BaseException] = []
    lines = [(n, f'{{"line": {n}}}') for n in range(1, 66)]

    def copy(s: JobStore, first: int) -> None:
        try:
            for start in range(first, 65, 8):
                s.log_events("b-000002", lines[start:start + 12])
        except BaseException as e:  # noqa: BLE001 - reported by the assertion below
            errors.append(e)

    threads = [threading.Thread(target=copy, args=(s, k)) for k, s in enumerate((store, other) * 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    assert errors == []
    assert store.events_after("b-000002", 0) == [(1, '{"n": 0}')] + lines[1:]
    assert store.events_logged("b-000002") == 65
    store.finish("a-000001", JobStatus.COMPLETED)
    assert store.delete("a-000001") and store.events_after("a-000001", 0) == []
    store.close()


def test_an_unknown_database_is_refused_clearly():
    with pytest.raises(ValueError, match="sqlite:/// or postgresql://"):
        JobStore("mysql://localhost/jobs")


def test_keys_live_in_either_database(database_url):
    from reportgen.errors import InputError
    from reportgen.keys import KeyStore

    keys = KeyStore(database_url)
    try:
        name = f"user-{uuid.uuid4().hex[:8]}"
        key = keys.create(name, admin=True)
        found = keys.lookup(key)
        assert found is not None and found.name == name and found.admin
        with pytest.raises(InputError, match="already has a key"):
            keys.create(name)
        assert keys.revoke(name) and keys.lookup(key) is None and not keys.revoke(name)
        assert keys.create(name) != key  # a new key once the old one is revoked
    finally:
        keys.close()
