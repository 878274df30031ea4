"""The test Kafka broker itself: real produce/consume round trips, and data
surviving a graceful restart and a crash (SIGKILL) on the same ports."""

import time
import uuid

import pytest
from confluent_kafka import Consumer, Producer

from tests.integration.fixtures.kafka_broker import KafkaBroker  # as conftest.py imports it

N = 100


@pytest.fixture(scope="module")
def kafka_broker(tmp_path_factory):
    """A running single-node broker, stopped (JVM gone) at teardown.
    Self-contained so it can move to conftest.py as is (with scope="session")."""
    with KafkaBroker(tmp_path_factory.mktemp("kafka")) as broker:
        yield broker


def produce(bootstrap, topic, n=N):
    """n keyed messages, all acknowledged by the broker (acks=all) before returning."""
    errors = []
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    for i in range(n):
        p.produce(topic, key=f"k{i}", value=f"v{i}",
                  on_delivery=lambda err, msg: err and errors.append(err))
    assert p.flush(30) == 0, "messages still queued after 30 s"
    assert errors == []
    return {(f"k{i}", f"v{i}") for i in range(n)}


def consume_all(bootstrap, topic, expect, timeout=30.0):
    """Read topic from the beginning with a fresh consumer group until `expect`
    messages arrived (or timeout), then poll a little longer to catch extras."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"test-{uuid.uuid4()}",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([topic])
    msgs = []
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                if len(msgs) >= expect:
                    break  # one quiet poll after reaching the target: nothing more
                continue
            assert m.error() is None, m.error()
            msgs.append(m)
    finally:
        c.close()
    return msgs


def check(msgs, expected):
    got = [(m.key().decode(), m.value().decode()) for m in msgs]
    assert len(got) == len(expected), f"got {len(got)} messages, want {len(expected)}"
    assert set(got) == expected
    # Per partition, offsets come back strictly increasing (Kafka's only order promise).
    by_part = {}
    for m in msgs:
        by_part.setdefault(m.partition(), []).append(m.offset())
    for offs in by_part.values():
        assert offs == sorted(offs) and len(set(offs)) == len(offs)
    return by_part


def test_produce_consume_roundtrip(kafka_broker):
    topic = "roundtrip"
    kafka_broker.create_topic(topic, partitions=3)
    md = kafka_broker.admin().list_topics(topic=topic, timeout=10)
    assert len(md.topics[topic].partitions) == 3

    expected = produce(kafka_broker.bootstrap, topic)
    by_part = check(consume_all(kafka_broker.bootstrap, topic, N), expected)
    assert len(by_part) == 3, f"100 keys should hit all 3 partitions: {sorted(by_part)}"


@pytest.mark.parametrize("hard", [False, True], ids=["graceful", "sigkill"])
def test_restart_keeps_data(kafka_broker, hard):
    topic = f"durable-{'kill' if hard else 'stop'}"
    kafka_broker.create_topic(topic, partitions=3)
    expected = produce(kafka_broker.bootstrap, topic)
    bootstrap, pid = kafka_broker.bootstrap, kafka_broker.proc.pid

    kafka_broker.restart(hard=hard)

    assert kafka_broker.bootstrap == bootstrap  # same port: clients can reconnect
    assert kafka_broker.proc.pid != pid
    check(consume_all(kafka_broker.bootstrap, topic, N), expected)
    # And it still takes writes after the restart.
    produce(kafka_broker.bootstrap, topic, 10)
    assert len(consume_all(kafka_broker.bootstrap, topic, N + 10)) == N + 10


def test_start_failure_reports_log(tmp_path, kafka_broker):
    """A broker that cannot start raises quickly with the log tail in the error."""
    busy = KafkaBroker(tmp_path, port=kafka_broker.port, start_timeout=30)
    with pytest.raises(RuntimeError, match="(?s)first error: .*last 50 lines of .*Address already in use"):
        busy.start()
    assert busy.proc is None
