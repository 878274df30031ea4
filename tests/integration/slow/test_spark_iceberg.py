"""Apache Spark with the Iceberg Spark runtime — the Java reference implementation of an
Iceberg REST client — against Floe's REST catalog (`floe catalog serve`).

Spark reads tables that Floe writes (tests/tools/floe_iceberg_append: Floe's own writer
path), writes tables that pyiceberg then reads, evolves schemas, and sees Floe's later
appends. One Floe server and one local Spark session (local[2], 1 GiB driver) serve the whole
module. Nothing is downloaded at run time: pyspark and the runtime jar come from
scripts/spark/install.sh (see docs/testing-with-spark.md); run with `make test-slow`."""
import datetime as dt
import json
import pathlib
import subprocess
import time
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyiceberg.transforms import DayTransform
from pyiceberg.types import DoubleType, LongType, StringType, TimestamptzType

from tests.integration.fixtures.exactly_once import BackgroundProducer
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.test_maintenance import avro, maintain
from tests.integration.test_pipeline_avro import order

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)


def micros(ts: dt.datetime) -> int:
    return (ts - EPOCH) // dt.timedelta(microseconds=1)


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def floe_append(tool, server, table: str, data: pa.Table, path: pathlib.Path, *extra: str) -> dict:
    """Appends `data` to `table` through Floe's own writer (creating the table if needed)."""
    pq.write_table(data, path)
    out = subprocess.run([str(tool("floe_iceberg_append")), "--catalog-uri", server.catalog_uri,
                          "--warehouse", server.warehouse, "--table", table, "--input", str(path), *extra],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def scan_metrics(df) -> tuple[list, dict]:
    """Runs `df` and returns its rows and the Iceberg scan's Spark SQL metrics
    (resultDataFiles, skippedDataFiles, …) from the executed plan."""
    rows = df.collect()
    plan = df._jdf.queryExecution().executedPlan()
    if plan.getClass().getSimpleName() == "AdaptiveSparkPlanExec":
        plan = plan.executedPlan()
    leaves = plan.collectLeaves()
    for i in range(leaves.length()):
        leaf = leaves.apply(i)
        if leaf.getClass().getSimpleName() == "BatchScanExec":
            metrics = leaf.metrics()
            keys = metrics.keys().toList()
            names = [keys.apply(j) for j in range(keys.length())]
            return rows, {name: metrics.apply(name).value() for name in names}
    raise AssertionError(f"no BatchScanExec in\n{plan.toString()}")


def events(n: int, start: dt.datetime) -> pa.Table:
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "customer": pa.array([f"c{i % 13}" for i in range(n)]),
        "amount": pa.array([i / 4 for i in range(n)], pa.float64()),
        "ts": pa.array([start + dt.timedelta(hours=i) for i in range(n)], pa.timestamp("us", tz="UTC")),
    })


def test_spark_reads_a_floe_written_partitioned_table(spark, server, tool, tmp_path):
    ns = unique("floe")
    n = 24 * 40
    start = dt.datetime(2026, 3, 1, tzinfo=UTC)
    data = events(n, start)
    result = floe_append(tool, server, f"{ns}.events", data, tmp_path / "in.parquet",
                         "--partition-by", "day(ts)", "--rows-per-file", "500")
    t = f"floe.{ns}.events"

    assert [(r.col_name, r.data_type) for r in spark.sql(f"DESCRIBE TABLE {t}").collect()][:4] == [
        ("id", "bigint"), ("customer", "string"), ("amount", "double"), ("ts", "timestamp")]
    assert (ns,) in [tuple(r) for r in spark.sql("SHOW NAMESPACES IN floe").collect()]
    assert "events" in [r.tableName for r in spark.sql(f"SHOW TABLES IN floe.{ns}").collect()]

    count, id_sum, amount_sum, customers = spark.sql(
        f"SELECT count(*), sum(id), sum(amount), count(DISTINCT customer) FROM {t}").first()
    assert count == n and id_sum == n * (n - 1) // 2
    assert amount_sum == sum(i / 4 for i in range(n)) and customers == 13

    # Every value equal to the input (timestamps compared as UTC microseconds).
    rows = spark.sql(f"SELECT id, customer, amount, unix_micros(ts) AS us FROM {t} ORDER BY id").collect()
    assert [tuple(r) for r in rows] == [
        (i, f"c{i % 13}", i / 4, micros(start + dt.timedelta(hours=i))) for i in range(n)]

    # A filter on the day-partitioned column prunes to that day's files.
    day = spark.sql(f"SELECT id FROM {t} WHERE ts >= TIMESTAMP '2026-03-02 00:00:00' "
                    f"AND ts < TIMESTAMP '2026-03-03 00:00:00'")
    rows, metrics = scan_metrics(day)
    assert sorted(r.id for r in rows) == list(range(24, 48))
    assert 0 < metrics["resultDataFiles"] < result["files"], metrics
    assert metrics["skippedDataFiles"] == result["files"] - metrics["resultDataFiles"], metrics
    # A filter on another column still returns exactly the matching rows.
    assert spark.sql(f"SELECT count(*) FROM {t} WHERE customer = 'c3'").first()[0] == len(
        [i for i in range(n) if i % 13 == 3])


def test_spark_writes_tables_that_pyiceberg_reads(spark, catalog, server):
    ns = unique("spark")
    spark.sql(f"CREATE NAMESPACE floe.{ns} COMMENT 'made by spark'")
    t = f"floe.{ns}.orders"
    spark.sql(f"""CREATE TABLE {t} (id BIGINT NOT NULL, name STRING, amount DOUBLE, ts TIMESTAMP)
                  USING iceberg PARTITIONED BY (days(ts)) TBLPROPERTIES ('written-by' = 'spark')""")
    spark.sql(f"""INSERT INTO {t} VALUES
                  (1, 'a', 1.5, TIMESTAMP '2026-03-01 10:00:00'),
                  (2, NULL, 2.5, TIMESTAMP '2026-03-01 23:59:59.999999'),
                  (3, 'c', NULL, TIMESTAMP '2026-03-02 00:00:00')""")
    more = spark.createDataFrame(
        [(4, "d", 4.25, dt.datetime(2026, 3, 5, 12, tzinfo=UTC))], "id BIGINT, name STRING, amount DOUBLE, ts TIMESTAMP")
    more.writeTo(t).append()

    expected = [
        {"id": 1, "name": "a", "amount": 1.5, "ts": dt.datetime(2026, 3, 1, 10, tzinfo=UTC)},
        {"id": 2, "name": None, "amount": 2.5, "ts": dt.datetime(2026, 3, 1, 23, 59, 59, 999999, tzinfo=UTC)},
        {"id": 3, "name": "c", "amount": None, "ts": dt.datetime(2026, 3, 2, tzinfo=UTC)},
        {"id": 4, "name": "d", "amount": 4.25, "ts": dt.datetime(2026, 3, 5, 12, tzinfo=UTC)},
    ]
    assert (ns, "orders") in catalog.list_tables(ns)
    assert catalog.load_namespace_properties(ns).get("comment") == "made by spark"
    table = catalog.load_table(f"{ns}.orders")
    assert sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"]) == expected
    schema = table.schema()
    assert [(f.name, f.field_type, f.required) for f in schema.fields] == [
        ("id", LongType(), True), ("name", StringType(), False), ("amount", DoubleType(), False),
        ("ts", TimestamptzType(), False)]
    [field] = table.spec().fields
    assert isinstance(field.transform, DayTransform) and schema.find_field(field.source_id).name == "ts"
    assert table.properties.get("written-by") == "spark"
    assert len(table.history()) == 2 and table.current_snapshot().summary["total-records"] == "4"
    assert table.metadata_location.startswith(server.warehouse)
    # pyiceberg's own pruning works on Spark's partition values.
    assert table.scan(row_filter="ts >= '2026-03-02T00:00:00+00:00'").to_arrow().num_rows == 2

    # A row-level delete (copy-on-write: an overwrite snapshot that replaces a data file).
    spark.sql(f"DELETE FROM {t} WHERE id = 2")
    table = catalog.load_table(f"{ns}.orders")
    assert sorted(r["id"] for r in table.scan().to_arrow().to_pylist()) == [1, 3, 4]
    assert table.current_snapshot().summary.operation.value in ("overwrite", "delete")

    # CREATE TABLE AS SELECT goes through a staged create (stage-create, then one commit).
    spark.sql(f"CREATE TABLE floe.{ns}.copy USING iceberg AS SELECT id, name FROM {t} WHERE id > 1")
    copy = catalog.load_table(f"{ns}.copy")
    assert sorted(copy.scan().to_arrow().to_pylist(), key=lambda r: r["id"]) == [
        {"id": 3, "name": "c"}, {"id": 4, "name": "d"}]

    # Rename, then DROP … PURGE (purgeRequested=true: Floe deletes the table's files).
    spark.sql(f"ALTER TABLE floe.{ns}.copy RENAME TO {ns}.renamed")
    assert (ns, "renamed") in catalog.list_tables(ns) and (ns, "copy") not in catalog.list_tables(ns)
    copy_dir = pathlib.Path(copy.location().removeprefix("file://"))
    assert any(copy_dir.rglob("*.parquet"))
    spark.sql(f"DROP TABLE floe.{ns}.renamed PURGE")
    assert (ns, "renamed") not in catalog.list_tables(ns)
    assert not [f for f in copy_dir.rglob("*") if f.is_file()]


def test_spark_merge_on_read_deletes_are_read_by_pyiceberg(spark, catalog):
    """Spark's row-level DELETE/UPDATE in merge-on-read mode commit position-delete files;
    other readers of Floe's catalog apply them."""
    ns = unique("mor")
    spark.sql(f"CREATE NAMESPACE floe.{ns}")
    t = f"floe.{ns}.t"
    spark.sql(f"""CREATE TABLE {t} (id BIGINT, name STRING) USING iceberg
                  TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read')""")
    spark.sql(f"INSERT INTO {t} VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    spark.sql(f"DELETE FROM {t} WHERE id = 2")
    spark.sql(f"UPDATE {t} SET name = 'z' WHERE id = 3")
    assert [tuple(r) for r in spark.sql(f"SELECT * FROM {t} ORDER BY id").collect()] == [(1, "a"), (3, "z")]
    table = catalog.load_table(f"{ns}.t")
    assert int(table.current_snapshot().summary["total-position-deletes"]) >= 2
    assert sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"]) == [
        {"id": 1, "name": "a"}, {"id": 3, "name": "z"}]


def test_spark_schema_evolution_over_floe_files(spark, catalog, server, tool, tmp_path):
    """Floe writes int32 rows; Spark adds a column and widens int→bigint; the old files are
    read with the new schema (null / promoted) by Spark and pyiceberg, and Floe appends again."""
    ns = unique("evo")
    t = f"floe.{ns}.t"
    old = pa.table({"id": pa.array([1, 2], pa.int64()), "qty": pa.array([10, -20], pa.int32())})
    floe_append(tool, server, f"{ns}.t", old, tmp_path / "old.parquet")
    assert spark.table(t).schema.simpleString() == "struct<id:bigint,qty:int>"

    spark.sql(f"ALTER TABLE {t} ADD COLUMN note STRING")
    spark.sql(f"ALTER TABLE {t} ALTER COLUMN qty TYPE BIGINT")
    spark.sql(f"INSERT INTO {t} VALUES (3, {2 ** 40}, 'spark')")
    assert spark.table(t).schema.simpleString() == "struct<id:bigint,qty:bigint,note:string>"
    assert [tuple(r) for r in spark.sql(f"SELECT * FROM {t} ORDER BY id").collect()] == [
        (1, 10, None), (2, -20, None), (3, 2 ** 40, "spark")]

    table = catalog.load_table(f"{ns}.t")
    assert table.schema().find_field("qty").field_type == LongType()
    assert table.schema().find_field("note").field_type == StringType()
    assert len(table.schemas()) == 3  # Floe's, +note, qty widened: one schema per ALTER
    assert sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"]) == [
        {"id": 1, "qty": 10, "note": None}, {"id": 2, "qty": -20, "note": None},
        {"id": 3, "qty": 2 ** 40, "note": "spark"}]

    # Floe's writer appends under the schema Spark evolved.
    new = pa.table({"id": pa.array([4], pa.int64()), "qty": pa.array([-(2 ** 41)], pa.int64()),
                    "note": pa.array(["floe"])})
    floe_append(tool, server, f"{ns}.t", new, tmp_path / "new.parquet")
    spark.sql(f"REFRESH TABLE {t}")
    assert [tuple(r) for r in spark.sql(f"SELECT * FROM {t} ORDER BY id").collect()] == [
        (1, 10, None), (2, -20, None), (3, 2 ** 40, "spark"), (4, -(2 ** 41), "floe")]


def test_spark_sees_floe_appends_and_writes_on_top(spark, catalog, server, tool, tmp_path):
    ns = unique("live")
    t = f"floe.{ns}.events"
    start = dt.datetime(2026, 4, 1, tzinfo=UTC)
    floe_append(tool, server, f"{ns}.events", events(48, start), tmp_path / "a.parquet", "--partition-by", "day(ts)")
    assert spark.sql(f"SELECT count(*) FROM {t}").first()[0] == 48

    # Floe appends after Spark's first read; Spark's catalog caches the table, REFRESH reloads it.
    later = events(72, start).slice(48)
    floe_append(tool, server, f"{ns}.events", later, tmp_path / "b.parquet", "--partition-by", "day(ts)")
    spark.sql(f"REFRESH TABLE {t}")
    assert spark.sql(f"SELECT count(*), sum(id) FROM {t}").first() == (72, 72 * 71 // 2)

    # Floe appends again, and Spark writes without a REFRESH: its commit must land on top of
    # Floe's newest snapshot (assert-ref-snapshot-id), losing neither writer's rows.
    floe_append(tool, server, f"{ns}.events", events(73, start).slice(72), tmp_path / "c.parquet",
                "--partition-by", "day(ts)")
    spark.sql(f"INSERT INTO {t} VALUES (1000, 'spark', 0.5, TIMESTAMP '2026-04-10 00:00:00')")
    spark.sql(f"REFRESH TABLE {t}")
    ids = sorted(r.id for r in spark.sql(f"SELECT id FROM {t}").collect())
    assert ids == list(range(73)) + [1000]

    # And Floe appends on top of Spark's snapshot (reading its manifest list and manifests).
    floe_append(tool, server, f"{ns}.events", events(74, start).slice(73), tmp_path / "d.parquet",
                "--partition-by", "day(ts)")
    spark.sql(f"REFRESH TABLE {t}")
    assert spark.sql(f"SELECT count(*) FROM {t}").first()[0] == 75
    table = catalog.load_table(f"{ns}.events")
    assert len(table.history()) == 5
    assert all(s.summary.operation.value == "append" for s in table.snapshots())
    assert table.current_snapshot().summary["total-records"] == "75"
    assert table.scan().to_arrow().num_rows == 75


def test_spark_reads_metadata_tables_of_a_floe_table(spark, server, tool, tmp_path):
    ns = unique("meta")
    n = 24 * 5
    result = floe_append(tool, server, f"{ns}.events", events(n, dt.datetime(2026, 5, 1, tzinfo=UTC)),
                         tmp_path / "in.parquet", "--partition-by", "day(ts)", "--rows-per-file", "10")
    t = f"floe.{ns}.events"
    # Spark resolves `t.files` by first asking for table `files` in namespace `ns.events`;
    # Floe must answer that with NoSuchTableException for the Java client to fall back.
    files = spark.sql(f"SELECT count(*), sum(record_count) FROM {t}.files").first()
    assert tuple(files) == (result["files"], n)
    assert spark.sql(f"SELECT count(*) FROM {t}.partitions").first()[0] == 5
    [snap] = spark.sql(f"SELECT snapshot_id, operation FROM {t}.snapshots").collect()
    assert (snap.snapshot_id, snap.operation) == (result["snapshot_id"], "append")
    assert spark.sql(f"SELECT count(*) FROM {t}.history").first()[0] == 1


def test_spark_reads_a_table_floe_maintain_compacted_and_expired(spark, catalog, server, floe_bin, kafka,
                                                                 schema_registry, tmp_path):
    """Issue 18: `floe run` writes a table of Floe's catalog in three commits; `floe maintain`
    compacts it into one file and expires all but the two newest snapshots. Spark reads the same
    rows, time-travels to the retained parent (the last append), and refuses an expired
    snapshot with an error naming it."""
    ns = unique("maint")
    topic = f"spark-{ns}"
    kafka.create_topic(topic, partitions=2)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": f"{ns}.orders"}],
                   registry_url=schema_registry.url,
                   extra={"warehouse": server.warehouse, "catalog": {"type": "builtin", "uri": server.catalog_uri},
                          "maintenance": {"compaction": {"min_files": 2}, "snapshot_retention": "1s",
                                          "min_snapshots": 2}})
    sent = {}
    for _ in range(3):
        producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 200, 1, avro, order)
        producing.start()
        producing.join(60)
        sent.update(producing.sent)
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
    t = f"floe.{ns}.orders"
    query = f"SELECT _kafka.partition, _kafka.offset, id FROM {t}"
    expected = sorted((p, o, i) for (p, o), i in sent.items())
    assert sorted(tuple(r) for r in spark.sql(query).collect()) == expected
    history = [s.snapshot_id for s in catalog.load_table(f"{ns}.orders").metadata.snapshots]
    assert len(history) == 3

    time.sleep(1.2)  # every append older than snapshot_retention
    done = maintain(floe, "--table", f"{ns}.orders")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "compaction: rewrote" in done.stdout and "expiry:     expired 2 snapshots" in done.stdout, done.stdout

    table = catalog.load_table(f"{ns}.orders")
    current = table.current_snapshot()
    assert current.summary.operation.value == "replace"
    assert [s.snapshot_id for s in table.metadata.snapshots] == [history[-1], current.snapshot_id]
    spark.sql(f"REFRESH TABLE {t}")
    assert sorted(tuple(r) for r in spark.sql(query).collect()) == expected
    [files] = spark.sql(f"SELECT count(*) FROM {t}.files").first()
    assert files == 1
    # Time travel: the retained parent reads what it committed; an expired snapshot is refused.
    travel = f"SELECT _kafka.partition, _kafka.offset, id FROM {t} VERSION AS OF {history[-1]}"
    assert sorted(tuple(r) for r in spark.sql(travel).collect()) == expected
    with pytest.raises(Exception, match=f"(?i)snapshot.*{history[0]}"):
        spark.sql(f"SELECT count(*) FROM {t} VERSION AS OF {history[0]}").collect()
