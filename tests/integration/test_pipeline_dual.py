"""`formats: [iceberg, delta]` (issue #5): one set of Parquet files referenced by both an
Iceberg table and a Delta log; pyiceberg and delta-rs return identical rows; a crash between
the Iceberg and the Delta commit is repaired by catching Delta up from Iceberg's files."""
import os
import subprocess
import uuid

from deltalake import DeltaTable

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_pipeline_avro import ORDER, order, read_rows
from tests.integration.test_pipeline_delta import delta_rows, txn_offsets
from tests.integration.test_pipeline_evolution import V1, V2


def file_sets(floe, table, path):
    """The data files each format references, as file:// URIs."""
    iceberg = {f.file.file_path for f in floe.table(table).scan().plan_files()}
    delta = {u if u.startswith("file:") else "file://" + u for u in DeltaTable(str(path)).file_uris()}
    return iceberg, delta


def same_rows(floe, table, path):
    ice = {k: (r["id"], r["customer"]) for k, r in read_rows(floe, table).items()}
    dl = {k: (r["id"], r["customer"]) for k, r in delta_rows(path).items()}
    assert ice == dl
    return ice


def test_both_formats_share_one_copy_of_the_data(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"dual-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(1000):
        producer.send_avro(topic, serializer, order(i), partition=i % 2)
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.dual", "formats": ["iceberg", "delta"]}],
                   registry_url=schema_registry.url)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    path = floe.warehouse_dir / "kafka" / "dual"
    rows = same_rows(floe, "kafka.dual", path)
    assert len(rows) == 1000
    iceberg_files, delta_files = file_sets(floe, "kafka.dual", path)
    assert iceberg_files == delta_files and iceberg_files
    parquet_on_disk = [p for p in (path / "data").rglob("*.parquet")]
    assert len(parquet_on_disk) == len(iceberg_files)  # each data file once, referenced by both
    assert txn_offsets(path) == {f"floe:{topic}:0": 500, f"floe:{topic}:1": 500}


def test_crash_between_the_two_commits_is_caught_up(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"dualcrash-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = producer.serializer(V1)
    for i in range(100):
        producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"})
    producer.flush()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.dualcrash", "formats": ["iceberg", "delta"]}],
                   registry_url=schema_registry.url)
    assert floe.run_batch().returncode == 0
    v2 = producer.serializer(V2)
    for i in range(100, 200):
        producer.send_avro(topic, v2, {"id": i, "qty": i, "name": f"n{i}", "region": "eu"})
    producer.flush()
    config = floe.write_config()
    crashed = subprocess.run([str(floe_bin), "run", "--config", str(config), "--exit-when-caught-up"],
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "FLOE_FAULT_POINTS": "crash-between-format-commits"})
    assert crashed.returncode == 137, crashed.stderr[-2000:]
    path = floe.warehouse_dir / "kafka" / "dualcrash"
    # Iceberg has all 200, Delta is still at 100: each is a complete prefix.
    assert len(read_rows(floe, "kafka.dualcrash")) == 200
    assert txn_offsets(path) == {f"floe:{topic}:0": 100}
    assert len(delta_rows(path)) == 100
    # The next run catches Delta up from Iceberg's files, then goes on.
    for i in range(200, 250):
        producer.send_avro(topic, v2, {"id": i, "qty": i, "name": f"n{i}", "region": "us"})
    producer.flush()
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "caught up" in result.stderr
    ice = {r["id"]: r for r in read_rows(floe, "kafka.dualcrash").values()}
    dl = {r["id"]: r for r in delta_rows(path).values()}
    assert sorted(ice) == sorted(dl) == list(range(250))
    assert dl[150]["region"] == "eu" and dl[5]["region"] is None
    assert txn_offsets(path) == {f"floe:{topic}:0": 250}
    iceberg_files, delta_files = file_sets(floe, "kafka.dualcrash", path)
    assert iceberg_files == delta_files
