"""Table maintenance on object storage (issue 18, docs/maintenance.md): `floe maintain` compacts,
merges, expires and removes orphans of a table in an s3:// warehouse through the same FileIO as
the pipeline — listing, modification times and deletes go through the S3 API. The store is
S3Proxy over a local directory (tests/integration/fixtures/s3proxy_server.py), whose
LastModified is the backing file's modification time, so a fenced zombie's object can be made
old. pyiceberg (through `floe catalog serve`) and DuckDB (httpfs) read the same rows before and
after; every file a snapshot references is still in the bucket.
(The maintenance operations one at a time on moto's S3: test_iceberg_maintenance_lib.py.)"""
import os
import time
import uuid

import boto3
import botocore.config
import pytest
from pyiceberg.catalog.rest import RestCatalog

from tests.integration.fixtures.exactly_once import BackgroundProducer
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.s3_server import REGION
from tests.integration.fixtures.s3proxy_server import S3ProxyServer
from tests.integration.test_iceberg_maintenance_lib import referenced_paths
from tests.integration.test_maintenance import TWO_DAYS, avro, maintain
from tests.integration.test_pipeline_avro import order
from tests.integration.test_pipeline_s3 import duckdb_s3, rows_by_offset, serve_catalog


@pytest.fixture(scope="module")
def s3proxy(tmp_path_factory):
    with S3ProxyServer(tmp_path_factory.mktemp("s3proxy")) as server:
        yield server


def test_floe_maintain_on_s3_compacts_expires_and_removes_orphans(kafka, schema_registry, floe_bin, s3proxy,
                                                                  tmp_path):
    bucket = s3proxy.create_bucket()
    topic = f"s3maint-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    storage = s3proxy.storage_config(reader_access_key_id=s3proxy.key[0], reader_secret_access_key=s3proxy.key[1])
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.orders", "formats": ["iceberg"]}],
                   registry_url=schema_registry.url,
                   extra={"warehouse": f"s3://{bucket}/wh", "storage": storage,
                          "maintenance": {"compaction": {"min_files": 2}, "snapshot_retention": "1s",
                                          "min_snapshots": 1}})
    sent = {}
    for _ in range(3):  # three batch runs: three commits, two small files each
        producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 300, 1, avro, order)
        producing.start()
        producing.join(60)
        sent.update(producing.sent)
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
    prefix = "wh/kafka/orders/"
    location = f"s3://{bucket}/{prefix}"
    # S3Proxy refuses the SDK's checksum trailers (test_pipeline_s3proxy.py): checksums only where required.
    client = boto3.client("s3", endpoint_url=s3proxy.endpoint, region_name=REGION, aws_access_key_id=s3proxy.key[0],
                          aws_secret_access_key=s3proxy.key[1],
                          config=botocore.config.Config(s3={"addressing_style": "path"},
                                                        request_checksum_calculation="when_required"))

    def objects() -> set:
        return {f"s3://{bucket}/{k}" for k in s3proxy.keys(bucket, prefix)}

    # A fenced zombie's data file, written two days ago (S3Proxy's LastModified is the mtime).
    zombie_key = f"{prefix}data/00000-0-{uuid.uuid4()}.parquet"
    client.put_object(Bucket=bucket, Key=zombie_key, Body=b"PAR1 never committed")
    backing = s3proxy.workdir / "data" / bucket / zombie_key
    assert backing.exists(), backing
    os.utime(backing, (time.time() - TWO_DAYS, time.time() - TWO_DAYS))
    young_key = f"{prefix}data/00001-0-{uuid.uuid4()}.parquet"  # a write whose commit is on its way
    client.put_object(Bucket=bucket, Key=young_key, Body=b"PAR1 being written")

    proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
    try:
        catalog = RestCatalog("floe", uri=url)
        table = catalog.load_table("kafka.orders")
        before = rows_by_offset(table.scan().to_arrow().to_pylist())
        assert len(before) == len(sent) == 900
        assert set(before) == set(sent)
        data_before = {f.file.file_path for f in table.scan().plan_files()}
        assert len(data_before) >= 3 and len(table.metadata.snapshots) >= 3
        assert all(p.startswith(location) for p in data_before)

        done = maintain(floe, "--table", "kafka.orders")
        assert done.returncode == 0, done.stdout + done.stderr
        for line in (f"compaction: rewrote {len(data_before)} files", "expiry:     expired",
                     "orphans:    removed 1 files", "after:      1 data files"):
            assert line in done.stdout, (line, done.stdout)

        table = catalog.load_table("kafka.orders")
        after = rows_by_offset(table.scan().to_arrow().to_pylist())
        assert after == before
        assert table.current_snapshot().summary.operation.value == "replace"
        con = duckdb_s3(s3proxy, s3proxy.key)
        duck = {(p, o): (i, c, a) for p, o, i, c, a in con.execute(
            "select _kafka.partition, _kafka.offset, id, customer, amount "
            f"from iceberg_scan('{table.metadata_location}')").fetchall()}
        assert duck == before
        present = objects()
        assert [p for p in referenced_paths(table) if p not in present] == []
        # Expiry deleted the small files no kept snapshot reads; the orphan pass the zombie only.
        live = {f.file.file_path for f in table.scan().plan_files()}
        assert len(live) == 1 and not live & data_before
        kept_paths = set(referenced_paths(table))
        assert not (data_before - kept_paths) & present
        assert f"s3://{bucket}/{zombie_key}" not in present
        assert f"s3://{bucket}/{young_key}" in present
    finally:
        proc.terminate()
        proc.wait(timeout=30)
