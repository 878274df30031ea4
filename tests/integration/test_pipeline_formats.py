"""Schemaless values and the Tableflow column layout (issue #4): `value: string` / `bytes`
topics become a `value` column, `system_columns: tableflow` writes Confluent Tableflow's flat
`$$…` columns plus `key`, and headers survive byte for byte."""
import uuid

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer


def test_string_values_with_tableflow_columns(kafka, floe_bin, tmp_path):
    topic = f"logs-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap)
    for i in range(50):
        producer.send_raw(topic, f"line {i} é".encode(), partition=i % 2, key=f"host{i % 3}".encode(),
                          headers=[("h", bytes([i])), ("nothing", None)])
    producer.send_raw(topic, b"\xff\xfe not utf-8", partition=0)  # bad for value: string
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "raw.logs", "value": "string", "system_columns": "tableflow",
                     "error_mode": "skip"}])
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "not valid UTF-8" in result.stderr
    rows = floe.table("raw.logs").scan().to_arrow().to_pylist()
    assert len(rows) == 50
    names = set(rows[0])
    assert {"value", "key", "$$topic", "$$partition", "$$offset", "$$timestamp", "$$headers", "$$leader-epoch"} == names
    by_value = {r["value"]: r for r in rows}
    r7 = by_value["line 7 é"]
    assert r7["key"] == b"host1" and r7["$$topic"] == topic and r7["$$partition"] == 1
    assert r7["$$headers"] == [{"key": "h", "value": bytes([7])}, {"key": "nothing", "value": None}]
    assert len({(r["$$partition"], r["$$offset"]) for r in rows}) == 50


def test_bytes_values_keep_every_byte(kafka, floe_bin, tmp_path):
    topic = f"blobs-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap)
    blobs = [bytes(range(i, i + 20)) for i in range(30)] + [b""]
    for b in blobs:
        producer.send_raw(topic, b)
    producer.send_raw(topic, None, key=b"deleted")  # tombstone
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "raw.blobs", "value": "bytes"}])
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    rows = sorted(floe.table("raw.blobs").scan().to_arrow().to_pylist(), key=lambda r: r["_kafka"]["offset"])
    assert [r["value"] for r in rows] == blobs + [None]
    assert rows[-1]["_kafka"]["key"] == b"deleted"
