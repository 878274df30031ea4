"""`floe run` end to end (issue #4): Avro records produced by the Confluent serializer to a
real broker become one Iceberg table that pyiceberg and DuckDB read back exactly once, with
the values that were produced, the system columns, and the offsets in the snapshot summary."""
import datetime as dt
import decimal
import uuid

import pyarrow.compute as pc
import pytest

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.exactly_once import read_rows  # noqa: F401 (other modules import it from here)
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer

ORDER = {
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
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def order(i: int) -> dict:
    return {"id": i, "customer": f"customer-{i % 97}-é", "amount": i * 0.25, "quantity": i % 1000 - 500,
            "paid": i % 2 == 0, "note": None if i % 5 == 0 else f"note {i}",
            "created_at": EPOCH + dt.timedelta(milliseconds=i * 1001)}


def topic_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_100k_avro_records_over_4_partitions_exactly_once(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("orders")
    kafka.create_topic(topic, partitions=4)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    n = 100_000
    for i in range(n):
        producer.send_avro(topic, serializer, order(i), partition=i % 4, key=f"k{i}".encode())
    sent = producer.flush()
    assert len(sent) == n

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.orders"}],
                   registry_url=schema_registry.url, defaults={"target_file_size": "8MiB"})
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]

    rows = read_rows(floe, "kafka.orders")
    assert len(rows) == n
    assert set(rows) == set(sent)
    for key, want in sent.items():
        got = rows[key]
        for field in ("id", "customer", "amount", "quantity", "paid", "note", "created_at"):
            assert got[field] == want[field], (key, field)
        assert got["_kafka"]["topic"] == topic
        assert got["_kafka"]["key"] == f"k{want['id']}".encode()
        assert got["_kafka"]["timestamp_type"] == "CreateTime"

    assert floe.committed_offsets("kafka.orders") == {topic: {p: n // 4 for p in range(4)}}

    con = connect()
    location = floe.table("kafka.orders").metadata_location
    count, distinct, total = con.execute(
        f"SELECT count(*), count(DISTINCT (_kafka.partition, _kafka.\"offset\")), sum(id) "
        f"FROM iceberg_scan('{location}')").fetchone()
    assert (count, distinct, total) == (n, n, sum(range(n)))


def test_rerun_and_new_records_continue_exactly_once(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("again")
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(300):
        producer.send_avro(topic, serializer, order(i), partition=i % 2)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url)
    assert floe.run_batch().returncode == 0
    table = f"kafka.{topic.replace('-', '_')}"
    assert len(read_rows(floe, table)) == 300
    # Nothing new: a second run commits nothing and duplicates nothing.
    snapshots = len(floe.table(table).metadata.snapshots)
    assert floe.run_batch().returncode == 0
    assert len(floe.table(table).metadata.snapshots) == snapshots
    for i in range(300, 500):
        producer.send_avro(topic, serializer, order(i), partition=i % 2)
    producer.flush()
    assert floe.run_batch().returncode == 0
    rows = read_rows(floe, table)
    assert sorted(r["id"] for r in rows.values()) == list(range(500))


ALL_TYPES = {
    "type": "record", "name": "AllTypes", "namespace": "floe.test",
    "fields": [
        {"name": "b", "type": "boolean"},
        {"name": "i", "type": "int"},
        {"name": "l", "type": "long"},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "s", "type": "string"},
        {"name": "raw", "type": "bytes"},
        {"name": "dec_bytes", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
        {"name": "dec_fixed", "type": {"type": "fixed", "name": "D16", "size": 8, "logicalType": "decimal",
                                       "precision": 18, "scale": 4}},
        {"name": "u", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "t_ms", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "t_us", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "ts_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "ts_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "lts_ms", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
        {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
        {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
        {"name": "opt", "type": ["null", "long"], "default": None},
        {"name": "either", "type": ["null", "int", "string"], "default": None},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "long"}},
        {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
            {"name": "city", "type": "string"}, {"name": "zip", "type": ["null", "string"], "default": None}]}},
    ],
}


def test_all_avro_types_decode_into_table_columns(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("types")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ALL_TYPES)
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    record = {
        "b": True, "i": -7, "l": 1 << 40, "f": 1.5, "d": -2.25, "s": "héllo", "raw": b"\x00\xff",
        "dec_bytes": decimal.Decimal("12345678.91"), "dec_fixed": decimal.Decimal("-1.2345"),
        "u": str(u), "day": dt.date(2026, 3, 2), "t_ms": dt.time(1, 2, 3, 4000), "t_us": dt.time(1, 2, 3, 4005),
        "ts_ms": dt.datetime(2026, 3, 2, 1, 2, 3, 4000, tzinfo=dt.timezone.utc),
        "ts_us": dt.datetime(2026, 3, 2, 1, 2, 3, 4005, tzinfo=dt.timezone.utc),
        "lts_ms": dt.datetime(2026, 3, 2, 1, 2, 3, 4000),
        "color": "GREEN", "fx": b"abcd", "opt": 5, "either": "x", "tags": ["a", "b"], "attrs": {"k": 1},
        "address": {"city": "Lyon", "zip": None},
    }
    producer.send_avro(topic, serializer, record, key=b"k")
    producer.send_avro(topic, serializer, None, key=b"gone")  # a tombstone: a row with null values
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.types", "key": "string"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    arrow = floe.table("kafka.types").scan().to_arrow().sort_by([("_kafka", "ascending")]) \
        if False else floe.table("kafka.types").scan().to_arrow()
    rows = sorted(arrow.to_pylist(), key=lambda r: r["_kafka"]["offset"])
    got, tomb = rows
    assert got["b"] is True and got["i"] == -7 and got["l"] == 1 << 40 and got["f"] == 1.5 and got["d"] == -2.25
    assert got["s"] == "héllo" and got["raw"] == b"\x00\xff"
    assert got["dec_bytes"] == decimal.Decimal("12345678.91") and got["dec_fixed"] == decimal.Decimal("-1.2345")
    assert got["day"] == dt.date(2026, 3, 2)
    assert got["t_ms"] == dt.time(1, 2, 3, 4000) and got["t_us"] == dt.time(1, 2, 3, 4005)
    assert got["ts_ms"] == record["ts_ms"] and got["ts_us"] == record["ts_us"]
    assert got["lts_ms"] == record["lts_ms"]
    assert got["color"] == "GREEN" and got["fx"] == b"abcd" and got["opt"] == 5
    assert got["either"] == {"member0": None, "member1": "x"}
    assert got["tags"] == ["a", "b"] and dict(got["attrs"]) == {"k": 1}
    assert got["address"] == {"city": "Lyon", "zip": None}
    assert got["key"] == "k" and got["_kafka"]["key"] == b"k"
    assert tomb["key"] == "gone" and tomb["s"] is None and tomb["address"] is None
    schema = floe.table("kafka.types").schema()
    assert str(schema.find_field("l").field_type) == "long"
    assert str(schema.find_field("ts_ms").field_type) == "timestamptz"
    assert str(schema.find_field("lts_ms").field_type) == "timestamp"
    assert str(schema.find_field("dec_fixed").field_type) == "decimal(18, 4)"


def test_partition_by_day_of_kafka_timestamp(kafka, schema_registry, floe_bin, tmp_path):
    topic = topic_name("daily")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    base = int(dt.datetime(2026, 5, 1, tzinfo=dt.timezone.utc).timestamp() * 1000)
    for i in range(30):
        producer.producer.produce(topic, serializer(order(i), SerializationContextFor(topic)),
                                  timestamp=base + (i % 3) * 86_400_000)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.daily", "partition_by": ["day(_kafka.timestamp)"]}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    table = floe.table("kafka.daily")
    files = list(table.scan().plan_files())
    assert len(files) == 3
    from pyiceberg.expressions import EqualTo
    day2 = table.scan(row_filter=EqualTo("_kafka.timestamp", (base + 86_400_000) * 1000)).to_arrow()
    assert day2.num_rows == 10


def SerializationContextFor(topic):
    from confluent_kafka.serialization import MessageField, SerializationContext
    return SerializationContext(topic, MessageField.VALUE)


KEY_RECORD = {"type": "record", "name": "OrderKey", "namespace": "floe.test",
              "fields": [{"name": "region", "type": "string"}, {"name": "n", "type": "int"}]}


def test_avro_keys_record_and_primitive(kafka, schema_registry, floe_bin, tmp_path):
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    import json as _json
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    value = producer.serializer(ORDER)
    topics = {}
    for kind, key_schema in (("rec", KEY_RECORD), ("prim", "long")):
        topic = topic_name(f"keys-{kind}")
        kafka.create_topic(topic, partitions=1)
        key_ser = AvroSerializer(producer.registry, _json.dumps(key_schema))
        for i in range(20):
            k = {"region": f"r{i % 3}", "n": i} if kind == "rec" else i * 1000
            producer.send_avro(topic, value, order(i), key=key_ser(k, SerializationContext(topic, MessageField.KEY)))
        producer.send_avro(topic, value, order(20), key=None)  # a null key: a null key column
        producer.send_avro(topic, value, order(21), key=b"\x07junk")  # a bad key: the error mode decides
        topics[kind] = topic
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": t, "table": f"kafka.keys_{k}", "key": "avro", "error_mode": "skip"}
                    for k, t in topics.items()],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    skipped = [l for l in result.stderr.splitlines() if "skipped" in l]
    assert len(skipped) == 2 and all("@21: " in l and "key" in l.split("@21: ")[1] for l in skipped), skipped
    rec = {r["id"]: r for r in floe.table("kafka.keys_rec").scan().to_arrow().to_pylist()}
    assert len(rec) == 21
    assert rec[4]["key"] == {"region": "r1", "n": 4} and rec[20]["key"] is None
    assert rec[4]["_kafka"]["key"][:1] == b"\x00"  # the raw, framed key is kept too
    prim = {r["id"]: r for r in floe.table("kafka.keys_prim").scan().to_arrow().to_pylist()}
    assert prim[7]["key"] == 7000 and prim[20]["key"] is None
    assert str(floe.table("kafka.keys_prim").schema().find_field("key").field_type) == "long"
