"""The job store: named append-only migrations, exact schema, job lifecycle."""

from __future__ import annotations

import sqlite3

import pytest

from reportgen.store import MIGRATIONS, Idempotent, JobStatus, JobStore, migrate


def _columns(db: sqlite3.Connection, table: str) -> list[tuple[str, str, int, object, int]]:
    return [(r[1], r[2], r[3], r[4], r[5]) for r in db.execute(f"PRAGMA table_info({table})")]


def test_a_blank_database_migrates_to_the_exact_schema(tmp_path):
    db = sqlite3.connect(tmp_path / "jobs.sqlite")
    assert migrate(db) == ["m001_jobs", "m002_idempotency_keys", "m003_plan_review"]
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
    ]
    assert _columns(db, "idempotency_keys") == [
        ("client", "TEXT", 1, None, 1),
        ("key", "TEXT", 1, None, 2),
        ("job_id", "TEXT", 1, None, 0),
        ("request_hash", "TEXT", 1, None, 0),
        ("created_at", "TEXT", 1, None, 0),
    ]
    assert [r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY rowid")] == [
        "m001_jobs", "m002_idempotency_keys", "m003_plan_review",
    ]
    assert migrate(db) == []  # applied once, recorded by name
    db.close()


def test_migrations_are_named_in_order_and_unique():
    names = [name for name, _ in MIGRATIONS]
    assert names == sorted(names) and len(set(names)) == len(names)
    assert all(name[0] == "m" and name[1:4].isdigit() for name in names)


def test_a_failing_migration_leaves_no_trace(tmp_path, monkeypatch):
    def m999_broken(db):
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    monkeypatch.setattr("reportgen.store.MIGRATIONS", [*MIGRATIONS, ("m999_broken", m999_broken)])
    db = sqlite3.connect(tmp_path / "jobs.sqlite")
    with pytest.raises(RuntimeError):
        migrate(db)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "half_done" not in tables and "jobs" in tables
    assert "m999_broken" not in {r[0] for r in db.execute("SELECT name FROM _migrations")}
    db.close()


def test_job_lifecycle(tmp_path):
    store = JobStore(tmp_path / "jobs.sqlite")
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
    reopened = JobStore(tmp_path / "jobs.sqlite")  # migrations are not applied twice
    assert [j.id for j in reopened.list()] == [second.id]
    reopened.close()
