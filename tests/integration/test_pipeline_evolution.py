"""Schema evolution mid-stream (issue #4, docs/architecture.md "Schema evolution"): a producer adds a
field with a default and widens int to long; the table evolves, readers see the new column
and type, records of the old schema still arriving keep working; an incompatible change
suspends the topic at the record that brought it."""
import uuid

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_pipeline_avro import read_rows

V1 = {"type": "record", "name": "Item", "namespace": "floe.evo", "fields": [
    {"name": "id", "type": "long"},
    {"name": "qty", "type": "int"},
    {"name": "name", "type": "string"},
]}
V2 = {"type": "record", "name": "Item", "namespace": "floe.evo", "fields": [
    {"name": "id", "type": "long"},
    {"name": "qty", "type": "long"},
    {"name": "name", "type": "string"},
    {"name": "region", "type": "string", "default": "eu"},
]}
V3_BAD = {"type": "record", "name": "Item", "namespace": "floe.evo", "fields": [
    {"name": "id", "type": "long"},
    {"name": "qty", "type": "long"},
    {"name": "name", "type": "int"},
]}


def test_add_field_and_widen_int_mid_stream(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"evo-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = producer.serializer(V1)
    for i in range(100):
        producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"}, partition=i % 2)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.items"}],
                   registry_url=schema_registry.url)
    assert floe.run_batch().returncode == 0
    assert str(floe.table("kafka.items").schema().find_field("qty").field_type) == "int"

    v2 = producer.serializer(V2)
    big = 1 << 40
    for i in range(100, 200):
        producer.send_avro(topic, v2, {"id": i, "qty": big + i, "name": f"n{i}", "region": "us"}, partition=i % 2)
    for i in range(200, 220):  # an old producer is still around
        producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"}, partition=i % 2)
    producer.flush()
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "evolved table kafka.items" in result.stderr

    table = floe.table("kafka.items")
    schema = table.schema()
    assert str(schema.find_field("qty").field_type) == "long"
    assert str(schema.find_field("region").field_type) == "string"
    assert not schema.find_field("region").required
    rows = {r["id"]: r for r in read_rows(floe, "kafka.items").values()}
    assert sorted(rows) == list(range(220))
    assert rows[5]["qty"] == 5 and rows[5]["region"] is None
    assert rows[150]["qty"] == big + 150 and rows[150]["region"] == "us"
    assert rows[210]["qty"] == 210 and rows[210]["region"] is None

    con = connect()
    got = con.execute(f"SELECT count(*), count(region), max(qty) FROM iceberg_scan('{table.metadata_location}')").fetchone()
    assert got == (220, 100, big + 199)


def test_incompatible_schema_suspends_at_the_record(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"evobad-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = producer.serializer(V1)
    for i in range(10):
        producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"})
    producer.flush()
    bad = producer.serializer(V3_BAD)
    producer.send_avro(topic, bad, {"id": 10, "qty": 10, "name": 7})
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.evobad"}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    assert f"{topic}/0@10" in result.stderr and "field 'name'" in result.stderr
    assert len(read_rows(floe, "kafka.evobad")) == 10
    assert floe.committed_offsets("kafka.evobad") == {topic: {0: 10}}
