"""Apache Spark reads the tables `floe run` materializes from Protobuf and JSON Schema topics
(issue #13): the records are produced by the real ProtobufSerializer / JSONSerializer, Floe
writes them into the catalog that `floe catalog serve` serves, and Spark (the Iceberg Java REST
client) sees the same column types and the same rows as pyiceberg, value by value: longs, ints,
floats, doubles, decimals, booleans, strings, bytes, dates, timestamps, lists, maps, structs,
optional columns with nulls. One Floe server and one Spark session serve the module
(tests/integration/slow/conftest.py)."""
import datetime as dt
import uuid

import pytest
from pyiceberg import types as it

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.protobuf import message_classes

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

UTC = dt.timezone.utc
EPOCH = dt.datetime(2026, 1, 1, tzinfo=UTC)
N = 300

PAYMENT_PROTO = """syntax = "proto3";
package acme.spark;
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
message Payment {
  enum Status { UNKNOWN = 0; PAID = 1; REFUNDED = 2; }
  message Line { string sku = 1; int32 qty = 2; }
  int64 id = 1;
  string customer = 2;
  double amount = 3;
  float rate = 4;
  bool paid = 5;
  optional string note = 6;
  google.protobuf.Timestamp paid_at = 7;
  Status status = 8;
  repeated string tags = 9;
  map<string, int32> attributes = 10;
  uint64 big = 11;
  repeated Line lines = 12;
  sint32 delta = 13;
  bytes blob = 14;
  google.protobuf.Int64Value maybe = 15;
}
"""
PAYMENT_JSON = {
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
        "tags": {"type": "array", "items": {"type": "string"}},
        "address": {"oneOf": [{"type": "null"}, {"$ref": "#/definitions/Address"}]},
        "attributes": {"type": "object", "additionalProperties": {"type": "integer"}},
        "quantity": {"type": "integer", "connect.type": "int32"},
        "price": {"type": "number", "title": "org.apache.kafka.connect.data.Decimal",
                  "connect.parameters": {"scale": "2", "connect.decimal.precision": "10"}},
    },
    "required": ["id", "customer", "amount", "paid"],
    "definitions": {
        "Address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": ["null", "string"]}},
                    "required": ["city"]},
    },
}


def spark_type(t) -> str:
    """The Spark SQL type an Iceberg type reads as (Spark's `simpleString`)."""
    simple = {it.BooleanType: "boolean", it.IntegerType: "int", it.LongType: "bigint", it.FloatType: "float",
              it.DoubleType: "double", it.StringType: "string", it.BinaryType: "binary", it.DateType: "date",
              it.TimestamptzType: "timestamp", it.TimestampType: "timestamp_ntz", it.UUIDType: "string"}
    if type(t) in simple:
        return simple[type(t)]
    if isinstance(t, it.DecimalType):
        return f"decimal({t.precision},{t.scale})"
    if isinstance(t, it.ListType):
        return f"array<{spark_type(t.element_type)}>"
    if isinstance(t, it.MapType):
        return f"map<{spark_type(t.key_type)},{spark_type(t.value_type)}>"
    if isinstance(t, it.StructType):
        return "struct<" + ",".join(f"{f.name}:{spark_type(f.field_type)}" for f in t.fields) + ">"
    raise AssertionError(f"no Spark type for {t}")


def normalized(value, t):
    """One value of Iceberg type `t` as plain Python, whichever reader returned it: pyiceberg's
    aware datetimes and Spark's unix_micros() both become micros, maps (pyarrow's list of pairs,
    Spark's dict) dicts, structs (dicts, Spark Rows) dicts."""
    if value is None:
        return None
    if isinstance(t, it.TimestamptzType):
        return value if isinstance(value, int) else (value - dt.datetime(1970, 1, 1, tzinfo=UTC)) // dt.timedelta(
            microseconds=1)
    if isinstance(t, it.MapType):
        pairs = value.items() if isinstance(value, dict) else value
        return {normalized(k, t.key_type): normalized(v, t.value_type) for k, v in pairs}
    if isinstance(t, it.ListType):
        return [normalized(v, t.element_type) for v in value]
    if isinstance(t, it.StructType):
        return {f.name: normalized(value[f.name], f.field_type) for f in t.fields}
    if isinstance(t, it.BinaryType):
        return bytes(value)
    return value


def assert_spark_reads_what_pyiceberg_reads(spark, catalog, table: str) -> int:
    iceberg = catalog.load_table(table)
    fields = [f for f in iceberg.schema().fields if f.name != "_kafka"]
    spark_schema = {f.name: f.dataType.simpleString() for f in spark.table(f"floe.{table}").schema.fields}
    assert {f.name: spark_schema[f.name] for f in fields} == {f.name: spark_type(f.field_type) for f in fields}
    assert set(spark_schema) == {f.name for f in fields} | {"_kafka"}

    from_pyiceberg = {}
    for row in iceberg.scan().to_arrow().to_pylist():
        k = (row["_kafka"]["partition"], row["_kafka"]["offset"])
        assert k not in from_pyiceberg
        from_pyiceberg[k] = {f.name: normalized(row[f.name], f.field_type) for f in fields}
    # Spark's collect() turns timestamps into naive local datetimes: read top-level ones as micros.
    columns = [f"unix_micros(`{f.name}`) AS `{f.name}`" if isinstance(f.field_type, it.TimestamptzType)
               else f"`{f.name}`" for f in fields]
    from_spark = {}
    for row in spark.sql(f"SELECT _kafka.partition AS p, _kafka.offset AS o, {', '.join(columns)} "
                         f"FROM floe.{table}").collect():
        k = (row["p"], row["o"])
        assert k not in from_spark
        from_spark[k] = {f.name: normalized(row[f.name], f.field_type) for f in fields}
    assert len(from_spark) == len(from_pyiceberg)
    for k, want in from_pyiceberg.items():
        assert from_spark[k] == want, k
    return len(from_spark)


def spark_types(spark, table: str, *columns: str) -> list:
    types = {f.name: f.dataType.simpleString() for f in spark.table(table).schema.fields}
    return [types[c] for c in columns]


def materialize(kafka, schema_registry, floe_bin, server, tmp_path, topic: str, table: str, value: str):
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": table, "value": value}],
                   registry_url=schema_registry.url)
    # Into the catalog and warehouse that the module's REST server (and so Spark) reads.
    floe.config["warehouse"] = server.warehouse
    floe.config["catalog"] = {"type": "builtin", "uri": server.catalog_uri}
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]


def test_spark_reads_a_protobuf_topic_like_pyiceberg(spark, catalog, server, kafka, schema_registry, floe_bin,
                                                     tmp_path):
    cls = message_classes({"acme/spark/payment.proto": PAYMENT_PROTO}, ["acme.spark.Payment"])["acme.spark.Payment"]
    topic = f"spark-pb-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    ser = producer.protobuf_serializer(cls)
    for i in range(N):
        msg = cls(id=i, customer=f"c-{i % 13}-é", amount=i * 0.25, rate=i / 8, paid=i % 2 == 0, status=i % 3,
                  tags=[f"t{j}" for j in range(i % 3)], big=2**63 + i, delta=-i, blob=bytes([i % 256, 0, 255]))
        if i % 4:
            msg.note = f"note {i}"
        if i % 5:
            msg.maybe.value = -i
        msg.paid_at.FromDatetime(EPOCH + dt.timedelta(seconds=i, microseconds=i))
        msg.attributes["a"] = i
        for j in range(i % 2 + 1):
            msg.lines.add(sku=f"sku{j}", qty=j + i)
        producer.send_avro(topic, ser, msg, partition=i % 2)
    producer.flush()
    ns = f"pb_{uuid.uuid4().hex[:8]}"
    materialize(kafka, schema_registry, floe_bin, server, tmp_path, topic, f"{ns}.payments", "protobuf")

    assert assert_spark_reads_what_pyiceberg_reads(spark, catalog, f"{ns}.payments") == N
    # And the types and values are the produced ones (docs/types.md), not merely the same wrong
    # ones in both readers.
    t = f"floe.{ns}.payments"
    assert spark_types(spark, t, "id", "rate", "paid_at", "status", "attributes", "big", "lines", "delta", "blob",
                       "maybe") == ["bigint", "float", "timestamp", "string", "map<string,int>", "decimal(20,0)",
                                    "array<struct<sku:string,qty:int>>", "int", "binary", "bigint"]
    got = spark.sql(f"SELECT count(*), sum(id), count(note), count(maybe), sum(maybe), min(big), max(delta), "
                    f"sum(size(lines)), count_if(status = 'REFUNDED') FROM {t}").first()
    assert tuple(got) == (N, sum(range(N)), sum(1 for i in range(N) if i % 4), sum(1 for i in range(N) if i % 5),
                          -sum(i for i in range(N) if i % 5), 2**63, 0, sum(i % 2 + 1 for i in range(N)),
                          sum(1 for i in range(N) if i % 3 == 2))
    row = spark.sql(f"SELECT customer, rate, unix_micros(paid_at) AS us, attributes['a'] AS a, lines[0].qty AS q, "
                    f"blob FROM {t} WHERE id = 7").first()
    assert (row.customer, row.rate, row.a, row.q, bytes(row.blob)) == ("c-7-é", 7 / 8, 7, 7, bytes([7, 0, 255]))
    assert row.us == (EPOCH + dt.timedelta(seconds=7, microseconds=7) - dt.datetime(1970, 1, 1, tzinfo=UTC)) // \
        dt.timedelta(microseconds=1)


def test_spark_reads_a_json_schema_topic_like_pyiceberg(spark, catalog, server, kafka, schema_registry, floe_bin,
                                                        tmp_path):
    topic = f"spark-js-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    ser = producer.json_serializer(PAYMENT_JSON)
    for i in range(N):
        producer.send_avro(topic, ser, {
            "id": i, "customer": f"c-{i % 17}-é", "amount": i * 0.5, "paid": i % 2 == 0,
            "note": None if i % 3 == 0 else f"note {i}",
            "paid_at": (EPOCH + dt.timedelta(seconds=i)).isoformat().replace("+00:00", "Z"),
            "day": (EPOCH.date() + dt.timedelta(days=i % 40)).isoformat(),
            "tags": [f"t{j}" for j in range(i % 3)],
            "address": {"city": f"city {i % 5}", "zip": None if i % 4 == 0 else f"{10000 + i}"} if i % 7 else None,
            "attributes": {"a": i, "b": -i}, "quantity": i % 1000 - 500, "price": round(i * 1.25, 2),
        }, partition=i % 2)
    producer.flush()
    ns = f"js_{uuid.uuid4().hex[:8]}"
    materialize(kafka, schema_registry, floe_bin, server, tmp_path, topic, f"{ns}.payments", "json_schema")

    assert assert_spark_reads_what_pyiceberg_reads(spark, catalog, f"{ns}.payments") == N
    t = f"floe.{ns}.payments"
    assert spark_types(spark, t, "id", "paid_at", "day", "address", "attributes", "quantity", "price") == [
        "bigint", "timestamp", "date", "struct<city:string,zip:string>", "map<string,bigint>", "int", "decimal(10,2)"]
    got = spark.sql(f"SELECT count(*), sum(id), sum(quantity), count(note), count(address), "
                    f"count(address.zip), max(day), sum(attributes['b']) FROM {t}").first()
    assert tuple(got) == (N, sum(range(N)), sum(i % 1000 - 500 for i in range(N)),
                          sum(1 for i in range(N) if i % 3), sum(1 for i in range(N) if i % 7),
                          sum(1 for i in range(N) if i % 7 and i % 4), EPOCH.date() + dt.timedelta(days=39),
                          -sum(range(N)))
    row = spark.sql(f"SELECT customer, CAST(price AS STRING) AS price, tags, unix_micros(paid_at) AS us "
                    f"FROM {t} WHERE id = 11").first()
    assert (row.customer, row.price, row.tags) == ("c-11-é", "13.75", ["t0", "t1"])
    assert row.us == (EPOCH + dt.timedelta(seconds=11) - dt.datetime(1970, 1, 1, tzinfo=UTC)) // \
        dt.timedelta(microseconds=1)
