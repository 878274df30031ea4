"""`formats: [delta]` (issue #5): the pipeline writes a Delta Lake table — JSON log commits
with one txn action per Kafka partition — that delta-rs and DuckDB's delta extension read
exactly once, across schema evolution, checkpoints and kill -9 restarts."""
import uuid

from deltalake import DeltaTable

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.exactly_once import crash_while_producing, end_offsets
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_pipeline_avro import ORDER, order
from tests.integration.test_pipeline_crash import avro_orders
from tests.integration.test_pipeline_evolution import V1, V2


def delta_rows(path) -> dict:
    rows = {}
    for row in DeltaTable(str(path)).to_pyarrow_table().to_pylist():
        key = (row["_kafka"]["partition"], row["_kafka"]["offset"])
        assert key not in rows, f"duplicate {key}"
        rows[key] = row
    return rows


def txn_offsets(path) -> dict:
    import json
    offsets = {}
    for f in sorted((path / "_delta_log").glob("*.json")):
        for line in f.read_text().splitlines():
            action = json.loads(line)
            if "txn" in action:
                offsets[action["txn"]["appId"]] = action["txn"]["version"]
    return offsets


def test_delta_table_read_by_delta_rs_and_duckdb(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"dorders-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=3)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(3000):
        producer.send_avro(topic, serializer, order(i), partition=i % 3, key=f"k{i}")
    sent = producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "lake.orders", "formats": ["delta"], "key": "string",
                     "partition_by": ["paid"]}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    path = floe.warehouse_dir / "lake" / "orders"
    rows = delta_rows(path)
    assert set(rows) == set(sent)
    for key, want in sent.items():
        got = rows[key]
        assert (got["id"], got["customer"], got["amount"], got["note"], got["paid"]) == \
            (want["id"], want["customer"], want["amount"], want["note"], want["paid"])
        assert got["created_at"] == want["created_at"] and got["key"] == f"k{want['id']}"
    assert txn_offsets(path) == {f"floe:{topic}:{p}": 1000 for p in range(3)}
    # A second run with nothing new writes nothing; new records continue exactly once.
    versions = DeltaTable(str(path)).version()
    assert floe.run_batch().returncode == 0
    assert DeltaTable(str(path)).version() == versions
    for i in range(3000, 3300):
        producer.send_avro(topic, serializer, order(i), partition=i % 3)
    producer.flush()
    assert floe.run_batch().returncode == 0
    assert len(delta_rows(path)) == 3300
    con = connect()
    count, distinct, ids = con.execute(
        f"SELECT count(*), count(DISTINCT (_kafka.partition, _kafka.\"offset\")), sum(id) FROM delta_scan('{path}')"
    ).fetchone()
    assert (count, distinct, ids) == (3300, 3300, sum(range(3300)))


def test_delta_schema_evolution_and_checkpoints(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"devo-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1, v2 = producer.serializer(V1), producer.serializer(V2)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "lake.items", "formats": ["delta"]}],
                   registry_url=schema_registry.url)
    # 12 runs of a few records each: more than 10 log versions, so a checkpoint exists.
    for run in range(12):
        for i in range(run * 10, run * 10 + 10):
            if run < 6:
                producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"})
            else:
                producer.send_avro(topic, v2, {"id": i, "qty": (1 << 40) + i, "name": f"n{i}", "region": "us"})
        producer.flush()
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
    path = floe.warehouse_dir / "lake" / "items"
    assert list((path / "_delta_log").glob("*.checkpoint.parquet"))
    table = DeltaTable(str(path))
    fields = {f.name: f for f in table.schema().fields}
    assert fields["qty"].type.type == "long" and fields["region"].nullable
    assert "region" in fields
    rows = {r["id"]: r for r in delta_rows(path).values()}
    assert sorted(rows) == list(range(120))
    assert rows[5]["qty"] == 5 and rows[5]["region"] is None
    assert rows[70]["qty"] == (1 << 40) + 70 and rows[70]["region"] == "us"
    con = connect()
    assert con.execute(f"SELECT count(*), count(region) FROM delta_scan('{path}')").fetchone() == (120, 60)


def test_delta_exactly_once_across_kill_9(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"dcrash-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producing = avro_orders(kafka, schema_registry.url, topic, 2, 10_000, 12)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "lake.crash", "formats": ["delta"]}],
                   registry_url=schema_registry.url, group_id=f"g-{topic}", defaults={"commit_interval": "300ms"},
                   kafka_properties={"group.instance.id": "dcrash-1"})
    crash_while_producing(floe, producing, 5, 0.5, 3.0)
    path = floe.warehouse_dir / "lake" / "crash"
    rows = delta_rows(path)
    assert set(rows) == set(producing.sent)
    assert txn_offsets(path) == {f"floe:{topic}:{p}": o for p, o in end_offsets(producing.sent).items()}


def test_delta_all_avro_types_and_time_is_refused_clearly(kafka, schema_registry, floe_bin, tmp_path):
    import datetime as dt
    import decimal
    from tests.integration.test_pipeline_avro import ALL_TYPES
    no_time = dict(ALL_TYPES, fields=[f for f in ALL_TYPES["fields"] if not f["name"].startswith("t_")])
    topic = f"dtypes-{uuid.uuid4().hex[:8]}"
    timed = f"dtime-{uuid.uuid4().hex[:8]}"
    for t in (topic, timed):
        kafka.create_topic(t, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    record = {
        "b": True, "i": -7, "l": 1 << 40, "f": 1.5, "d": -2.25, "s": "héllo", "raw": b"\x00\xff",
        "dec_bytes": decimal.Decimal("12345678.91"), "dec_fixed": decimal.Decimal("-1.2345"),
        "u": str(uuid.UUID(int=5)), "day": dt.date(2026, 3, 2),
        "ts_ms": dt.datetime(2026, 3, 2, 1, 2, 3, 4000, tzinfo=dt.timezone.utc),
        "ts_us": dt.datetime(2026, 3, 2, 1, 2, 3, 4005, tzinfo=dt.timezone.utc),
        "lts_ms": dt.datetime(2026, 3, 2, 1, 2, 3, 4000),
        "color": "GREEN", "fx": b"abcd", "opt": None, "either": 3, "tags": ["a"], "attrs": {"k": 1},
        "address": {"city": "Lyon", "zip": "69001"},
    }
    producer.send_avro(topic, producer.serializer(no_time), record)
    producer.send_avro(timed, producer.serializer(ALL_TYPES),
                       dict(record, t_ms=dt.time(1, 2, 3), t_us=dt.time(1, 2, 3)))
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "lake.types", "formats": ["delta"]},
                    {"name": timed, "table": "lake.timed", "formats": ["delta"]}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    # Delta has no time type: that topic is suspended with the column named, the other goes on.
    assert result.returncode == 3, result.stderr[-3000:]
    line = next(l for l in result.stderr.splitlines() if f"suspended topic {timed}" in l)
    assert "t_ms" in line, line
    path = floe.warehouse_dir / "lake" / "types"
    # local-timestamp-* makes it a timestamp_ntz table (reader 3 / writer 7 with table features),
    # which delta-rs reads through DataFusion (its pyarrow path refuses the columnMapping feature).
    import pyarrow as pa
    from deltalake import QueryBuilder
    got = pa.table(QueryBuilder().register("t", DeltaTable(str(path))).execute("select * from t").read_all()).to_pylist()[0]
    for k in ("b", "i", "l", "f", "d", "s", "raw", "dec_bytes", "dec_fixed", "u", "day", "ts_ms", "ts_us", "color",
              "fx", "opt", "tags", "address"):
        assert got[k] == record[k], k
    assert got["lts_ms"] == record["lts_ms"]
    assert got["either"] == {"member0": 3, "member1": None} and dict(got["attrs"]) == {"k": 1}
    con = connect()
    assert con.execute(f"SELECT s, address.city, dec_fixed FROM delta_scan('{path}')").fetchone() == \
        ("héllo", "Lyon", decimal.Decimal("-1.2345"))
