"""Protobuf topics (issue #13): values framed by the real Confluent ProtobufSerializer (message
classes compiled at test time by protoc; imports registered as schema references) become typed
columns (docs/types.md) read back by pyiceberg, DuckDB and delta-rs exactly once; records of a
non-first message (message index [1]) decode as that message; malformed payloads go to
error_mode naming the record."""
import datetime as dt
import decimal
import shutil
import struct
import uuid

import pytest

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.protobuf import message_classes

pytestmark = pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed (make deps installs it)")

MONEY = """syntax = "proto3";
package acme.common;
message Money { string currency = 1; int64 units = 2; }
"""
PAYMENT = """syntax = "proto3";
package acme;
import "google/protobuf/timestamp.proto";
import "acme/money.proto";
message Payment {
  enum Status { UNKNOWN = 0; PAID = 1; REFUNDED = 2; }
  message Line { string sku = 1; int32 qty = 2; }
  int64 id = 1;
  string customer = 2;
  double amount = 3;
  bool paid = 4;
  optional string note = 5;
  google.protobuf.Timestamp paid_at = 6;
  Status status = 7;
  repeated string tags = 8;
  map<string, int32> attributes = 9;
  acme.common.Money total = 10;
  uint64 big = 11;
  repeated Line lines = 12;
  sint32 delta = 13;
  oneof method { string card = 14; string iban = 15; }
}
message Refund { int64 payment_id = 1; string reason = 2; }
"""
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def compile_classes() -> dict:
    return message_classes({"acme/money.proto": MONEY, "acme/payment.proto": PAYMENT}, ("acme.Payment", "acme.Refund"))


@pytest.fixture(scope="module")
def classes():
    return compile_classes()


def payment(cls, i: int):
    msg = cls(id=i, customer=f"c-{i % 13}-é", amount=i * 0.25, paid=i % 2 == 0, status=i % 3,
              tags=[f"t{j}" for j in range(i % 3)], big=2**63 + i, delta=-i)
    if i % 4:
        msg.note = f"note {i}"
    msg.paid_at.FromDatetime(EPOCH + dt.timedelta(seconds=i))
    msg.attributes["a"] = i
    msg.total.currency = "EUR"
    msg.total.units = i * 100
    for j in range(i % 2 + 1):
        msg.lines.add(sku=f"sku{j}", qty=j + i)
    if i % 2:
        msg.card = f"card{i}"
    else:
        msg.iban = f"iban{i}"
    return msg


def serializer(producer: RecordProducer, cls):
    return producer.protobuf_serializer(cls)


def topic_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_protobuf_values_become_typed_columns_exactly_once(kafka, schema_registry, floe_bin, tmp_path, classes):
    topic = topic_name("pb-payments")
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    ser = serializer(producer, classes["acme.Payment"])
    n = 2000
    for i in range(n):
        producer.send_avro(topic, ser, payment(classes["acme.Payment"], i), partition=i % 2, sent=i)
    sent = producer.flush()

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.pb_payments", "value": "protobuf",
                     "formats": ["iceberg", "delta"]}], registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    table = floe.table("kafka.pb_payments")
    types = {f.name: str(f.field_type) for f in table.schema().fields}
    assert types["id"] == "long" and types["delta"] == "int" and types["paid_at"] == "timestamptz"
    assert types["big"] == "decimal(20, 0)" and types["status"] == "string"
    rows = {}
    for row in table.scan().to_arrow().to_pylist():
        key = (row["_kafka"]["partition"], row["_kafka"]["offset"])
        assert key not in rows
        rows[key] = row
    assert set(rows) == set(sent)
    for key, i in sent.items():
        row = rows[key]
        assert (row["id"], row["customer"], row["amount"], row["paid"]) == (i, f"c-{i % 13}-é", i * 0.25, i % 2 == 0)
        assert row["note"] == (f"note {i}" if i % 4 else None)
        assert row["paid_at"] == EPOCH + dt.timedelta(seconds=i)
        assert row["status"] == ["UNKNOWN", "PAID", "REFUNDED"][i % 3]
        assert row["tags"] == [f"t{j}" for j in range(i % 3)]
        assert dict(row["attributes"]) == {"a": i}
        assert row["total"] == {"currency": "EUR", "units": i * 100}
        assert row["big"] == decimal.Decimal(2**63 + i)
        assert row["lines"] == [{"sku": f"sku{j}", "qty": j + i} for j in range(i % 2 + 1)]
        assert row["delta"] == -i
        assert (row["card"], row["iban"]) == ((f"card{i}", None) if i % 2 else (None, f"iban{i}"))

    got = connect().execute(
        f"SELECT count(*), sum(id), count(note) FROM iceberg_scan('{table.metadata_location}')").fetchone()
    assert got == (n, sum(range(n)), sum(1 for i in range(n) if i % 4))
    from deltalake import DeltaTable
    delta = DeltaTable(table.location()).to_pyarrow_table(columns=["id"])
    assert sorted(delta.column("id").to_pylist()) == list(range(n))


def test_second_message_of_a_file_and_bad_records(kafka, schema_registry, floe_bin, tmp_path, classes):
    topic = topic_name("pb-refunds")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    ser = serializer(producer, classes["acme.Refund"])  # message index [1]
    for i in range(5):
        producer.send_avro(topic, ser, classes["acme.Refund"](payment_id=i, reason=f"r{i}"))
    producer.flush()
    good = ser(classes["acme.Refund"](payment_id=99, reason="x"), _ctx(topic))
    schema_id = struct.unpack(">I", good[1:5])[0]
    header = b"\x00" + struct.pack(">I", schema_id)
    producer.send_raw(topic, header + b"\x02\x02" + b"\x08\x01")   # message index [1] ok ... then truncated below
    producer.send_raw(topic, header + b"\x02\x0a" + b"\x08\x01")   # message index [5]: no such message
    producer.send_raw(topic, header + b"\x02\x02" + b"\x08\xff")   # truncated varint
    producer.send_raw(topic, header + b"\x02\x02" + b"\x12\x05ab")  # string length past the end
    for i in range(5, 10):
        producer.send_avro(topic, ser, classes["acme.Refund"](payment_id=i, reason=f"r{i}"))
    producer.flush()

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.pb_refunds", "error_mode": "skip"}],  # value: auto
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    for offset in (6, 7, 8):
        assert f"skipped {topic}/0@{offset}" in result.stderr, result.stderr[-3000:]
    rows = sorted(floe.table("kafka.pb_refunds").scan().to_arrow().to_pylist(), key=lambda r: r["_kafka"]["offset"])
    assert [(r["payment_id"], r["reason"]) for r in rows] == (
        [(i, f"r{i}") for i in range(5)] + [(1, "")] + [(i, f"r{i}") for i in range(5, 10)])
    assert floe.committed_offsets("kafka.pb_refunds") == {topic: {0: 14}}


def _ctx(topic):
    from confluent_kafka.serialization import MessageField, SerializationContext
    return SerializationContext(topic, MessageField.VALUE)
