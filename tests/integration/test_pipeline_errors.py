"""Bad input and failing dependencies (issue #4): every error mode with every kind of bad
record, and a registry, broker and warehouse that go away and come back. Nothing may be
lost or duplicated, and errors must name topic/partition/offset and the rule broken."""
import json
import shutil
import threading
import time
import uuid

import pytest
from confluent_kafka import Consumer

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_pipeline_avro import ORDER, order, read_rows


def table_for(topic: str) -> str:
    return "kafka." + topic.replace("-", "_")


def bad_values(good: bytes) -> list:
    """One record of each kind of bad input, with the rule Floe must name."""
    return [
        (b"\x01" + good[1:], "magic"),                          # wrong magic byte
        (b"\x00" + (987654).to_bytes(4, "big") + good[5:], "987654"),  # unknown schema id
        (good[: len(good) // 2], ""),                           # truncated payload
        (good[:5] + b"\xff" * 3, ""),                           # corrupt payload
    ]


def produce_with_bad_records(kafka, registry_url, topic):
    """10 good, 4 bad, 10 good records on one partition; returns (bad offsets, bad values)."""
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, registry_url)
    serializer = producer.serializer(ORDER)
    from confluent_kafka.serialization import MessageField, SerializationContext
    good = serializer(order(0), SerializationContext(topic, MessageField.VALUE))
    for i in range(10):
        producer.send_avro(topic, serializer, order(i), key=f"k{i}")
    bad = bad_values(good)
    for n, (value, _) in enumerate(bad):
        producer.send_raw(topic, value, key=f"bad{n}", headers=[("origin", b"test")])
    for i in range(10, 20):
        producer.send_avro(topic, serializer, order(i), key=f"k{i}")
    producer.flush()
    return list(range(10, 14)), bad


def test_skip_mode_skips_each_kind_of_bad_record(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"skip-{uuid.uuid4().hex[:8]}"
    bad_offsets, bad = produce_with_bad_records(kafka, schema_registry.url, topic)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "error_mode": "skip"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    rows = read_rows(floe, table_for(topic))
    assert sorted(r["id"] for r in rows.values()) == list(range(20))
    assert floe.committed_offsets(table_for(topic)) == {topic: {0: 24}}
    for offset, (_, hint) in zip(bad_offsets, bad):
        line = next(l for l in result.stderr.splitlines() if f"skipped {topic}/0@{offset}" in l)
        assert hint in line
    assert "4 skipped" in result.stdout


def test_dlq_mode_sends_originals_with_error_headers(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"dlq-{uuid.uuid4().hex[:8]}"
    dlq = topic + ".dlq"
    kafka.create_topic(dlq, partitions=1)
    bad_offsets, bad = produce_with_bad_records(kafka, schema_registry.url, topic)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "error_mode": "dlq", "dlq_topic": dlq}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(read_rows(floe, table_for(topic))) == 20
    assert floe.committed_offsets(table_for(topic)) == {topic: {0: 24}}

    consumer = Consumer({"bootstrap.servers": kafka.bootstrap, "group.id": f"check-{uuid.uuid4().hex}",
                         "auto.offset.reset": "earliest"})
    consumer.subscribe([dlq])
    got = []
    deadline = time.monotonic() + 30
    while len(got) < 4 and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            got.append(msg)
    consumer.close()
    assert len(got) == 4
    for n, msg in enumerate(got):
        headers = dict(msg.headers())
        assert msg.value() == bad[n][0] and msg.key() == f"bad{n}".encode()
        assert headers["origin"] == b"test"
        assert headers["floe.error.topic"] == topic.encode()
        assert headers["floe.error.partition"] == b"0"
        assert headers["floe.error.offset"] == str(bad_offsets[n]).encode()
        assert headers["floe.error.reason"]


def test_suspend_mode_stops_the_topic_at_the_first_bad_record(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"suspend-{uuid.uuid4().hex[:8]}"
    other = f"fine-{uuid.uuid4().hex[:8]}"
    produce_with_bad_records(kafka, schema_registry.url, topic)
    kafka.create_topic(other, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(50):
        producer.send_avro(other, serializer, order(i))
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}, {"name": other}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    assert f"suspended {topic}: {topic}/0@10" in result.stderr and "magic" in result.stderr
    # Everything before the bad record is in; the offsets stop at it; the other topic went on.
    assert sorted(r["id"] for r in read_rows(floe, table_for(topic)).values()) == list(range(10))
    assert floe.committed_offsets(table_for(topic)) == {topic: {0: 10}}
    assert len(read_rows(floe, table_for(other))) == 50
    # The operator decides to skip: the rerun continues exactly where the table stopped.
    floe.config["topics"][0]["error_mode"] = "skip"
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert sorted(r["id"] for r in read_rows(floe, table_for(topic)).values()) == list(range(20))


def test_suspended_topic_shows_in_status_api(kafka, schema_registry, floe_bin, tmp_path):
    import urllib.request
    topic = f"status-{uuid.uuid4().hex[:8]}"
    produce_with_bad_records(kafka, schema_registry.url, topic)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url,
                   admin=True)
    floe.start()
    try:
        deadline = time.monotonic() + 60
        state = None
        while time.monotonic() < deadline:
            status = json.loads(urllib.request.urlopen(floe.admin_url + "/status", timeout=5).read())
            state = next((t for t in status["topics"] if t["topic"] == topic), None)
            if state and state["state"] == "suspended":
                break
            time.sleep(0.5)
        assert state and state["state"] == "suspended", state
        assert state["error"]["position"] == f"{topic}/0@10"
        assert "magic" in state["error"]["reason"]
        metrics = urllib.request.urlopen(floe.admin_url + "/metrics", timeout=5).read().decode()
        assert f'floe_topic_suspended{{topic="{topic}"}} 1' in metrics
        assert f'floe_records_written_total{{topic="{topic}"}} 10' in metrics
        health = urllib.request.urlopen(floe.admin_url + "/healthz", timeout=5)
        assert health.status == 200
        # Lag is sampled every 10 s: 24 records in Kafka, 10 committed.
        lag_line = f'floe_partition_lag{{topic="{topic}",partition="0"}} 14'
        deadline = time.monotonic() + 20
        while lag_line not in metrics and time.monotonic() < deadline:
            time.sleep(1)
            metrics = urllib.request.urlopen(floe.admin_url + "/metrics", timeout=5).read().decode()
        assert lag_line in metrics, metrics
    finally:
        assert floe.stop() == 3


def test_registry_down_is_retried_never_skipped(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"regdown-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(200):
        producer.send_avro(topic, serializer, order(i), partition=i % 2)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "error_mode": "skip"}],
                   registry_url=schema_registry.url)
    schema_registry.set_down(True)
    timer = threading.Timer(6.0, schema_registry.set_down, args=(False,))
    timer.start()
    try:
        result = floe.run_batch()
    finally:
        timer.cancel()
        schema_registry.set_down(False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "retrying" in result.stderr and "0 skipped" in result.stdout
    assert sorted(r["id"] for r in read_rows(floe, table_for(topic)).values()) == list(range(200))


def wait_for_offsets(floe, table, want, timeout=120):
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        try:
            got = floe.committed_offsets(table)
        except Exception:  # the table may not exist yet
            got = None
        if got == want:
            return
        time.sleep(0.5)
    raise AssertionError(f"offsets {got} never reached {want}:\n{floe.log_tail()}")


def test_storage_write_failure_is_retried_and_never_commits_half_files(kafka, schema_registry, floe_bin, tmp_path):
    """While every write fails, buffers fill up to buffer_memory, then fetching pauses
    (back-pressure); when storage comes back, everything lands exactly once."""
    topic = f"storage-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(100):
        producer.send_avro(topic, serializer, order(i))
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url,
                   extra={"buffer_memory": "8MiB"})
    assert floe.run_batch().returncode == 0
    location = floe.table(table_for(topic)).location().removeprefix("file://")
    data_dir = f"{location}/data"
    shutil.rmtree(data_dir + "-saved", ignore_errors=True)
    shutil.move(data_dir, data_dir + "-saved")
    open(data_dir, "w").close()  # a file where the data directory should be: every write fails
    n = 100_000  # ~15 MB decoded: well over buffer_memory
    for i in range(100, 100 + n):
        producer.send_avro(topic, serializer, order(i))
    producer.flush()
    floe.start()
    try:
        deadline = time.monotonic() + 90
        while "pausing all partitions" not in floe.log_tail(400) and time.monotonic() < deadline:
            time.sleep(0.5)
        log = floe.log_tail(400)
        assert "commit failed, will retry" in log and "pausing all partitions" in log, log
        assert floe.committed_offsets(table_for(topic)) == {topic: {0: 100}}
        import os
        os.remove(data_dir)
        shutil.move(data_dir + "-saved", data_dir)
        wait_for_offsets(floe, table_for(topic), {topic: {0: 100 + n}})
        assert "resuming" in floe.log_tail(2000)
    finally:
        assert floe.stop() == 0
    ids = sorted(r["id"] for r in read_rows(floe, table_for(topic)).values())
    assert ids == list(range(100 + n))


def test_broker_restart_mid_stream(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"restart-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(1000):
        producer.send_avro(topic, serializer, order(i), partition=i % 2)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url)
    floe.start()
    try:
        wait_for_offsets(floe, table_for(topic), {topic: {0: 500, 1: 500}})
        kafka.restart()
        producer = RecordProducer(kafka.bootstrap, schema_registry.url)
        serializer = producer.serializer(ORDER)
        for i in range(1000, 2000):
            producer.send_avro(topic, serializer, order(i), partition=i % 2)
        producer.flush()
        wait_for_offsets(floe, table_for(topic), {topic: {0: 1000, 1: 1000}})
    finally:
        assert floe.stop() == 0
    assert sorted(r["id"] for r in read_rows(floe, table_for(topic)).values()) == list(range(2000))


RECURSIVE = {"type": "record", "name": "Node", "namespace": "floe.test", "fields": [
    {"name": "value", "type": "long"},
    {"name": "next", "type": ["null", "Node"], "default": None},
]}


def test_recursive_schema_is_rejected_with_a_clear_error(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"recursive-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    good = producer.serializer(ORDER)
    for i in range(5):
        producer.send_avro(topic, good, order(i))
    producer.send_avro(topic, producer.serializer(RECURSIVE), {"value": 1, "next": {"value": 2, "next": None}})
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    line = next(l for l in result.stderr.splitlines() if "suspended topic" in l)
    assert f"{topic}/0@5" in line and "recursive" in line.lower(), line
    assert len(read_rows(floe, table_for(topic))) == 5
