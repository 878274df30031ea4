"""catalog.type glue (issue #15): Floe publishes its tables to AWS Glue, here moto's Glue on the
same server as the S3 warehouse (IAM authentication enforced, so every Glue request is
SigV4-signed and checked). Floe runs as a user with docs/catalog.md's Glue policy.

Iceberg: pyiceberg's own GlueCatalog loads the table and reads exactly the produced rows; boto3
sees the table registered as Iceberg's GlueCatalog registers it, with the column list pyiceberg's
converter builds from the same metadata (also after an evolution, dropped-in-place columns
included); a second run moves metadata_location on and keeps the old one as
previous_metadata_location; the offsets in the snapshot summary cover each record once.
Delta: the table is registered as Athena and Spark expect (table_type=DELTA, location, columns),
delta-rs and DuckDB read identical rows from the location Glue holds, the columns follow an
evolution. Both formats: two Glue tables (<table> and <table>_delta) over the one copy of the
files. A policy without glue:CreateTable is named in the log.

Not tested here: losing the race of two concurrent swaps. moto ignores UpdateTable's VersionId
(Glue's optimistic lock); test_pipeline_glue_crash.py races two writers through a gate that
enforces it."""
import json
import subprocess
import time
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_pipeline_avro import ORDER, order
from tests.integration.test_pipeline_evolution import V1, V2
from tests.integration.test_pipeline_s3 import delta_storage_options, duckdb_s3


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


def produce(kafka, schema_registry, topic, first, n, partitions=2):
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    sent = {}
    for i in range(first, first + n):
        producer.send_avro(topic, serializer, order(i), partition=i % partitions)
    producer.flush()
    return sent


def glue_catalog(s3):
    from pyiceberg.catalog.glue import GlueCatalog
    key, secret = s3.admin_key
    return GlueCatalog("glue", **{
        "glue.endpoint": s3.endpoint, "client.region": REGION, "glue.region": REGION,
        "glue.access-key-id": key, "glue.secret-access-key": secret,
        "s3.endpoint": s3.endpoint, "s3.region": REGION, "s3.access-key-id": key, "s3.secret-access-key": secret,
        "s3.path-style-access": "true"})


# docs/catalog.md's Glue policy, plus the warehouse: Floe's principal needs no more than this.
GLUE_ACTIONS = ["glue:GetDatabase", "glue:GetDatabases", "glue:CreateDatabase", "glue:UpdateDatabase",
                "glue:DeleteDatabase", "glue:GetTable", "glue:GetTables", "glue:CreateTable", "glue:UpdateTable",
                "glue:DeleteTable"]


def writer_policy(bucket, glue_actions):
    return {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket"],
         "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/wh/*"]},
        {"Effect": "Allow", "Action": glue_actions, "Resource": "*"}]}


class GlueSetup:
    """`floe run` over a fresh bucket of the moto server, publishing to its Glue as a fresh IAM
    user whose policy allows `glue_actions` and the warehouse's S3 actions."""

    def __init__(self, floe_bin, tmp_path, kafka, schema_registry, s3, topics, glue_actions=GLUE_ACTIONS,
                 defaults=None):
        self.s3 = s3
        self.bucket = s3.create_bucket()
        self.key, self.secret = s3.create_user(writer_policy(self.bucket, glue_actions))
        catalog = {"type": "glue", "region": REGION, "endpoint": s3.endpoint, "credentials": "static",
                   "access_key_id": self.key, "secret_access_key": self.secret}
        self.floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, topics, registry_url=schema_registry.url,
                            defaults=defaults,
                            extra={"warehouse": f"s3://{self.bucket}/wh",
                                   "storage": s3.storage_config((self.key, self.secret)), "catalog": catalog})

    def run_batch(self):
        result = self.floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
        assert self.secret not in result.stdout + result.stderr
        return result

    def glue_table(self, database, name):
        return self.s3.client("glue").get_table(DatabaseName=database, Name=name)["Table"]


def produce_items(kafka, schema_registry, topic, schema, first, n, partitions=2):
    """Items of test_pipeline_evolution's V1 or V2 (V2 adds region, widens qty to long)."""
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(schema)
    for i in range(first, first + n):
        item = {"id": i, "qty": i, "name": f"n{i}"}
        if schema is V2:
            item["region"] = "eu" if i % 2 else "us"
        producer.send_avro(topic, serializer, item, partition=i % partitions)
    producer.flush()


def assert_columns_as_pyiceberg_writes_them(glue_table, iceberg_table):
    """Glue's columns are those pyiceberg's GlueCatalog builds from the same metadata."""
    from pyiceberg.catalog.glue import _to_columns
    assert glue_table["StorageDescriptor"]["Columns"] == _to_columns(iceberg_table.metadata)
    assert glue_table["StorageDescriptor"]["Location"] == iceberg_table.metadata.location


def test_floe_publishes_iceberg_tables_to_glue(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic = f"glue-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    produce(kafka, schema_registry, topic, 0, 500)
    glue = GlueSetup(floe_bin, tmp_path, kafka, schema_registry, s3, [{"name": topic, "table": f"{database}.orders"}])
    bucket = glue.bucket
    glue.run_batch()

    first = glue.glue_table(database, "orders")
    assert first["TableType"] == "EXTERNAL_TABLE"
    assert first["Parameters"]["table_type"] == "ICEBERG"
    first_location = first["Parameters"]["metadata_location"]
    assert first_location.startswith(f"s3://{bucket}/wh/{database}/orders/metadata/")
    assert first["StorageDescriptor"]["Location"] == f"s3://{bucket}/wh/{database}/orders"

    table = glue_catalog(s3).load_table(f"{database}.orders")
    assert table.metadata_location == first_location
    assert_columns_as_pyiceberg_writes_them(first, table)
    rows = table.scan().to_arrow().to_pylist()
    seen = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): r["id"] for r in rows}
    assert len(seen) == len(rows) == 500
    assert sorted(seen.values()) == list(range(500))

    # A second run appends: the location moves on, the old one becomes the previous one.
    produce(kafka, schema_registry, topic, 500, 300)
    glue.run_batch()
    second = glue.glue_table(database, "orders")
    assert second["Parameters"]["metadata_location"] != first_location
    assert second["Parameters"]["table_type"] == "ICEBERG"
    # Every swap records the location it replaced; the first run's last commit is in the chain.
    versions = s3.client("glue").get_table_versions(DatabaseName=database, TableName="orders")["TableVersions"]
    previous = {v["Table"]["Parameters"].get("previous_metadata_location") for v in versions}
    assert first_location in previous
    assert second["Parameters"]["previous_metadata_location"]

    table = glue_catalog(s3).load_table(f"{database}.orders")
    assert table.metadata_location == second["Parameters"]["metadata_location"]
    assert second["StorageDescriptor"]["Columns"] == first["StorageDescriptor"]["Columns"]  # same schema
    rows = table.scan().to_arrow().to_pylist()
    seen = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): r["id"] for r in rows}
    assert len(seen) == len(rows) == 800  # no (partition, offset) twice
    assert sorted(seen.values()) == list(range(800))
    # Exactly once: the committed offsets are the end of each partition, every record in once.
    offsets = json.loads(table.current_snapshot().summary["floe.offsets"])
    assert offsets == {topic: {"0": 400, "1": 400}}
    # Glue lists it as an Iceberg table of the database.
    assert (database, "orders") in glue_catalog(s3).list_tables(database)


def test_glue_columns_follow_iceberg_schema_evolution(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic = f"glue-evo-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    produce_items(kafka, schema_registry, topic, V1, 0, 40)
    glue = GlueSetup(floe_bin, tmp_path, kafka, schema_registry, s3, [{"name": topic, "table": f"{database}.items"}])
    glue.run_batch()
    before = glue.glue_table(database, "items")
    columns = {c["Name"]: c for c in before["StorageDescriptor"]["Columns"]}
    assert columns["qty"]["Type"] == "int" and "region" not in columns
    assert columns["_kafka"]["Type"].startswith("struct<")

    # The producer's schema gains a field and widens qty: one commit evolves the table, and the
    # UpdateTable that moves metadata_location carries the new columns.
    produce_items(kafka, schema_registry, topic, V2, 40, 20)
    glue.run_batch()
    after = glue.glue_table(database, "items")
    table = glue_catalog(s3).load_table(f"{database}.items")
    assert len(table.schemas()) >= 2
    assert_columns_as_pyiceberg_writes_them(after, table)
    columns = {c["Name"]: c for c in after["StorageDescriptor"]["Columns"]}
    assert columns["qty"]["Type"] == "bigint"
    region = table.schema().find_field("region")
    assert columns["region"] == {"Name": "region", "Type": "string", "Parameters": {
        "iceberg.field.id": str(region.field_id), "iceberg.field.optional": "true", "iceberg.field.current": "true"}}
    assert all(c["Parameters"]["iceberg.field.current"] == "true" for c in columns.values())
    # Every Glue version lists the columns of the metadata file it points at: the columns moved
    # in the same UpdateTable as metadata_location, never one request later.
    from pyiceberg.serializers import FromInputFile
    io = table.io
    versions = s3.client("glue").get_table_versions(DatabaseName=database, TableName="items")["TableVersions"]
    assert len(versions) >= 3
    for version in versions:
        metadata = FromInputFile.table_metadata(io.new_input(version["Table"]["Parameters"]["metadata_location"]))
        from pyiceberg.catalog.glue import _to_columns
        assert version["Table"]["StorageDescriptor"]["Columns"] == _to_columns(metadata)
    rows = table.scan().to_arrow().to_pylist()
    assert sorted(r["id"] for r in rows) == list(range(60))


def test_delta_tables_registered_in_glue_and_read_from_its_location(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic = f"glue-delta-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    produce_items(kafka, schema_registry, topic, V1, 0, 40)
    glue = GlueSetup(floe_bin, tmp_path, kafka, schema_registry, s3, [{"name": topic, "table": f"{database}.items"}],
                     defaults={"formats": ["delta"]})
    glue.run_batch()

    registered = glue.glue_table(database, "items")  # a Delta-only topic keeps the table's own name
    assert registered["TableType"] == "EXTERNAL_TABLE"
    assert registered["Parameters"]["table_type"] == "DELTA"
    assert registered["Parameters"]["spark.sql.sources.provider"] == "delta"
    location = registered["StorageDescriptor"]["Location"]
    assert location == f"s3://{glue.bucket}/wh/{database}/items"
    assert registered["StorageDescriptor"]["SerdeInfo"]["Parameters"]["path"] == location
    columns = {c["Name"]: c["Type"] for c in registered["StorageDescriptor"]["Columns"]}
    assert columns["id"] == "bigint" and columns["qty"] == "int" and columns["name"] == "string"

    # Readers that know only what Glue holds: the location.
    reader = s3.admin_key
    delta = DeltaTable(location, storage_options=delta_storage_options(s3, reader)).to_pyarrow_table().to_pylist()
    by_offset = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): (r["id"], r["qty"], r["name"]) for r in delta}
    duck = {(p, o): (i, q, n) for p, o, i, q, n in duckdb_s3(s3, reader).execute(
        f"select _kafka.partition, _kafka.offset, id, qty, name from delta_scan('{location}')").fetchall()}
    assert len(by_offset) == len(delta) == 40
    assert by_offset == duck
    assert sorted(i for i, _, _ in by_offset.values()) == list(range(40))

    # The schema evolves: the registered columns follow, at the same location.
    produce_items(kafka, schema_registry, topic, V2, 40, 20)
    glue.run_batch()
    evolved = glue.glue_table(database, "items")
    columns = {c["Name"]: c["Type"] for c in evolved["StorageDescriptor"]["Columns"]}
    assert columns["region"] == "string" and columns["qty"] == "bigint"
    assert evolved["StorageDescriptor"]["Location"] == location
    log_fields = DeltaTable(location, storage_options=delta_storage_options(s3, reader)).schema().fields
    assert [c["Name"] for c in evolved["StorageDescriptor"]["Columns"]] == [f.name for f in log_fields]
    assert duckdb_s3(s3, reader).execute(
        f"select count(*), count(region) from delta_scan('{location}')").fetchone() == (60, 20)

    # A run with nothing new leaves the Glue table as it is.
    version = evolved["VersionId"]
    glue.run_batch()
    assert glue.glue_table(database, "items")["VersionId"] == version


def test_both_formats_register_two_glue_tables_over_one_copy(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic = f"glue-dual-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    produce(kafka, schema_registry, topic, 0, 300)
    glue = GlueSetup(floe_bin, tmp_path, kafka, schema_registry, s3, [{"name": topic, "table": f"{database}.orders"}],
                     defaults={"formats": ["iceberg", "delta"]})
    glue.run_batch()

    iceberg = glue.glue_table(database, "orders")
    delta = glue.glue_table(database, "orders_delta")
    assert iceberg["Parameters"]["table_type"] == "ICEBERG"
    assert delta["Parameters"]["table_type"] == "DELTA"
    location = f"s3://{glue.bucket}/wh/{database}/orders"
    assert iceberg["StorageDescriptor"]["Location"] == delta["StorageDescriptor"]["Location"] == location
    assert [c["Name"] for c in iceberg["StorageDescriptor"]["Columns"]] == \
        [c["Name"] for c in delta["StorageDescriptor"]["Columns"]]
    # Iceberg's Glue listing shows the Iceberg table only.
    assert glue_catalog(s3).list_tables(database) == [(database, "orders")]

    table = glue_catalog(s3).load_table(f"{database}.orders")
    from_iceberg = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): r["id"]
                    for r in table.scan().to_arrow().to_pylist()}
    dt = DeltaTable(delta["StorageDescriptor"]["Location"], storage_options=delta_storage_options(s3, s3.admin_key))
    from_delta = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): r["id"] for r in dt.to_pyarrow_table().to_pylist()}
    assert len(from_iceberg) == 300
    assert from_iceberg == from_delta
    # One copy: Delta's files are the Iceberg table's data files.
    iceberg_files = {task.file.file_path for task in table.scan().plan_files()}
    assert set(dt.file_uris()) == iceberg_files


def test_catalog_serve_refuses_glue_and_validate_checks_glue_names(floe_bin, s3, tmp_path):
    config = {"warehouse": "s3://b/wh", "catalog": {"type": "glue", "region": REGION, "endpoint": s3.endpoint}}
    path = tmp_path / "floe.yaml"
    path.write_text(json.dumps(config))
    served = subprocess.run([str(floe_bin), "catalog", "serve", "--config", str(path)], capture_output=True, text=True,
                            timeout=60)
    assert served.returncode == 1
    assert "only the built-in catalog (catalog.type: builtin) can be served" in served.stderr
    assert "catalog is glue" in served.stderr
    config.update({"kafka": {"bootstrap_servers": "127.0.0.1:1"},
                   "topics": [{"name": "t", "table": "Lake.orders", "value": "string"}]})
    path.write_text(json.dumps(config))
    validated = subprocess.run([str(floe_bin), "validate", "--config", str(path)], capture_output=True, text=True,
                               timeout=60)
    assert validated.returncode == 1
    assert "topics[0].table: 'Lake.orders': with catalog.type glue" in validated.stdout + validated.stderr


def test_a_policy_without_glue_create_table_is_named_in_the_error(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic = f"glue-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    produce(kafka, schema_registry, topic, 0, 10, partitions=1)
    glue = GlueSetup(floe_bin, tmp_path, kafka, schema_registry, s3, [{"name": topic, "table": f"{database}.orders"}],
                     glue_actions=[a for a in GLUE_ACTIONS if a != "glue:CreateTable"])
    floe = glue.floe
    # Access denied is retried like any storage error (the policy may be fixed while Floe runs),
    # and the log says which action the policy lacks.
    floe.start()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "glue:CreateTable" not in floe.log_tail(200):
            time.sleep(0.5)
        log = floe.log_tail(200)
        assert "glue:CreateTable" in log and "the IAM policy must allow this Glue action" in log, log
        assert glue.secret not in log
    finally:
        floe.stop()
    client = s3.client("glue")
    assert client.get_database(Name=database)["Database"]["Name"] == database  # CreateDatabase was allowed
    assert client.get_tables(DatabaseName=database)["TableList"] == []
