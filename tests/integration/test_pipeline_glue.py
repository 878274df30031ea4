"""catalog.type glue (issue #15): Floe publishes its Iceberg tables to AWS Glue, here moto's
Glue on the same server as the S3 warehouse (IAM authentication enforced, so every Glue request
is SigV4-signed and checked). pyiceberg's own GlueCatalog loads the table and reads exactly the
produced rows; boto3 sees the table registered as Iceberg's GlueCatalog registers it; a second
run moves metadata_location on and keeps the old one as previous_metadata_location; the offsets
in the snapshot summary cover each record once. Floe runs as a user with docs/catalog.md's Glue
policy; one without glue:CreateTable is told so in the log.

Not tested here: moto ignores UpdateTable's VersionId (Glue's optimistic lock), so losing the
race of two concurrent swaps is only unit-tested (tests/unit/catalog/glue_catalog_test.cc)."""
import json
import subprocess
import time
import uuid

import pytest

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_pipeline_avro import ORDER, order


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


def test_floe_publishes_iceberg_tables_to_glue(kafka, schema_registry, floe_bin, s3, tmp_path):
    bucket = s3.create_bucket()
    key, secret = s3.create_user(writer_policy(bucket, GLUE_ACTIONS))
    topic = f"glue-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    produce(kafka, schema_registry, topic, 0, 500)
    catalog = {"type": "glue", "region": REGION, "endpoint": s3.endpoint, "credentials": "static",
               "access_key_id": key, "secret_access_key": secret}
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": f"{database}.orders"}],
                   registry_url=schema_registry.url,
                   extra={"warehouse": f"s3://{bucket}/wh", "storage": s3.storage_config((key, secret)),
                          "catalog": catalog})
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert secret not in result.stderr

    glue = s3.client("glue")
    first = glue.get_table(DatabaseName=database, Name="orders")["Table"]
    assert first["TableType"] == "EXTERNAL_TABLE"
    assert first["Parameters"]["table_type"] == "ICEBERG"
    first_location = first["Parameters"]["metadata_location"]
    assert first_location.startswith(f"s3://{bucket}/wh/{database}/orders/metadata/")
    assert first["StorageDescriptor"]["Location"] == f"s3://{bucket}/wh/{database}/orders"

    table = glue_catalog(s3).load_table(f"{database}.orders")
    assert table.metadata_location == first_location
    rows = table.scan().to_arrow().to_pylist()
    seen = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): r["id"] for r in rows}
    assert len(seen) == len(rows) == 500
    assert sorted(seen.values()) == list(range(500))

    # A second run appends: the location moves on, the old one becomes the previous one.
    produce(kafka, schema_registry, topic, 500, 300)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    second = glue.get_table(DatabaseName=database, Name="orders")["Table"]
    assert second["Parameters"]["metadata_location"] != first_location
    assert second["Parameters"]["table_type"] == "ICEBERG"
    # Every swap records the location it replaced; the first run's last commit is in the chain.
    versions = glue.get_table_versions(DatabaseName=database, TableName="orders")["TableVersions"]
    previous = {v["Table"]["Parameters"].get("previous_metadata_location") for v in versions}
    assert first_location in previous
    assert second["Parameters"]["previous_metadata_location"]

    table = glue_catalog(s3).load_table(f"{database}.orders")
    assert table.metadata_location == second["Parameters"]["metadata_location"]
    rows = table.scan().to_arrow().to_pylist()
    seen = {(r["_kafka"]["partition"], r["_kafka"]["offset"]): r["id"] for r in rows}
    assert len(seen) == len(rows) == 800  # no (partition, offset) twice
    assert sorted(seen.values()) == list(range(800))
    # Exactly once: the committed offsets are the end of each partition, every record in once.
    offsets = json.loads(table.current_snapshot().summary["floe.offsets"])
    assert offsets == {topic: {"0": 400, "1": 400}}
    # Glue lists it as an Iceberg table of the database.
    assert (database, "orders") in glue_catalog(s3).list_tables(database)


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
    bucket = s3.create_bucket()
    key, secret = s3.create_user(writer_policy(bucket, [a for a in GLUE_ACTIONS if a != "glue:CreateTable"]))
    topic = f"glue-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    produce(kafka, schema_registry, topic, 0, 10, partitions=1)
    catalog = {"type": "glue", "region": REGION, "endpoint": s3.endpoint, "credentials": "static",
               "access_key_id": key, "secret_access_key": secret}
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": f"{database}.orders"}],
                   registry_url=schema_registry.url,
                   extra={"warehouse": f"s3://{bucket}/wh", "storage": s3.storage_config((key, secret)),
                          "catalog": catalog})
    # Access denied is retried like any storage error (the policy may be fixed while Floe runs),
    # and the log says which action the policy lacks.
    floe.start()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "glue:CreateTable" not in floe.log_tail(200):
            time.sleep(0.5)
        log = floe.log_tail(200)
        assert "glue:CreateTable" in log and "the IAM policy must allow this Glue action" in log, log
        assert secret not in log
    finally:
        floe.stop()
    glue = s3.client("glue")
    assert glue.get_database(Name=database)["Database"]["Name"] == database  # CreateDatabase was allowed
    assert glue.get_tables(DatabaseName=database)["TableList"] == []
