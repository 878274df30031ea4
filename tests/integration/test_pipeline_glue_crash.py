"""Exactly once with catalog.type glue (issue #15): while Avro orders keep arriving, `floe run`
publishing to Glue over an S3 warehouse (moto, IAM enforced) is killed with SIGKILL at random
moments and restarted; a final batch run catches up. pyiceberg's GlueCatalog then reads every
acknowledged (partition, offset) exactly once, and the committed offsets are the topic's end.

Two writers racing on one Glue table: moto ignores UpdateTable's VersionId (Glue's optimistic
lock), so Floe's Glue endpoint is a gate (fixtures/glue_version_gate.py) that enforces it as
AWS does, ConcurrentModificationException for a stale VersionId; the gate itself is checked
with boto3 first. Two `floe run` processes in one consumer group then publish one table
through it while orders arrive, the gate holding each UpdateTable a little so that commits
overlap: it must refuse some, the losers reload and retry, and every record is read once."""
import json
import time
import uuid

import boto3
import botocore.exceptions
import pytest

from tests.integration.fixtures.exactly_once import assert_exactly_once, crash_while_producing, end_offsets
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.glue_version_gate import GlueVersionGate
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_pipeline_crash import avro_orders
from tests.integration.test_pipeline_glue import GLUE_ACTIONS, glue_catalog, writer_policy


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


def orders_arriving(kafka, schema_registry, prefix, partitions):
    """A fresh topic, its table's name in a fresh Glue database, and a producer of 6000 Avro
    orders over 12 s (not started)."""
    topic = f"{prefix}-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=partitions)
    return topic, database, avro_orders(kafka, schema_registry.url, topic, partitions, 6_000, 12)


def glue_sections(s3, glue_endpoint):
    """floe.yaml's warehouse, storage and catalog for a fresh bucket, as a fresh user with the Glue
    policy, Glue at `glue_endpoint`."""
    bucket = s3.create_bucket()
    key, secret = s3.create_user(writer_policy(bucket, GLUE_ACTIONS))
    catalog = {"type": "glue", "region": REGION, "endpoint": glue_endpoint, "credentials": "static",
               "access_key_id": key, "secret_access_key": secret}
    return {"warehouse": f"s3://{bucket}/wh", "storage": s3.storage_config((key, secret)), "catalog": catalog}


class GlueFloeRun(FloeRun):
    """`floe run` of `topic` into `table` in group g-<topic> as static member `instance`, with
    `sections` (glue_sections); tables are read through pyiceberg's GlueCatalog."""

    def __init__(self, floe_bin, workdir, kafka, schema_registry, s3, topic, table, sections, commit_interval,
                 instance):
        super().__init__(floe_bin, workdir, kafka.bootstrap, [{"name": topic, "table": table}],
                         registry_url=schema_registry.url, group_id=f"g-{topic}",
                         defaults={"commit_interval": commit_interval},
                         kafka_properties={"group.instance.id": instance}, extra=sections)
        self.s3 = s3

    def catalog(self):
        return glue_catalog(self.s3)


def test_kill_9_with_glue_then_restart_exactly_once(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic, database, producing = orders_arriving(kafka, schema_registry, "gcrash", 3)
    table = f"{database}.orders"
    floe = GlueFloeRun(floe_bin, tmp_path, kafka, schema_registry, s3, topic, table, glue_sections(s3, s3.endpoint),
                       "500ms", "gcrash-1")
    # Each run is killed 0-2.5 s after its first commit (or 30 s without one): mid-ingestion, whatever the start-up took.
    crash_while_producing(floe, producing, 5, 0.0, 2.5, after_line=" info committed ")
    assert_exactly_once(floe, table, producing.sent)
    loaded = floe.table(table)
    assert json.loads(loaded.current_snapshot().summary["floe.offsets"]) == {
        topic: {str(p): o for p, o in end_offsets(producing.sent).items()}}
    # The kills happened mid-ingestion: several commits, each one a Glue swap.
    assert len(loaded.metadata.snapshots) >= 3, len(loaded.metadata.snapshots)
    versions = s3.client("glue").get_table_versions(DatabaseName=database, TableName="orders")["TableVersions"]
    assert len(versions) >= len(loaded.metadata.snapshots)


def test_the_gate_refuses_an_update_table_with_a_stale_version_id(s3):
    """Glue's lock as the gate enforces it, seen by boto3: a VersionId that is no longer the current
    one is refused with ConcurrentModificationException and changes nothing."""
    database = f"gate_{uuid.uuid4().hex[:8]}"
    admin = s3.client("glue")
    admin.create_database(DatabaseInput={"Name": database})
    admin.create_table(DatabaseName=database, TableInput={"Name": "t", "Parameters": {"metadata_location": "m0"}})
    with GlueVersionGate(s3) as gate:
        key, secret = s3.admin_key
        glue = boto3.client("glue", endpoint_url=gate.endpoint, region_name=REGION, aws_access_key_id=key,
                            aws_secret_access_key=secret)
        read = glue.get_table(DatabaseName=database, Name="t")["Table"]["VersionId"]
        glue.update_table(DatabaseName=database, VersionId=read,
                          TableInput={"Name": "t", "Parameters": {"metadata_location": "m1"}})
        with pytest.raises(botocore.exceptions.ClientError) as refused:
            glue.update_table(DatabaseName=database, VersionId=read,
                              TableInput={"Name": "t", "Parameters": {"metadata_location": "m2"}})
        assert refused.value.response["Error"]["Code"] == "ConcurrentModificationException"
        assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
        table = admin.get_table(DatabaseName=database, Name="t")["Table"]
        assert table["Parameters"]["metadata_location"] == "m1"
        assert gate.refused == [(f"{database}.t", read, table["VersionId"])] and gate.applied == 1
        # Without a VersionId Glue compares nothing: the update is applied.
        glue.update_table(DatabaseName=database, TableInput={"Name": "t", "Parameters": {"metadata_location": "m3"}})
        assert admin.get_table(DatabaseName=database, Name="t")["Table"]["Parameters"]["metadata_location"] == "m3"
        assert gate.unversioned == 1


def test_two_writers_racing_on_one_glue_table_stay_exactly_once(kafka, schema_registry, floe_bin, s3, tmp_path):
    topic, database, producing = orders_arriving(kafka, schema_registry, "grace", 6)
    table = f"{database}.orders"
    # The gate holds each UpdateTable 300 ms: the other writer's GetTable meanwhile still sees
    # the version about to be replaced, so its UpdateTable names a stale one.
    with GlueVersionGate(s3, delay=0.3) as gate:
        sections = glue_sections(s3, gate.endpoint)
        a, b = (GlueFloeRun(floe_bin, tmp_path / name, kafka, schema_registry, s3, topic, table, sections, "200ms",
                            f"grace-{name}")
                for name in ("a", "b"))
        producing.start()
        a.start()
        b.start()
        try:
            producing.join(120)
            assert producing.sent is not None
            time.sleep(1)
        finally:
            assert b.stop() == 0, b.log_tail()
            assert a.stop() == 0, a.log_tail()
        result = a.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
    print(f"gate: {len(gate.refused)} stale UpdateTables refused, {gate.applied} applied")
    assert_exactly_once(a, table, producing.sent)
    assert a.committed_offsets(table) == {topic: end_offsets(producing.sent)}
    # Both processes committed, and the race really happened: stale versions were refused.
    assert "committed" in a.log_path.read_text() and "committed" in b.log_path.read_text()
    assert gate.refused, "no UpdateTable lost the race"
    assert gate.unversioned == 0  # Floe always names the version it read
    # Glue's history is one chain: every version replaced the one before it.
    versions = s3.client("glue").get_table_versions(DatabaseName=database, TableName="orders")["TableVersions"]
    chain = [v["Table"]["Parameters"] for v in sorted(versions, key=lambda v: int(v["VersionId"]))]
    for before, after in zip(chain, chain[1:]):
        assert after["previous_metadata_location"] == before["metadata_location"]
    assert len(chain) == gate.applied + 1  # the creation, then each applied swap
