"""Harness proof (issue #2): records produced to a real broker by the real Confluent Avro
serializer are consumed by a C++ tool built from Floe's modules (librdkafka consumer,
registry client, Avro codec, Arrow/Parquet writer), and independent readers (pyarrow,
DuckDB) read back exactly those rows with the right values."""
import datetime as dt
import json
import subprocess
import uuid

import duckdb
import pyarrow.parquet as pq
from confluent_kafka import Producer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

N = 5000
PARTITIONS = 4

SCHEMA = {
    "type": "record", "name": "Order", "namespace": "floe.test",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "customer", "type": "string"},
        {"name": "amount", "type": "double"},
        {"name": "quantity", "type": "int"},
        {"name": "paid", "type": "boolean"},
        {"name": "note", "type": ["null", "string"], "default": None},
        {"name": "created_at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    ],
}


def make_record(i: int) -> dict:
    return {
        "id": i * 7919,
        "customer": f"customer-{i % 97}-é",  # non-ASCII on purpose: bytes must survive as UTF-8
        "amount": i * 0.25,
        "quantity": -i if i % 3 == 0 else i,
        "paid": i % 2 == 0,
        "note": None if i % 5 == 0 else f"note {i}",
        "created_at": dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(milliseconds=i * 1001),
    }


def produce(kafka, registry_url: str, topic: str) -> dict:
    """Produces N records round-robin over the partitions; returns (partition, offset) -> record."""
    serializer = AvroSerializer(SchemaRegistryClient({"url": registry_url}), json.dumps(SCHEMA))
    producer = Producer({"bootstrap.servers": kafka.bootstrap, "linger.ms": 5})
    delivered = {}
    errors = []

    def on_delivery(err, msg, record):
        if err is not None:
            errors.append(err)
        else:
            delivered[(msg.partition(), msg.offset())] = record

    for i in range(N):
        record = make_record(i)
        value = serializer(record, SerializationContext(topic, MessageField.VALUE))
        producer.produce(topic, value=value, partition=i % PARTITIONS,
                         on_delivery=lambda err, msg, r=record: on_delivery(err, msg, r))
        if i % 1000 == 0:
            producer.poll(0)
    assert producer.flush(60) == 0
    assert not errors, errors
    assert len(delivered) == N
    return delivered


def test_avro_topic_to_parquet_read_back_by_pyarrow_and_duckdb(kafka, schema_registry, tool, tmp_path):
    topic = f"harness-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, PARTITIONS)
    expected = produce(kafka, schema_registry.url, topic)

    out = subprocess.run(
        [str(tool("floe_topic_to_parquet")), "--bootstrap", kafka.bootstrap, "--topic", topic,
         "--registry", schema_registry.url, "--output-dir", str(tmp_path), "--timeout", "120"],
        capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["rows"] == N
    path = tmp_path / "data.parquet"
    assert summary["path"] == f"file://{path}"

    # pyarrow: schema and every value.
    table = pq.read_table(path)
    assert table.num_rows == N
    assert table.schema.field("id").type == "int64"
    assert table.schema.field("note").nullable
    assert not table.schema.field("id").nullable
    assert str(table.schema.field("created_at").type) == "timestamp[us, tz=UTC]"
    rows = table.to_pylist()
    seen = set()
    for row in rows:
        key = (row["_partition"], row["_offset"])
        assert key not in seen, f"duplicate {key}"
        seen.add(key)
        assert {k: v for k, v in row.items() if not k.startswith("_")} == expected[key], key
    assert seen == set(expected)

    # DuckDB, a reader that shares no code with Floe or pyarrow.
    con = duckdb.connect()
    q = f"SELECT count(*), count(DISTINCT (_partition, _offset)), sum(id), count(note), " \
        f"min(created_at), max(customer) FROM read_parquet('{path}')"
    count, distinct, id_sum, notes, first_ts, max_customer = con.execute(q).fetchone()
    assert count == N and distinct == N
    assert id_sum == sum(r["id"] for r in expected.values())
    assert notes == sum(1 for r in expected.values() if r["note"] is not None)
    assert first_ts == dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    assert max_customer == max(r["customer"] for r in expected.values())
    per_partition = dict(con.execute(
        f"SELECT _partition, count(*) FROM read_parquet('{path}') GROUP BY 1").fetchall())
    assert per_partition == {p: N // PARTITIONS for p in range(PARTITIONS)}


def test_tool_names_the_record_on_bad_framing(kafka, schema_registry, tool, tmp_path):
    topic = f"harness-bad-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, 1)
    producer = Producer({"bootstrap.servers": kafka.bootstrap})
    producer.produce(topic, value=b"\x01not-confluent-framed", partition=0)
    assert producer.flush(30) == 0
    out = subprocess.run(
        [str(tool("floe_topic_to_parquet")), "--bootstrap", kafka.bootstrap, "--topic", topic,
         "--registry", schema_registry.url, "--output-dir", str(tmp_path), "--timeout", "60"],
        capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert f"{topic}/0@0: not in Confluent wire format: magic byte is 1, expected 0" in out.stderr, out.stderr
    assert not (tmp_path / "data.parquet").exists()
