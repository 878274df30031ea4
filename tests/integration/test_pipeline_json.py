"""Schemaless JSON topics (`value: json`, issue #13): columns inferred from the records
(docs/types.md, "Schemaless JSON") and read back by pyiceberg, DuckDB and delta-rs exactly once;
new properties, top-level and nested, widen the table; the inferred schema survives a restart
(it is the table's schema); conflicts and invalid JSON go to error_mode naming the record and
the JSON path, or become JSON text with `json_conflicts: as_text`; `key: json` keys become a
`key` column of JSON text."""
import json
import uuid

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer


def topic_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def click(i: int) -> dict:
    record = {"id": i, "user": f"u-{i % 13}-é", "score": i / 8 + 0.5, "ok": i % 2 == 0,
              "tags": [f"t{j}" for j in range(i % 3)], "device": {"os": "linux" if i % 2 else "ios", "ver": i % 5},
              "nothing": None, "empty": {}}
    if i % 4 == 0:
        del record["device"]  # a record may leave any property out
    return record


def send_json(producer: RecordProducer, topic: str, record, partition=None, key=None):
    text = record if isinstance(record, (bytes, str)) else json.dumps(record)
    payload = text.encode() if isinstance(text, str) else text
    producer.send_raw(topic, payload, partition=partition, key=key, sent=record)


def rows_by_position(floe: FloeRun, table: str) -> dict:
    rows = {}
    for row in floe.table(table).scan().to_arrow().to_pylist():
        key = (row["_kafka"]["partition"], row["_kafka"]["offset"])
        assert key not in rows, f"duplicate {key}"
        rows[key] = row
    return rows


def field_types(floe: FloeRun, table: str) -> dict:
    return {f.name: str(f.field_type) for f in floe.table(table).schema().fields}


def test_inferred_columns_widen_and_survive_a_restart(kafka, floe_bin, tmp_path):
    topic = topic_name("clicks")
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap)
    n = 2000
    for i in range(n):
        send_json(producer, topic, click(i), partition=i % 2, key=json.dumps({"session": i % 7}).encode())
    first = dict(producer.flush())

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.clicks", "value": "json", "key": "json",
                     "formats": ["iceberg", "delta"]}])
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    types = field_types(floe, "kafka.clicks")
    assert types["id"] == "long" and types["user"] == "string" and types["score"] == "double"
    assert types["ok"] == "boolean" and types["tags"] == "list<string>" and types["key"] == "string"
    assert types["device"].startswith("struct<") and "os" in types["device"] and "ver" in types["device"]
    assert "nothing" not in types and "empty" not in types  # no type known yet: no column

    # Second batch, after a restart: new top-level and nested properties, a property that was
    # only null now with a type, fields left out. Existing columns keep their types.
    for i in range(n, n + 500):
        record = {"id": i, "user": f"u-{i}", "device": {"os": "android", "ver": 7, "model": f"m{i % 3}"},
                  "nothing": f"now {i}", "region": "eu" if i % 2 else None}
        send_json(producer, topic, record, partition=i % 2, key=json.dumps(f"s{i}").encode())
    sent = producer.flush()
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    types = field_types(floe, "kafka.clicks")
    assert types["id"] == "long" and types["nothing"] == "string" and types["region"] == "string"
    assert "model" in types["device"]

    rows = rows_by_position(floe, "kafka.clicks")
    assert set(rows) == set(sent) and len(rows) == n + 500
    for position, want in sent.items():
        row = rows[position]
        assert row["id"] == want["id"] and row["user"] == want["user"]
        assert row["score"] == want.get("score") and row["ok"] == want.get("ok")
        if want["id"] == 0 and row["tags"] is None:
            # Record 0 (`tags: []`) may be decoded before any record gave `tags` an element type,
            # when no column exists yet: it then reads null (docs/types.md, "Schemaless JSON").
            # Which partition decodes first decides it; every later [] is kept.
            pass
        else:
            assert row["tags"] == want.get("tags")
        assert row["nothing"] == want.get("nothing") and row["region"] == want.get("region")
        device = want.get("device")
        if device is None:
            assert row["device"] is None
        else:
            assert {k: row["device"][k] for k in device} == device
            assert row["device"].get("model") == device.get("model")
        if position in first:
            assert json.loads(row["key"]) == {"session": want["id"] % 7}
        else:
            assert row["key"] == f"s{want['id']}"  # a JSON string key is stored as itself

    table = floe.table("kafka.clicks")
    got = connect().execute(
        f"SELECT count(*), sum(id), count(device), count(region) FROM iceberg_scan('{table.metadata_location}')").fetchone()
    assert got == (n + 500, sum(range(n + 500)), sum(1 for i in range(n) if i % 4) + 500, 250)
    from deltalake import DeltaTable
    delta = DeltaTable(table.location()).to_pyarrow_table()
    assert delta.num_rows == n + 500 and sorted(delta.column("id").to_pylist()) == list(range(n + 500))


BAD = [
    b'{"id": 3, "user": {"first": "x"}}',  # an object where the column is a string
    b'{"id": 4',                            # not JSON
    b'[1, 2, 3]',                           # not an object
    b'{"id": 5.5, "user": "u"}',            # a fraction in a long column: the table refuses double
    b'{"id": 6, "id": 7}',                  # a repeated property
    b'{"id": 8, "user": "\xff\xfe"}',       # invalid UTF-8
]


def test_bad_records_follow_error_mode(kafka, floe_bin, tmp_path):
    topic = topic_name("dirty")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap)
    for i in range(3):
        send_json(producer, topic, {"id": i, "user": f"u{i}"})
    for bad in BAD:
        send_json(producer, topic, bad)
    for i in range(10, 13):
        send_json(producer, topic, {"id": i, "user": f"u{i}", "extra": True})
    producer.flush()
    first_bad, after_bad = 3, 3 + len(BAD)

    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.dirty", "value": "json", "error_mode": "skip"}])
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    for offset in range(first_bad, after_bad):
        assert f"skipped {topic}/0@{offset}" in result.stderr, result.stderr[-3000:]
    assert "$.user: a value of type object where the column is string" in result.stderr
    rows = sorted(floe.table("kafka.dirty").scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [(r["id"], r["user"], r["extra"]) for r in rows] == \
        [(i, f"u{i}", None) for i in range(3)] + [(i, f"u{i}", True) for i in range(10, 13)]
    assert field_types(floe, "kafka.dirty")["id"] == "long"
    assert floe.committed_offsets("kafka.dirty") == {topic: {0: after_bad + 3}}

    # Under suspend (the default) the first bad record stops the topic; what came before it is committed.
    suspended = FloeRun(floe_bin, tmp_path / "suspend", kafka.bootstrap,
                        [{"name": topic, "table": "kafka.suspended", "value": "json"}], group_id="floe-suspend")
    result = suspended.run_batch()
    assert result.returncode == 3, result.stderr[-3000:]
    assert f"suspended topic {topic} at {topic}/0@{first_bad}" in result.stderr
    assert suspended.committed_offsets("kafka.suspended") == {topic: {0: first_bad}}


def test_conflicts_as_text_keep_values_as_json_text(kafka, floe_bin, tmp_path):
    topic = topic_name("loose")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap)
    values = [{"id": 0, "note": "plain"}, {"id": 1, "note": {"nested": [1, 2]}}, {"id": 2, "note": 42},
              {"id": 3, "note": None}, {"id": 4, "note": "again"}]
    for v in values:
        send_json(producer, topic, v)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.loose", "value": "json", "json_conflicts": "as_text"}])
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    rows = sorted(floe.table("kafka.loose").scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["note"] for r in rows] == ["plain", '{"nested":[1,2]}', "42", None, "again"]
    assert field_types(floe, "kafka.loose")["note"] == "string"


def test_json_conflicts_needs_value_json(floe_bin, tmp_path):
    import subprocess
    config = tmp_path / "floe.yaml"
    config.write_text("kafka: {bootstrap_servers: 'localhost:9092'}\nwarehouse: file:///tmp/w\n"
                      "topics:\n  - {name: t, value: string, json_conflicts: as_text}\n")
    result = subprocess.run([str(floe_bin), "validate", "--config", str(config)], capture_output=True, text=True)
    assert result.returncode == 1  # an invalid config (docs/running.md, exit codes)
    assert "json_conflicts" in result.stderr and "only for schemaless JSON values (value: json)" in result.stderr
