"""The broker side on real servers: messages name their job, the reconciler queues what the broker lost,
and bad settings are refused clearly."""

from __future__ import annotations

import pytest
import redis
from pydantic import ValidationError
from typer.testing import CliRunner

from reportgen.broker import QUEUE, Broker, reconcile
from reportgen.cli import app
from reportgen.config import Settings
from reportgen.store import JobStatus, JobStore
from reportgen.worker import Worker


@pytest.fixture
def broker(redis_server, tmp_path):
    redis.Redis.from_url(redis_server.url).flushall()
    settings = Settings(home=tmp_path / "home", broker_url=redis_server.url, reconcile_s=0.2, lease_s=5)
    broker = Broker(settings)
    yield broker
    broker.close()


def test_a_queued_message_names_its_job(broker):
    broker.enqueue("wind-power-000001")
    broker.enqueue("wind-power-000001")
    broker.enqueue("solar-000002")
    assert broker.redis.llen(QUEUE) == 3
    assert broker.queued_jobs(fresher_than_s=30) == {"wind-power-000001", "solar-000002"}


def test_the_reconciler_queues_only_what_no_lease_and_no_message_holds(broker, postgres_server, tmp_path):
    settings = broker.settings.model_copy(update={"database_url": postgres_server.create_database()})
    store = JobStore(settings.database)
    worker = Worker(settings, store, broker=broker)
    for job_id in ("lost-000001", "queued-000002", "running-000003", "done-000004"):
        store.create(job_id, "Topic", {}, "ip:1")
    broker.enqueue("queued-000002")  # its message is in the broker
    assert store.acquire_lease("running-000003", "another-worker", 30)  # a live worker runs it
    store.finish("done-000004", JobStatus.COMPLETED)
    assert reconcile(worker, broker) == ["lost-000001"]  # e.g. Redis restarted empty after it was queued
    assert broker.queued_jobs(fresher_than_s=30) == {"lost-000001", "queued-000002"}
    assert store.get("lost-000001").lease_owner is None  # queued, not taken
    assert reconcile(worker, broker) == []  # just queued: not again
    store.close()


def test_a_worker_needs_a_broker_url():
    result = CliRunner().invoke(app, ["worker"])
    assert result.exit_code == 2 and "REPORTGEN_BROKER_URL is not set" in result.output


@pytest.mark.parametrize(("name", "value"), [("database_url", "mysql://db/jobs"), ("broker_url", "amqp://mq//")])
def test_unsupported_urls_are_refused_by_name(name, value):
    with pytest.raises(ValidationError, match=name):
        Settings(**{name: value})
