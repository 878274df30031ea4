"""Schema evolution of Protobuf and JSON Schema topics (issue #13, keyed on field names as for
Avro, docs/schema-evolution.md): each new version is registered by the real serializer as the
subject's next version. Protobuf: an added field becomes a new optional column, a removed field
stays (null in new rows), int32 -> int64 and float -> double widen (top-level, inside a nested
message, as list elements and map values), and records of the old version still arriving keep
working, read back by pyiceberg, DuckDB and delta-rs; JSON Schema likewise (Connect int32 ->
integer, float32 -> number, a property removed, one added). An
incompatible change (string -> int64 of a field of the same name; for JSON Schema string ->
integer) suspends the topic at the record that brought it, naming topic/partition@offset and the
field, with the rows before it committed and the offsets stopped there."""
import shutil
import uuid

import pytest

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.exactly_once import read_rows
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.protobuf import message_classes

needs_protoc = pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed (make deps installs it)")

ITEM_V1 = """syntax = "proto3";
package floe.evo;
message Item {
  message Dims { int32 w = 1; }
  int64 id = 1;
  int32 qty = 2;
  float price = 3;
  string name = 4;
  string legacy = 5;
  Dims dims = 7;
  repeated int32 counts = 8;
  map<string, float> weights = 9;
}
"""
# qty and price widened, legacy removed (its number reserved), color added; inside the nested
# message, the list and the map: widened too, and a nested field added.
ITEM_V2 = """syntax = "proto3";
package floe.evo;
message Item {
  message Dims { int64 w = 1; int32 h = 2; }
  reserved 5;
  int64 id = 1;
  int64 qty = 2;
  double price = 3;
  string name = 4;
  optional string color = 6;
  Dims dims = 7;
  repeated int64 counts = 8;
  map<string, double> weights = 9;
}
"""
# name: string -> int64, same field name and number.
ITEM_BAD = """syntax = "proto3";
package floe.evo;
message Item {
  int64 id = 1;
  int64 qty = 2;
  double price = 3;
  int64 name = 4;
}
"""


def item_class(text: str):
    return message_classes({"floe/evo/item.proto": text}, ["floe.evo.Item"])["floe.evo.Item"]


def topic_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def subject_versions(producer: RecordProducer, subject: str) -> list:
    return producer.registry.get_versions(subject)


@needs_protoc
def test_protobuf_add_remove_and_widen_mid_stream(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("pb-evo")
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1_cls, v2_cls = item_class(ITEM_V1), item_class(ITEM_V2)
    v1, v2 = producer.protobuf_serializer(v1_cls), producer.protobuf_serializer(v2_cls)
    def old(i):
        return v1_cls(id=i, qty=i, price=i + 0.5, name=f"n{i}", legacy=f"old{i}", dims=v1_cls.Dims(w=i),
                      counts=[i, i + 1], weights={"a": i + 0.5})

    for i in range(100):
        producer.send_avro(topic, v1, old(i), partition=i % 2)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.pb_items", "value": "protobuf", "formats": ["iceberg", "delta"]}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    schema = floe.table("kafka.pb_items").schema()
    # Top-level value columns are optional (docs/types.md: tombstones, dropped fields).
    assert [(f.name, str(f.field_type), f.required) for f in schema.fields if f.name not in ("_kafka", "dims")] == [
        ("id", "long", False), ("qty", "int", False), ("price", "float", False), ("name", "string", False),
        ("legacy", "string", False), ("counts", "list<int>", False), ("weights", "map<string, float>", False)]
    assert [(f.name, str(f.field_type)) for f in schema.find_field("dims").field_type.fields] == [("w", "int")]

    big = 1 << 40
    for i in range(100, 200):
        producer.send_avro(topic, v2, v2_cls(id=i, qty=big + i, price=i + 0.1, name=f"n{i}", color=f"c{i % 3}",
                                             dims=v2_cls.Dims(w=big + i, h=i), counts=[big + i],
                                             weights={"a": i + 0.1}), partition=i % 2)
    for i in range(200, 220):  # an old producer is still around
        producer.send_avro(topic, v1, old(i), partition=i % 2)
    producer.flush()
    assert subject_versions(producer, f"{topic}-value") == [1, 2]
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "evolved table kafka.pb_items" in result.stderr, result.stderr[-3000:]

    table = floe.table("kafka.pb_items")
    schema = table.schema()
    assert [(f.name, str(f.field_type), f.required) for f in schema.fields if f.name not in ("_kafka", "dims")] == [
        ("id", "long", False), ("qty", "long", False), ("price", "double", False), ("name", "string", False),
        ("legacy", "string", False), ("counts", "list<long>", False), ("weights", "map<string, double>", False),
        ("color", "string", False)]
    assert [(f.name, str(f.field_type)) for f in schema.find_field("dims").field_type.fields] == [
        ("w", "long"), ("h", "int")]
    assert not schema.find_field("dims.h").required
    rows = {r["id"]: r for r in read_rows(floe, "kafka.pb_items").values()}
    assert sorted(rows) == list(range(220))
    for i, row in rows.items():
        if 100 <= i < 200:
            want = (big + i, i + 0.1, f"n{i}", None, f"c{i % 3}", {"w": big + i, "h": i}, [big + i], [("a", i + 0.1)])
        else:  # v1 rows: int and float values widened (i + 0.5 is exact in a float), no color, no dims.h
            want = (i, i + 0.5, f"n{i}", f"old{i}", None, {"w": i, "h": None}, [i, i + 1], [("a", i + 0.5)])
        got = (row["qty"], row["price"], row["name"], row["legacy"], row["color"], row["dims"], row["counts"],
               row["weights"])
        assert got == want, row

    got = connect().execute(f"SELECT count(*), count(legacy), count(color), max(qty) "
                            f"FROM iceberg_scan('{table.metadata_location}')").fetchone()
    assert got == (220, 120, 100, big + 199)
    from deltalake import DeltaTable
    delta = DeltaTable(table.location())
    fields = {f.name: f for f in delta.schema().fields}
    assert fields["qty"].type.type == "long" and fields["price"].type.type == "double"
    assert fields["legacy"].nullable and fields["color"].nullable
    columns = ["id", "qty", "price", "color", "legacy", "dims", "counts", "weights"]
    data = delta.to_pyarrow_table(columns=columns).to_pylist()
    assert sorted((tuple(r[c] for c in columns) for r in data), key=lambda t: t[0]) == [
        tuple(rows[i][c] for c in columns) for i in range(220)]


@needs_protoc
def test_protobuf_incompatible_change_suspends_at_the_record(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("pb-evobad")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v2_cls, bad_cls = item_class(ITEM_V2), item_class(ITEM_BAD)
    v2, bad = producer.protobuf_serializer(v2_cls), producer.protobuf_serializer(bad_cls)
    for i in range(10):
        producer.send_avro(topic, v2, v2_cls(id=i, qty=i, price=i, name=f"n{i}"))
    producer.send_avro(topic, bad, bad_cls(id=10, qty=10, price=10, name=7))
    for i in range(11, 15):
        producer.send_avro(topic, v2, v2_cls(id=i, qty=i, price=i, name=f"n{i}"))
    producer.flush()
    assert subject_versions(producer, f"{topic}-value") == [1, 2]
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.pb_evobad", "value": "protobuf", "error_mode": "suspend"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    line = next(l for l in result.stderr.splitlines() if "suspended topic" in l)
    assert f"{topic}/0@10" in line and "field 'name'" in line and "string" in line and "long" in line, line
    assert sorted(r["id"] for r in read_rows(floe, "kafka.pb_evobad").values()) == list(range(10))
    assert floe.committed_offsets("kafka.pb_evobad") == {topic: {0: 10}}
    assert str(floe.table("kafka.pb_evobad").schema().find_field("name").field_type) == "string"


def test_json_schema_incompatible_change_suspends_at_the_record(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("js-evobad")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = producer.json_serializer({"type": "object", "properties": {"id": {"type": "integer"},
                                                                    "name": {"type": "string"}},
                                   "required": ["id", "name"]})
    bad = producer.json_serializer({"type": "object", "properties": {"id": {"type": "integer"},
                                                                     "name": {"type": "integer"}},
                                    "required": ["id", "name"]})
    for i in range(10):
        producer.send_avro(topic, v1, {"id": i, "name": f"n{i}"})
    producer.send_avro(topic, bad, {"id": 10, "name": 7})
    for i in range(11, 15):
        producer.send_avro(topic, v1, {"id": i, "name": f"n{i}"})
    producer.flush()
    assert subject_versions(producer, f"{topic}-value") == [1, 2]
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.js_evobad", "value": "json_schema"}],  # error_mode: suspend
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    line = next(l for l in result.stderr.splitlines() if "suspended topic" in l)
    assert f"{topic}/0@10" in line and "field 'name'" in line and "string" in line and "long" in line, line
    assert sorted(r["id"] for r in read_rows(floe, "kafka.js_evobad").values()) == list(range(10))
    assert floe.committed_offsets("kafka.js_evobad") == {topic: {0: 10}}


def test_json_schema_remove_and_widen_mid_stream(kafka, schema_registry, floe_bin, tmp_path):
    """JSON Schema's twin of the Protobuf test: Connect's int32 -> integer and float32 -> number
    widen, a removed property stays (null), an added one becomes an optional column."""
    topic = topic_name("js-evo")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = producer.json_serializer({"type": "object", "properties": {
        "id": {"type": "integer"}, "qty": {"type": "integer", "connect.type": "int32"},
        "price": {"type": "number", "connect.type": "float32"}, "legacy": {"type": "string"}},
        "required": ["id", "qty", "price", "legacy"]})
    v2 = producer.json_serializer({"type": "object", "properties": {
        "id": {"type": "integer"}, "qty": {"type": "integer"}, "price": {"type": "number"},
        "color": {"type": "string"}}, "required": ["id", "qty", "price"]})
    big = 1 << 40
    for i in range(20):
        producer.send_avro(topic, v1, {"id": i, "qty": i, "price": i + 0.5, "legacy": f"old{i}"})
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.js_items", "value": "json_schema"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert [(f.name, str(f.field_type)) for f in floe.table("kafka.js_items").schema().fields][:4] == [
        ("id", "long"), ("qty", "int"), ("price", "float"), ("legacy", "string")]
    for i in range(20, 40):
        producer.send_avro(topic, v2, {"id": i, "qty": big + i, "price": i + 0.1, "color": f"c{i}"})
    for i in range(40, 45):  # an old producer is still around
        producer.send_avro(topic, v1, {"id": i, "qty": i, "price": i + 0.5, "legacy": f"old{i}"})
    producer.flush()
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    schema = floe.table("kafka.js_items").schema()
    assert [(f.name, str(f.field_type)) for f in schema.fields if f.name != "_kafka"] == [
        ("id", "long"), ("qty", "long"), ("price", "double"), ("legacy", "string"), ("color", "string")]
    rows = sorted(read_rows(floe, "kafka.js_items").values(), key=lambda r: r["id"])
    assert [(r["id"], r["qty"], r["price"], r["legacy"], r["color"]) for r in rows] == [
        (i, big + i, i + 0.1, None, f"c{i}") if 20 <= i < 40 else (i, i, i + 0.5, f"old{i}", None) for i in range(45)]
