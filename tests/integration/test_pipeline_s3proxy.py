"""Object storage on S3Proxy (issue #14): a second real S3-compatible server besides moto (Java,
org.gaul:s3proxy over a local directory), and one with two traps a user can meet in other
S3-compatible stores too:
- it refuses the AWS SDK's upload checksum trailers (400 on UploadPart): with an endpoint Floe asks
  for checksums only where required, and a user who forces them gets a start-up error that says
  what to change instead of a commit loop that never succeeds;
- it refuses a second `If-None-Match: *` create of one name, but checks then writes without a lock,
  so simultaneous creates can all succeed: the start-up probe races creates, finds it, and refuses
  Delta (two writers could both commit one version) unless `storage.delta_single_writer`.
Both formats are written there (Delta as the single writer) and pyiceberg (with the catalog URI
only), DuckDB and delta-rs read identical rows."""
import subprocess
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.s3_server import REGION
from tests.integration.fixtures.s3proxy_server import S3ProxyServer
from tests.integration.test_pipeline_avro import order
from tests.integration.test_pipeline_s3 import duckdb_s3, logs_of, produce_orders, rows_by_offset, serve_catalog


@pytest.fixture(scope="module")
def s3proxy(tmp_path_factory):
    with S3ProxyServer(tmp_path_factory.mktemp("s3proxy")) as server:
        yield server


def proxy_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket, storage, formats=("iceberg", "delta")):
    return FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.orders", "formats": list(formats)}],
                   registry_url=schema_registry.url, extra={"warehouse": f"s3://{bucket}/wh", "storage": storage})


def expected_orders(n):
    """What produce_orders sent, keyed like rows_by_offset: record i went to partition i % 2."""
    return {(i % 2, i // 2): (o["id"], o["customer"], o["amount"]) for i, o in ((i, order(i)) for i in range(n))}


def delta_options(server):
    return {"AWS_ENDPOINT_URL": server.endpoint, "AWS_REGION": REGION, "AWS_ACCESS_KEY_ID": server.key[0],
            "AWS_SECRET_ACCESS_KEY": server.key[1], "AWS_ALLOW_HTTP": "true"}


def test_both_formats_on_s3proxy_read_alike_by_pyiceberg_duckdb_and_delta_rs(kafka, schema_registry, floe_bin,
                                                                              s3proxy, tmp_path):
    bucket = s3proxy.create_bucket()
    topic = f"s3p-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 1500)
    # The store has one identity: it is also the one the catalog hands readers.
    storage = {**s3proxy.storage_config(reader_access_key_id=s3proxy.key[0], reader_secret_access_key=s3proxy.key[1]),
               "delta_single_writer": True}
    floe = proxy_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket, storage)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "upload checksums when required" in result.stderr  # the default with an endpoint
    assert "conditional create NOT honoured" in result.stderr and "run one writer per Delta table" in result.stderr
    assert not any("_floe_probe" in k for k in s3proxy.keys(bucket))

    proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
    try:
        from pyiceberg.catalog.rest import RestCatalog
        table = RestCatalog("floe", uri=url).load_table("kafka.orders")
        iceberg = rows_by_offset(table.scan().to_arrow().to_pylist())
        metadata_location = table.metadata_location
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert iceberg == expected_orders(1500)
    location = f"s3://{bucket}/wh/kafka/orders"
    delta = rows_by_offset(DeltaTable(location, storage_options=delta_options(s3proxy)).to_pyarrow_table().to_pylist())
    con = duckdb_s3(s3proxy, s3proxy.key)
    duck = {(p, o): (i, c, a) for p, o, i, c, a in con.execute(
        f"select _kafka.partition, _kafka.offset, id, customer, amount from iceberg_scan('{metadata_location}')"
    ).fetchall()}
    assert iceberg == delta == duck
    assert s3proxy.key[1] not in logs_of(tmp_path)


def test_delta_is_refused_because_its_conditional_create_is_not_atomic(kafka, schema_registry, floe_bin, s3proxy,
                                                                     tmp_path):
    bucket = s3proxy.create_bucket()
    topic = f"s3prace-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 10)
    refused = proxy_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket,
                         s3proxy.storage_config()).run_batch(timeout=120)
    assert refused.returncode == 2, refused.stderr[-2000:]
    for text in ("formats: [delta] needs a store that refuses to create an object that exists",
                 "the store refuses a second create of one name, but", "simultaneous creates of one name all succeeded",
                 "not atomic", "storage.delta_single_writer"):
        assert text in refused.stderr, (text, refused.stderr[-2000:])
    # Iceberg alone does not depend on it: its commits go through the catalog.
    iceberg = proxy_floe(floe_bin, tmp_path / "iceberg", kafka, schema_registry, topic, bucket,
                         s3proxy.storage_config(), formats=["iceberg"]).run_batch()
    assert iceberg.returncode == 0, iceberg.stderr[-2000:]
    assert not any("_floe_probe" in k for k in s3proxy.keys(bucket))


def test_forced_sdk_checksums_fail_at_start_with_what_to_change(kafka, schema_registry, floe_bin, s3proxy, tmp_path):
    bucket = s3proxy.create_bucket()
    topic = f"s3pck-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 10)
    result = proxy_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket,
                        s3proxy.storage_config(request_checksums="when_supported")).run_batch(timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    for text in (f"probing the warehouse s3://{bucket}/wh (upload", "UploadPart", "HTTP status 400",
                 "storage.s3.request_checksums: when_required"):
        assert text in result.stderr, (text, result.stderr[-2000:])


def test_validate_check_storage_on_s3proxy(floe_bin, s3proxy, tmp_path):
    bucket = s3proxy.create_bucket()
    config = FloeRun(floe_bin, tmp_path, "127.0.0.1:1", [{"name": "orders", "value": "string",
                                                           "formats": ["iceberg", "delta"]}],
                     extra={"warehouse": f"s3://{bucket}/wh", "storage": s3proxy.storage_config()}).write_config()
    result = subprocess.run([str(floe_bin), "validate", "--config", str(config), "--check-storage"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    for line in ("credentials: static keys", "write, read, delete: ok", "conditional create: NOT honoured",
                 "not atomic", "storage.delta_single_writer"):
        assert line in result.stdout, result.stdout
    assert s3proxy.key[1] not in result.stdout + result.stderr
    assert not any("_floe_probe" in k for k in s3proxy.keys(bucket))
