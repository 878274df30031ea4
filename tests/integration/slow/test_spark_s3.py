"""Apache Spark reads the tables that `floe run` writes to S3 (issue #14): an Avro topic (1200
records, 3 partitions, keyed) is materialized with `formats: [iceberg, delta]` into
`warehouse: s3://<bucket>/wh` on moto's server with IAM enforced
(tests/integration/fixtures/s3_server.py; Floe writes as a user that may only touch
`<bucket>/wh/*`, Spark reads as users that may only read), and Spark reads it four ways:

1. Iceberg through Floe's REST catalog (`floe catalog serve` on the run's floe.yaml) with
   Iceberg's S3FileIO, which the Java client's default ResolvingFileIO picks for s3:// once
   iceberg-aws-bundle is on the class path. LoadTable's `config` carries s3.endpoint,
   s3.path-style-access and the reader keys (storage.s3.reader_access_key_id /
   reader_secret_access_key) and the region (`s3.region` for pyiceberg, `client.region` for
   S3FileIO), and S3FileIO applies them: Spark has no S3 setting of its own for this.
2. The same with `catalog.vend_credentials` on a second server: STS credentials of an assumed
   role that may only read, handed out by LoadTable; again no S3 setting in Spark's conf.
3. Iceberg through the first server with `io-impl = org.apache.iceberg.hadoop.HadoopFileIO`:
   hadoop-aws's S3AFileSystem with the `spark.hadoop.fs.s3a.*` settings of s3a_conf (endpoint,
   region, path-style, the reader's keys, and fs.s3.impl because Floe writes s3:// URIs).
4. Delta by path (`spark.read.format("delta").load("s3://…")`) through the same S3AFileSystem;
   Delta also wants its session extension and `spark_catalog` = DeltaCatalog, even to read.

Jars (scripts/spark/install.sh, .deps/spark-jars) on top of pyspark's: the Iceberg runtime
(spark.jars, as in every slow-tier module) and, on the driver's class path, iceberg-aws-bundle
1.12.0, hadoop-aws 3.4.2 (= pyspark's Hadoop) with the AWS SDK v2 bundle it declares (2.29.52)
and its two small runtime dependencies, delta-spark 4.1.0 and delta-storage.

Each read must return exactly the produced records: every value keyed by (_kafka.partition,
_kafka.offset), the _kafka columns (topic, offsets 0..399 per partition, keys), counts, sums,
filtered spot values, and, for Iceberg's and Delta's, the same Parquet objects (one copy of the
data under both formats)."""
import datetime as dt
import json
import os
import pathlib
import re
import select
import subprocess
import time
import uuid

import pytest

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_pipeline_avro import ORDER, order

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

N = 1200
PARTITIONS = 3
TABLE = "kafka.orders"
UTC = dt.timezone.utc


def micros(t: dt.datetime) -> int:
    return (t - dt.datetime(1970, 1, 1, tzinfo=UTC)) // dt.timedelta(microseconds=1)


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


class Lake:
    """What the module's one `floe run` left on S3, and the two catalog servers in front of it."""
    bucket: str
    reader: tuple
    writer: tuple
    topic: str
    sent: dict          # (partition, offset) -> the order(i) produced there
    catalog_url: str    # `floe catalog serve`, LoadTable hands out the reader keys
    vending_url: str    # the same catalog served with catalog.vend_credentials: STS credentials
    base_user: tuple    # the principal the vending server assumes the role as (sts:AssumeRole only)
    location: str       # the table's location: s3://bucket/wh/kafka/orders


def serve_catalog(floe_bin, config, log_path, env=None):
    """`floe catalog serve` on a floe.yaml of the run (so with a storage.s3 section), on a free
    port, with `env` added to its environment; returns (process, base URL)."""
    with open(log_path, "w") as log:
        proc = subprocess.Popen([str(floe_bin), "catalog", "serve", "--config", str(config),
                                 "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=log, text=True,
                                env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            m = re.search(r"listening on (http://\S+)", proc.stdout.readline())
            if m:
                return proc, m.group(1)
    proc.kill()
    proc.wait()
    raise RuntimeError(f"floe catalog serve did not start:\n{log_path.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def lake(kafka, schema_registry, floe_bin, s3, tmp_path_factory):
    work = tmp_path_factory.mktemp("s3-lake")
    lake = Lake()
    lake.bucket = s3.create_bucket()
    lake.writer = s3.create_user({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket"],
         "Resource": [f"arn:aws:s3:::{lake.bucket}", f"arn:aws:s3:::{lake.bucket}/wh/*"]}]})
    # Spark's user may read the bucket and nothing else: a write by any reader would fail.
    lake.reader = s3.create_user({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"],
         "Resource": [f"arn:aws:s3:::{lake.bucket}", f"arn:aws:s3:::{lake.bucket}/*"]}]})
    lake.topic = f"spark-s3-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(lake.topic, partitions=PARTITIONS)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(N):
        producer.send_avro(lake.topic, serializer, order(i), partition=i % PARTITIONS, key=f"k{i}".encode())
    lake.sent = dict(producer.flush())
    assert len(lake.sent) == N

    storage = s3.storage_config(lake.writer, reader_access_key_id=lake.reader[0],
                                reader_secret_access_key=lake.reader[1])
    floe = FloeRun(floe_bin, work, kafka.bootstrap, [{"name": lake.topic, "table": TABLE,
                                                      "formats": ["iceberg", "delta"]}],
                   registry_url=schema_registry.url,
                   extra={"warehouse": f"s3://{lake.bucket}/wh", "storage": storage})
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    lake.location = f"s3://{lake.bucket}/wh/kafka/orders"
    keys = s3.keys(lake.bucket, "wh/kafka/orders/")
    assert any("/_delta_log/" in k for k in keys) and any(k.endswith(".parquet") for k in keys), keys
    lake.parquet_keys = sorted(k for k in keys if k.endswith(".parquet"))

    servers = []
    try:
        proc, lake.catalog_url = serve_catalog(floe_bin, floe.write_config(), work / "catalog.log")
        servers.append(proc)
        # Credential vending: the server's own principal (the default chain, here the
        # environment) may only assume a role that may read the bucket; LoadTable answers with
        # that role's STS credentials. No reader keys in this config.
        lake.base_user = s3.create_user({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": "sts:AssumeRole", "Resource": "*"}]})
        role = s3.create_role(
            trust={"Version": "2012-10-17", "Statement": [
                {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]},
            policy={"Version": "2012-10-17", "Statement": [
                {"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"],
                 "Resource": [f"arn:aws:s3:::{lake.bucket}", f"arn:aws:s3:::{lake.bucket}/*"]}]})
        vending = floe.write_config("floe-vending.yaml", storage=s3.storage_config(role_arn=role),
                                    catalog={**floe.config["catalog"], "vend_credentials": True})
        proc, lake.vending_url = serve_catalog(
            floe_bin, vending, work / "catalog-vending.log",
            env={"AWS_ACCESS_KEY_ID": lake.base_user[0], "AWS_SECRET_ACCESS_KEY": lake.base_user[1],
                 "AWS_ENDPOINT_URL_STS": s3.endpoint, "AWS_EC2_METADATA_DISABLED": "true"})
        servers.append(proc)
        yield lake
    finally:
        for proc in servers:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdout.close()
    # No secret in any log of Floe's (runs and servers).
    logs = "".join(p.read_text(errors="replace") for p in work.rglob("*.log"))
    for secret in (lake.writer[1], lake.reader[1], lake.base_user[1]):
        assert secret not in logs


def s3a_conf(s3, key) -> dict:
    """What Spark needs to read s3:// paths through Hadoop (Delta; Iceberg with HadoopFileIO)."""
    return {
        # Floe writes s3:// URIs; Hadoop maps only s3a:// to S3AFileSystem by default.
        "spark.hadoop.fs.s3.impl": "org.apache.hadoop.fs.s3a.S3AFileSystem",
        "spark.hadoop.fs.s3a.endpoint": s3.endpoint,
        "spark.hadoop.fs.s3a.endpoint.region": REGION,
        "spark.hadoop.fs.s3a.path.style.access": "true",
        "spark.hadoop.fs.s3a.access.key": key[0],
        "spark.hadoop.fs.s3a.secret.key": key[1],
    }


@pytest.fixture(scope="module")
def spark(lake, s3, spark_session_factory, tmp_path_factory):
    jars_dir = pathlib.Path(__file__).resolve().parents[3] / ".deps" / "spark-jars"
    wanted = ["iceberg-aws-bundle-*.jar", "hadoop-aws-*.jar", "bundle-*.jar", "analyticsaccelerator-s3-*.jar",
              "wildfly-openssl-*.jar", "delta-spark_*.jar", "delta-storage-*.jar"]
    class_path = []
    for pattern in wanted:
        found = sorted(jars_dir.glob(pattern))
        assert found, f"no {pattern} in {jars_dir}: run scripts/spark/install.sh"
        class_path.append(str(found[-1]))
    conf = {
        # On the JVM's class path from its start (pyspark launches it with this conf), not
        # spark.jars: local mode copies every spark.jars jar into the session's userFiles
        # directory, which for the 640 MB SDK bundle would cost seconds and disk per session.
        "spark.driver.extraClassPath": ":".join(class_path),
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions,"
                                "io.delta.sql.DeltaSparkSessionExtension",
        # Delta refuses to read (even by path) without its extension and its session catalog.
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        # A second catalog on the same server that reads through Hadoop instead of S3FileIO.
        "spark.sql.catalog.floe_hadoop": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.floe_hadoop.type": "rest",
        "spark.sql.catalog.floe_hadoop.uri": lake.catalog_url,
        "spark.sql.catalog.floe_hadoop.io-impl": "org.apache.iceberg.hadoop.HadoopFileIO",
        # And one on the vending server: S3FileIO with the STS credentials LoadTable hands out.
        "spark.sql.catalog.floe_vended": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.floe_vended.type": "rest",
        "spark.sql.catalog.floe_vended.uri": lake.vending_url,
        **s3a_conf(s3, lake.reader),
    }
    with spark_session_factory(tmp_path_factory.mktemp("spark-s3"), lake.catalog_url, conf) as session:
        yield session


def expected_rows(lake) -> dict:
    out = {}
    for (p, o), r in lake.sent.items():
        out[(p, o)] = (r["id"], r["customer"], r["amount"], r["quantity"], r["paid"], r["note"],
                       micros(r["created_at"]), lake.topic, f"k{r['id']}".encode())
    return out


COLUMNS = ("_kafka.partition AS p, _kafka.offset AS o, id, customer, amount, quantity, paid, note, "
           "unix_micros(created_at) AS ts, _kafka.topic AS topic, _kafka.key AS k")


def rows_of(df) -> dict:
    out = {}
    for r in df.collect():
        key = (r["p"], r["o"])
        assert key not in out, f"duplicate {key}"
        out[key] = (r["id"], r["customer"], r["amount"], r["quantity"], r["paid"], r["note"], r["ts"], r["topic"],
                    bytes(r["k"]))
    return out


def assert_reads_what_was_produced(spark, lake, source: str):
    """`source`: a table or view name, as Spark SQL's FROM takes it."""
    want = expected_rows(lake)
    got = rows_of(spark.sql(f"SELECT {COLUMNS} FROM {source}"))
    assert len(got) == N
    assert got == want
    # Aggregates computed by Spark over the files (not just collected rows) equal the produced ones.
    agg = spark.sql(f"SELECT count(*), sum(id), sum(amount), sum(quantity), count(note), count_if(paid), "
                    f"count(DISTINCT customer), min(created_at) = timestamp'2026-01-01 00:00:00' FROM {source}").first()
    records = list(lake.sent.values())
    assert tuple(agg) == (N, sum(r["id"] for r in records), sum(r["amount"] for r in records),
                          sum(r["quantity"] for r in records), sum(1 for r in records if r["note"] is not None),
                          sum(1 for r in records if r["paid"]), 97, True)
    # Offsets: each partition holds offsets 0..N/PARTITIONS-1, once each.
    per_partition = {r["p"]: (r["n"], r["lo"], r["hi"], r["topics"]) for r in spark.sql(
        f"SELECT _kafka.partition AS p, count(*) AS n, min(_kafka.offset) AS lo, max(_kafka.offset) AS hi, "
        f"count(DISTINCT _kafka.topic) AS topics FROM {source} GROUP BY 1").collect()}
    assert per_partition == {p: (N // PARTITIONS, 0, N // PARTITIONS - 1, 1) for p in range(PARTITIONS)}
    # A few exact values, by filter (pushed down to the Parquet scan).
    row = spark.sql(f"SELECT customer, amount, quantity, paid, note, unix_micros(created_at) AS ts, "
                    f"_kafka.partition AS p, _kafka.offset AS o, _kafka.key AS k FROM {source} WHERE id = 1001").first()
    assert (row.customer, row.amount, row.quantity, row.paid, row.note, row.p, row.o, bytes(row.k)) == \
        ("customer-31-é", 250.25, -499, False, "note 1001", 1001 % PARTITIONS, 1001 // PARTITIONS, b"k1001")
    assert row.ts == micros(dt.datetime(2026, 1, 1, tzinfo=UTC) + dt.timedelta(milliseconds=1001 * 1001))
    assert spark.sql(f"SELECT note FROM {source} WHERE id = 1000").first().note is None


def relative(paths) -> set:
    """Data file paths as keys under the bucket's wh/ (engines print s3:// or s3a:// URIs)."""
    return {re.sub(r"^s3a?://[^/]+/", "", p) for p in paths}


def file_io_class(spark, catalog: str) -> tuple:
    """(the class of the FileIO that catalog `catalog` reads kafka.orders' files with, the
    properties it was initialized with)."""
    jvm = spark._jvm
    namespace = spark.sparkContext._gateway.new_array(jvm.java.lang.String, 1)
    namespace[0] = "kafka"
    ident = jvm.org.apache.spark.sql.connector.catalog.Identifier.of(namespace, "orders")
    table = spark._jsparkSession.sessionState().catalogManager().catalog(catalog).loadTable(ident).table()
    io = table.io()
    if io.getClass().getName() == "org.apache.iceberg.io.ResolvingFileIO":
        return io.ioClass(table.location()).getName(), dict(io.properties())
    return io.getClass().getName(), dict(io.properties())


def test_spark_reads_the_iceberg_table_with_s3fileio_and_the_catalog_config(spark, lake, s3):
    cls, props = file_io_class(spark, "floe")
    assert cls == "org.apache.iceberg.aws.s3.S3FileIO"
    # Where the files are and the read-only keys came from LoadTable, not from Spark's conf.
    assert props["s3.endpoint"] == s3.endpoint
    assert props["s3.path-style-access"] == "true"
    assert props["s3.access-key-id"] == lake.reader[0]
    assert lake.writer[0] not in json.dumps(props)
    assert_reads_what_was_produced(spark, lake, f"floe.{TABLE}")
    files = [r[0] for r in spark.sql(f"SELECT DISTINCT _file FROM floe.{TABLE}").collect()]
    assert relative(files) == set(lake.parquet_keys)


def test_spark_reads_the_iceberg_table_with_vended_credentials(spark, lake, s3):
    cls, props = file_io_class(spark, "floe_vended")
    assert cls == "org.apache.iceberg.aws.s3.S3FileIO"
    assert props["s3.endpoint"] == s3.endpoint
    # Short-lived credentials of the assumed role: neither the reader's keys (not configured on
    # this server) nor the vending server's own principal.
    assert props.get("s3.session-token")
    assert props["s3.access-key-id"] not in (lake.reader[0], lake.base_user[0], lake.writer[0])
    assert int(props["s3.session-token-expires-at-ms"]) > time.time() * 1000
    assert_reads_what_was_produced(spark, lake, f"floe_vended.{TABLE}")


def test_spark_reads_the_iceberg_table_through_hadoop_s3a(spark, lake):
    cls, _ = file_io_class(spark, "floe_hadoop")
    assert cls == "org.apache.iceberg.hadoop.HadoopFileIO"
    assert_reads_what_was_produced(spark, lake, f"floe_hadoop.{TABLE}")


def test_spark_reads_the_delta_table_through_hadoop_s3a(spark, lake):
    spark.read.format("delta").load(lake.location).createOrReplaceTempView("delta_orders")
    assert_reads_what_was_produced(spark, lake, "delta_orders")
    detail = spark.sql(f"DESCRIBE DETAIL '{lake.location}'").first()
    assert detail.format == "delta"
    assert detail.numFiles == len(lake.parquet_keys)
    # One copy of the data: the Delta log names the very objects Iceberg's manifests name.
    files = [r[0] for r in spark.sql(
        f"SELECT DISTINCT _metadata.file_path FROM delta.`{lake.location}`").collect()]
    assert relative(files) == set(lake.parquet_keys)
    # The Delta log's versions are Floe's commits, read through S3A's listing of _delta_log/.
    history = spark.sql(f"DESCRIBE HISTORY '{lake.location}'").collect()
    assert history and max(h.version for h in history) == len(history) - 1
