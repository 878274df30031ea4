"""Exactly-once under crashes (issue #4, docs/architecture.md "Exactly-once commit protocol"): `floe run`
is killed with SIGKILL at random moments while records keep arriving, and restarted; two
processes share a consumer group and one of them is killed and restarted. Afterwards the
table holds every produced (partition, offset) exactly once."""
import time
import uuid

import pytest

from tests.integration.fixtures.exactly_once import (BackgroundProducer, assert_exactly_once, end_offsets,
                                                     crash_while_producing)
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.test_pipeline_avro import ORDER, order


def avro_orders(kafka, registry_url, topic, partitions, n, seconds):
    """Produces `n` Avro orders over `seconds`, round-robin over the partitions."""
    return BackgroundProducer(kafka, registry_url, topic, partitions, n, seconds, lambda p: p.serializer(ORDER), order)


# workers: the default (the machine's cores) and 4, more threads than cores, so that commits on
# the worker pool overlap polling and each other (issue 17).
WORKERS = [pytest.param(None, id="workers-default"), pytest.param(4, id="workers-4")]


def with_workers(workers):
    return {} if workers is None else {"workers": workers}


@pytest.mark.parametrize("workers", WORKERS)
def test_kill_9_at_random_moments_then_restart(kafka, schema_registry, floe_bin, tmp_path, workers):
    topic = f"crash-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=4)
    producing = avro_orders(kafka, schema_registry.url, topic, 4, 40_000, 25)
    # Static membership: a restarted process takes its partitions back without waiting
    # for the killed one's session to time out.
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.crash"}],
                   registry_url=schema_registry.url, group_id=f"g-{topic}",
                   defaults={"commit_interval": "300ms"}, kafka_properties={"group.instance.id": "crash-1"},
                   extra=with_workers(workers))
    crash_while_producing(floe, producing, 10, 0.5, 4.0)
    assert_exactly_once(floe, "kafka.crash", producing.sent)
    assert floe.committed_offsets("kafka.crash") == {topic: end_offsets(producing.sent)}
    # The kills did happen mid-ingestion: several commits, from several processes.
    snapshots = floe.table("kafka.crash").metadata.snapshots
    assert len(snapshots) >= 5, len(snapshots)


@pytest.mark.parametrize("workers", WORKERS)
def test_two_processes_in_one_group_one_killed_and_restarted(kafka, schema_registry, floe_bin, tmp_path, workers):
    topic = f"pair-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=4)
    producing = avro_orders(kafka, schema_registry.url, topic, 4, 20_000, 15)
    common = dict(registry_url=schema_registry.url, group_id=f"g-{topic}", defaults={"commit_interval": "500ms"},
                  extra=with_workers(workers))
    topics = [{"name": topic, "table": "kafka.pair"}]
    a = FloeRun(floe_bin, tmp_path / "a", kafka.bootstrap, topics, **common)
    b = FloeRun(floe_bin, tmp_path / "b", kafka.bootstrap, topics, **common)
    # Both write the same table: one warehouse and catalog.
    b.config["warehouse"] = a.config["warehouse"]
    b.config["catalog"] = a.config["catalog"]
    producing.start()
    a.start()
    b.start()
    try:
        time.sleep(5)
        b.kill()
        time.sleep(2)
        b.start()
        producing.join(120)
        assert producing.sent is not None
        want = {topic: end_offsets(producing.sent)}
        assert a.wait_for_offsets("kafka.pair", want) == want, a.log_tail() + b.log_tail()
    finally:
        assert b.stop() == 0, b.log_tail()
        assert a.stop() == 0, a.log_tail()
    assert_exactly_once(a, "kafka.pair", producing.sent)
    # Both processes did commit: the group really shared the partitions.
    assert "committed" in a.log_path.read_text() and "committed" in b.log_path.read_text()
