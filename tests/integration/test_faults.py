"""Dependencies that go away and come back while `floe run` keeps running (issue 19,
docs/reliability.md "Faults"): the Kafka brokers, the Schema Registry, the catalog's PostgreSQL
database. In each case Floe retries with backoff, says so in /status and /metrics while it
lasts, loses nothing, writes nothing twice, and carries on by itself once the service is back.
(Object storage faults: test_storage_faults.py; unwritable storage: test_pipeline_errors.py.)

FLOE_FAULT_SECONDS (default 15) sets how long the brokers and the database stay away."""
import json
import os
import time
import urllib.request
import uuid

import pytest

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once, end_offsets
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.postgres import PostgresServer
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.worker_group import PgFloeRun
from tests.integration.test_operator_commands import wait_for as wait_until
from tests.integration.test_pipeline_avro import ORDER, order
from tests.integration.test_pipeline_s3 import produce_orders

pytestmark = pytest.mark.timeout(300)

OUTAGE = float(os.environ.get("FLOE_FAULT_SECONDS", "15"))


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    with PostgresServer(tmp_path_factory.mktemp("postgres")) as pg:
        yield pg


def status(floe) -> dict:
    with urllib.request.urlopen(f"{floe.admin_url}/status", timeout=10) as answer:
        return json.load(answer)


def metric(floe, name: str) -> float:
    text = urllib.request.urlopen(f"{floe.admin_url}/metrics", timeout=10).read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + "{")
               or line.startswith(name + " "))


def wait_for(condition, what, timeout=60.0, floe=None):
    """test_operator_commands.wait_for, with the worker's log tail when it times out."""
    try:
        return wait_until(condition, what, timeout)
    except AssertionError as e:
        raise AssertionError(f"{e}\n{floe.log_tail() if floe else ''}") from None


def wait_committed(floe, table, want, timeout=120.0):
    def reached():
        try:
            return floe.committed_offsets(table) == want
        except Exception:  # the table may not exist yet, or the catalog may be down
            return False
    wait_for(reached, f"{table} committed up to {want}", timeout, floe)


def floe_defaults(floe):
    """Floe's own consumer timeouts, not the fixtures' fast ones: what a user gets."""
    floe.config["kafka"]["properties"] = {}
    return floe


def test_brokers_unreachable_then_back(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"brokers-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 500)
    floe = floe_defaults(FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.brokers"}],
                                 registry_url=schema_registry.url, admin=True, defaults={"commit_interval": "500ms"}))
    floe.start()
    try:
        wait_committed(floe, "kafka.brokers", {topic: {0: 250, 1: 250}})
        assert status(floe)["kafka"]["state"] == "connected"
        kafka.stop()
        try:
            started = time.monotonic()
            away = wait_for(lambda: (lambda k: k if k["state"] == "unreachable" else None)(status(floe)["kafka"]),
                            "/status to report the brokers unreachable", timeout=OUTAGE + 30, floe=floe)
            assert away["error"] and away["unreachable_seconds"] >= 0, away
            assert metric(floe, "floe_kafka_brokers_reachable") == 0
            time.sleep(max(0.0, OUTAGE - (time.monotonic() - started)))
            assert floe.proc.poll() is None, f"floe run gave up while the brokers were away:\n{floe.log_tail()}"
        finally:
            kafka.start()
        producer = RecordProducer(kafka.bootstrap, schema_registry.url)
        serializer = producer.serializer(ORDER)
        for i in range(500, 1000):
            producer.send_avro(topic, serializer, order(i), partition=i % 2)
        sent = producer.flush()
        wait_committed(floe, "kafka.brokers", {topic: {0: 500, 1: 500}})
        wait_for(lambda: status(floe)["kafka"]["state"] == "connected", "/status to report the brokers back",
                 timeout=30, floe=floe)
        assert metric(floe, "floe_kafka_brokers_reachable") == 1
    finally:
        assert floe.stop() == 0, floe.log_tail()
    ids = sorted(r["id"] for r in floe.table("kafka.brokers").scan().to_arrow().to_pylist())
    assert ids == list(range(1000))
    assert len(sent) == 500


def test_registry_down_holds_partitions_until_it_is_back(kafka, schema_registry, floe_bin, tmp_path):
    """The records' schema is registered, then the registry answers 503: the running process
    cannot decode them, holds the partitions (never skips, whatever error_mode says) and shows
    it; once the registry answers again, every record lands once."""
    topic = f"regdown-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 400)
    floe = floe_defaults(FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                                 [{"name": topic, "table": "kafka.regdown", "error_mode": "skip"}],
                                 registry_url=schema_registry.url, admin=True, defaults={"commit_interval": "500ms"}))
    schema_registry.set_down(True)
    try:
        floe.start()
        waiting = wait_for(lambda: (lambda t: t if t and t["state"] == "waiting" else None)(
            next(iter(status(floe)["topics"]), None)), "the topic to wait for the registry", floe=floe)
        assert any("waiting" in p for p in waiting["partitions"]), waiting
        assert metric(floe, "floe_partitions_waiting") >= 1
        time.sleep(3)  # several retries, none of them skipping
    finally:
        schema_registry.set_down(False)
    try:
        wait_committed(floe, "kafka.regdown", {topic: {0: 200, 1: 200}})
        wait_for(lambda: status(floe)["topics"][0]["state"] == "running", "the topic to run again", floe=floe)
        assert metric(floe, "floe_partitions_waiting") == 0
        assert metric(floe, "floe_records_skipped_total") == 0
    finally:
        assert floe.stop() == 0, floe.log_tail()
    assert sorted(r["id"] for r in floe.table("kafka.regdown").scan().to_arrow().to_pylist()) == list(range(400))


def test_catalog_database_restart_loses_nothing(kafka, schema_registry, floe_bin, postgres, tmp_path):
    """The built-in catalog's PostgreSQL goes away for a while (an immediate shutdown, as a crash
    or a failover looks) while records keep arriving: commits fail and are retried with backoff,
    /status names the error, floe_commit_failures_total counts it, and once the database is back
    the table catches up by itself, exactly once."""
    topic = f"pgdown-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    uri = postgres.database_uri(f"faults_{topic[-8:]}")
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 3_000, OUTAGE + 10,
                                   lambda p: p.serializer(ORDER), order)
    floe = floe_defaults(PgFloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.pgdown"}],
                                   catalog_uri=uri, registry_url=schema_registry.url, admin=True,
                                   defaults={"commit_interval": "500ms"}))
    floe.start()
    producing.start()
    try:
        wait_for(lambda: any(t.get("last_commit") for t in status(floe)["topics"]), "a first commit", floe=floe)
        postgres.stop(mode="immediate")
        try:
            failing = wait_for(lambda: (lambda t: t if t.get("commit_error") else None)(status(floe)["topics"][0]),
                               "/status to show the failing commits", timeout=OUTAGE + 30, floe=floe)
            assert "commit_error" in failing
            assert metric(floe, "floe_commit_failures_total") > 0
            time.sleep(OUTAGE)
            assert floe.proc.poll() is None, f"floe run gave up while the catalog was away:\n{floe.log_tail()}"
        finally:
            postgres.start()
        producing.join(120)
        assert producing.sent is not None
        wait_committed(floe, "kafka.pgdown", {topic: end_offsets(producing.sent)})
        wait_for(lambda: "commit_error" not in status(floe)["topics"][0], "the commit error to clear", floe=floe)
        assert "commit failed, will retry" in floe.log_tail(5000)
    finally:
        assert floe.stop() == 0, floe.log_tail()
    assert_exactly_once(floe, "kafka.pgdown", producing.sent)
