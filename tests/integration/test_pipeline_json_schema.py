"""JSON Schema topics (issue #13): values framed by the real Confluent JSONSerializer become
typed columns (docs/types.md), read back by pyiceberg, DuckDB and delta-rs exactly once; the
schema evolves with the producer's; records that do not match their schema go to error_mode
naming the record and the rule; `auto` (the default with a registry) takes JSON Schema and Avro
records of one topic."""
import datetime as dt
import json
import struct
import uuid

import pytest

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer

PAYMENT = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Payment",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "customer": {"type": "string"},
        "amount": {"type": "number"},
        "paid": {"type": "boolean"},
        "note": {"type": ["null", "string"]},
        "paid_at": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "currency": {"type": "string", "enum": ["EUR", "USD"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "address": {"oneOf": [{"type": "null"}, {"$ref": "#/definitions/Address"}]},
        "attributes": {"type": "object", "additionalProperties": {"type": "integer"}},
        "quantity": {"type": "integer", "connect.type": "int32"},
    },
    "required": ["id", "customer", "amount", "paid"],
    "definitions": {
        "Address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": ["null", "string"]}},
                    "required": ["city"]},
    },
}
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def payment(i: int) -> dict:
    return {"id": i, "customer": f"c-{i % 17}-é", "amount": i * 0.5, "paid": i % 2 == 0,
            "note": None if i % 3 == 0 else f"note {i}",
            "paid_at": (EPOCH + dt.timedelta(seconds=i)).isoformat().replace("+00:00", "Z"),
            "day": (EPOCH.date() + dt.timedelta(days=i % 40)).isoformat(),
            "currency": "EUR" if i % 2 else "USD", "tags": [f"t{j}" for j in range(i % 3)],
            "address": {"city": f"city {i % 5}", "zip": None if i % 4 == 0 else f"{10000 + i}"} if i % 7 else None,
            "attributes": {"a": i, "b": -i}, "quantity": i % 1000 - 500}


def topic_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def rows_by_position(floe: FloeRun, table: str) -> dict:
    rows = {}
    for row in floe.table(table).scan().to_arrow().to_pylist():
        key = (row["_kafka"]["partition"], row["_kafka"]["offset"])
        assert key not in rows, f"duplicate {key}"
        rows[key] = row
    return rows


def framed(schema_id: int, payload: bytes) -> bytes:
    return b"\x00" + struct.pack(">I", schema_id) + payload


def test_json_schema_values_become_typed_columns_exactly_once(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("payments")
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.json_serializer(PAYMENT)
    n = 3000
    for i in range(n):
        producer.send_avro(topic, serializer, payment(i), partition=i % 2, key=f"k{i}".encode())
    sent = producer.flush()

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.payments", "value": "json_schema", "formats": ["iceberg", "delta"]}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]

    table = floe.table("kafka.payments")
    fields = {f.name: f for f in table.schema().fields}
    assert str(fields["id"].field_type) == "long" and str(fields["amount"].field_type) == "double"
    assert str(fields["paid_at"].field_type) == "timestamptz" and str(fields["day"].field_type) == "date"
    assert str(fields["quantity"].field_type) == "int"
    assert str(fields["attributes"].field_type).startswith("map<string, long>")
    rows = rows_by_position(floe, "kafka.payments")
    assert set(rows) == set(sent) and len(rows) == n
    for key, want in sent.items():
        row = rows[key]
        assert row["id"] == want["id"] and row["customer"] == want["customer"]
        assert row["amount"] == want["amount"] and row["paid"] == want["paid"] and row["note"] == want["note"]
        assert row["paid_at"] == EPOCH + dt.timedelta(seconds=want["id"])
        assert row["day"].isoformat() == want["day"] and row["currency"] == want["currency"]
        assert row["tags"] == want["tags"] and row["quantity"] == want["quantity"]
        assert dict(row["attributes"]) == want["attributes"]
        if want["address"] is None:
            assert row["address"] is None
        else:
            assert row["address"] == want["address"]

    con = connect()
    location = table.metadata_location
    got = con.execute(f"SELECT count(*), sum(id), sum(quantity), count(note) FROM iceberg_scan('{location}')").fetchone()
    assert got == (n, sum(range(n)), sum(i % 1000 - 500 for i in range(n)), sum(1 for i in range(n) if i % 3))

    from deltalake import DeltaTable
    delta = DeltaTable(table.location()).to_pyarrow_table()
    assert delta.num_rows == n and sorted(delta.column("id").to_pylist()) == list(range(n))


def test_json_schema_evolution_and_bad_records(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("evolving")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}, "required": ["id"]}
    v2 = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                           "score": {"type": "number"}}, "required": ["id"]}
    s1, s2 = producer.json_serializer(v1), producer.json_serializer(v2)
    for i in range(10):
        producer.send_avro(topic, s1, {"id": i, "name": f"n{i}"})
    producer.flush()
    schema_id = schema_registry_id(producer, f"{topic}-value", v1)
    # Framed with a real schema id, but not what the schema says: each is a bad record.
    producer.send_raw(topic, framed(schema_id, b'{"id": "eleven"}'))   # wrong type
    producer.send_raw(topic, framed(schema_id, b'{"name": "no id"}'))  # missing required
    producer.send_raw(topic, framed(schema_id, b'{"id": 3'))           # not JSON
    for i in range(10, 20):
        producer.send_avro(topic, s2, {"id": i, "name": f"n{i}", "score": i / 4})
    producer.flush()

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.evolving", "value": "json_schema", "error_mode": "skip"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"{topic}/0@10" in result.stderr and "$.id" in result.stderr
    assert f"{topic}/0@11" in result.stderr and f"{topic}/0@12" in result.stderr
    rows = sorted(floe.table("kafka.evolving").scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in rows] == list(range(20))
    assert [r["score"] for r in rows] == [None] * 10 + [i / 4 for i in range(10, 20)]
    assert floe.committed_offsets("kafka.evolving") == {topic: {0: 23}}

    # The same bad record suspends the topic under the default error mode, offsets untouched.
    suspended = FloeRun(floe_bin, tmp_path / "suspend", kafka.bootstrap,
                        [{"name": topic, "table": "kafka.suspended", "value": "json_schema"}],
                        registry_url=schema_registry.url, group_id="floe-suspend")
    result = suspended.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    assert "suspended topic" in result.stderr and "$.id" in result.stderr
    assert suspended.committed_offsets("kafka.suspended") == {topic: {0: 10}}


def schema_registry_id(producer: RecordProducer, subject: str, schema: dict) -> int:
    from confluent_kafka.schema_registry import Schema
    return producer.registry.lookup_schema(subject, Schema(json.dumps(schema), "JSON")).schema_id


def test_auto_takes_json_schema_and_avro_records_of_one_topic(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("mixed")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    as_json = producer.json_serializer({"type": "object", "properties": {"id": {"type": "integer"},
                                                                        "label": {"type": "string"}},
                                        "required": ["id", "label"]})
    for i in range(5):
        producer.send_avro(topic, as_json, {"id": i, "label": f"json {i}"})
    producer.flush()
    # Avro under another subject (the registry keeps one type per subject's history).
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    avro = AvroSerializer(producer.registry, json.dumps({"type": "record", "name": "Item", "fields": [
        {"name": "id", "type": "long"}, {"name": "label", "type": "string"}]}),
        conf={"subject.name.strategy": lambda ctx, name: f"{topic}-avro-value"})
    for i in range(5, 10):
        producer.send_raw(topic, avro({"id": i, "label": f"avro {i}"}, SerializationContext(topic, MessageField.VALUE)))
    producer.flush()

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.mixed"}],  # value: auto
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    rows = sorted(floe.table("kafka.mixed").scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [(r["id"], r["label"]) for r in rows] == [(i, f"{'json' if i < 5 else 'avro'} {i}") for i in range(10)]


def test_json_schema_keys_and_references(kafka, schema_registry, floe_bin, tmp_path):
    """A key in JSON Schema becomes a typed `key` column; a value schema that $refs another
    registered schema (a registry reference) is resolved through the registry."""
    from confluent_kafka.schema_registry import Schema, SchemaReference
    from confluent_kafka.serialization import MessageField, SerializationContext
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    topic = topic_name("refs")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    money = {"type": "object", "properties": {"units": {"type": "integer"}, "currency": {"type": "string"}},
             "required": ["units", "currency"]}
    producer.registry.register_schema("money", Schema(json.dumps(money), "JSON"))
    order = {"type": "object", "properties": {"id": {"type": "integer"}, "total": {"$ref": "money.json"}},
             "required": ["id"]}
    value_serializer = JSONSerializer(Schema(json.dumps(order), "JSON", [SchemaReference("money.json", "money", 1)]),
                                      producer.registry, conf={"auto.register.schemas": True})
    key_serializer = JSONSerializer(json.dumps({"type": "object", "properties": {"order": {"type": "integer"}},
                                                "required": ["order"]}), producer.registry)
    for i in range(6):
        value = value_serializer({"id": i, "total": {"units": i * 100, "currency": "EUR"}},
                                 SerializationContext(topic, MessageField.VALUE))
        key = key_serializer({"order": i}, SerializationContext(topic, MessageField.KEY))
        producer.send_raw(topic, value, key=key)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.refs", "value": "json_schema", "key": "json_schema"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    rows = sorted(floe.table("kafka.refs").scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["total"] for r in rows] == [{"units": i * 100, "currency": "EUR"} for i in range(6)]
    assert [r["key"] for r in rows] == [{"order": i} for i in range(6)]
