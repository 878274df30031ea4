"""Kafka transactions (issue 19, docs/reliability.md): a transactional producer commits some
transactions and aborts others. `floe run` reads with isolation.level=read_committed, so only
the committed transactions' records reach the table; transaction markers and aborted records
are passed over, yet each partition's committed offset reaches the partition's end offset (a
topic that ends in a marker or an aborted transaction is caught up: --exit-when-caught-up
terminates, lag is 0)."""
import json
import time
import urllib.request
import uuid

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer

PARTITIONS = 2


def produce_transactions(kafka, topic, plan):
    """plan: one entry per transaction, True to commit it, False to abort it; each writes 5
    records to every partition. Returns the values of the committed transactions."""
    producer = RecordProducer(kafka.bootstrap, **{"transactional.id": f"tx-{topic}"})
    producer.producer.init_transactions(30)
    committed = set()
    for t, commit in enumerate(plan):
        producer.producer.begin_transaction()
        values = [f"t{t}-p{p}-{i}" for p in range(PARTITIONS) for i in range(5)]
        for v in values:
            producer.send_raw(topic, v.encode(), partition=int(v.split("-p")[1].split("-")[0]))
        if commit:
            producer.producer.commit_transaction(30)
            committed |= set(values)
        else:
            producer.producer.abort_transaction(30)
    return committed


def end_offsets(kafka, topic):
    from confluent_kafka import Consumer, TopicPartition
    c = Consumer({"bootstrap.servers": kafka.bootstrap, "group.id": f"probe-{uuid.uuid4().hex[:6]}"})
    try:
        return {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(PARTITIONS)}
    finally:
        c.close()


def table_values(floe, table):
    return [r["value"] for r in floe.table(table).scan().to_arrow().to_pylist()]


def test_aborted_transactions_never_reach_the_table_and_batch_mode_ends(kafka, floe_bin, tmp_path):
    topic = f"tx-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=PARTITIONS)
    # Ends with an aborted transaction: the last offsets of each partition are its records and
    # the abort marker, none of which the consumer ever returns.
    committed = produce_transactions(kafka, topic, [True, False, True, True, False, True, False])
    ends = end_offsets(kafka, topic)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.tx", "value": "string"}])
    result = floe.run_batch(timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    values = table_values(floe, "kafka.tx")
    assert sorted(values) == sorted(committed)  # no aborted record, no duplicate
    assert floe.committed_offsets("kafka.tx") == {topic: ends}


def test_service_commits_past_markers_and_reports_no_lag(kafka, floe_bin, tmp_path):
    """A running `floe run`: committed transactions arrive, aborted ones never do, and after a
    trailing abort the partitions' committed offsets (table and /status) reach the end offsets."""
    topic = f"txs-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=PARTITIONS)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.txs", "value": "string"}],
                   admin=True, defaults={"commit_interval": "300ms"})
    floe.start()
    try:
        committed = produce_transactions(kafka, topic, [False, True, False, True, True, False])
        ends = end_offsets(kafka, topic)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if floe.committed_offsets("kafka.txs") == {topic: ends}:
                    break
            except Exception:  # the table may not exist yet
                pass
            time.sleep(0.5)
        assert floe.committed_offsets("kafka.txs") == {topic: ends}, floe.log_tail()
        deadline = time.monotonic() + 20
        while True:  # lag is refreshed every 10 s
            with urllib.request.urlopen(f"{floe.admin_url}/status", timeout=10) as answer:
                status = json.load(answer)
            partitions = status["topics"][0]["partitions"]
            if all(p["lag"] == 0 for p in partitions) or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert {p["partition"]: p["committed_offset"] for p in partitions} == ends
        assert all(p["lag"] == 0 for p in partitions), partitions
    finally:
        assert floe.stop() == 0, floe.log_tail()
    assert sorted(table_values(floe, "kafka.txs")) == sorted(committed)
