"""Exactly once with catalog.type glue (issue #15): while Avro orders keep arriving, `floe run`
publishing to Glue over an S3 warehouse (moto, IAM enforced) is killed with SIGKILL at random
moments and restarted; a final batch run catches up. pyiceberg's GlueCatalog then reads every
acknowledged (partition, offset) exactly once, and the committed offsets are the topic's end.

Not tested here: two writers racing on one Glue table. moto does not enforce UpdateTable's
VersionId (Glue's optimistic lock), so a lost race cannot be produced against it; that path is
unit-tested (tests/unit/catalog/glue_catalog_test.cc)."""
import json
import uuid

import pytest

from tests.integration.fixtures.exactly_once import assert_exactly_once, crash_while_producing, end_offsets
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_pipeline_crash import avro_orders
from tests.integration.test_pipeline_glue import GLUE_ACTIONS, glue_catalog, writer_policy


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


class GlueFloeRun(FloeRun):
    """FloeRun whose tables are read through pyiceberg's GlueCatalog."""

    def __init__(self, *args, s3=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.s3 = s3

    def catalog(self):
        return glue_catalog(self.s3)


def test_kill_9_with_glue_then_restart_exactly_once(kafka, schema_registry, floe_bin, s3, tmp_path):
    bucket = s3.create_bucket()
    key, secret = s3.create_user(writer_policy(bucket, GLUE_ACTIONS))
    topic = f"gcrash-{uuid.uuid4().hex[:8]}"
    database = f"lake_{uuid.uuid4().hex[:8]}"
    table = f"{database}.orders"
    kafka.create_topic(topic, partitions=3)
    producing = avro_orders(kafka, schema_registry.url, topic, 3, 6_000, 12)
    catalog = {"type": "glue", "region": REGION, "endpoint": s3.endpoint, "credentials": "static",
               "access_key_id": key, "secret_access_key": secret}
    floe = GlueFloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": table}],
                       registry_url=schema_registry.url, group_id=f"g-{topic}",
                       defaults={"commit_interval": "500ms"}, kafka_properties={"group.instance.id": "gcrash-1"},
                       extra={"warehouse": f"s3://{bucket}/wh", "storage": s3.storage_config((key, secret)),
                              "catalog": catalog},
                       s3=s3)
    crash_while_producing(floe, producing, 5, 1.5, 4.0)
    assert_exactly_once(floe, table, producing.sent)
    loaded = floe.table(table)
    assert json.loads(loaded.current_snapshot().summary["floe.offsets"]) == {
        topic: {str(p): o for p, o in end_offsets(producing.sent).items()}}
    # The kills happened mid-ingestion: several commits, each one a Glue swap.
    assert len(loaded.metadata.snapshots) >= 3, len(loaded.metadata.snapshots)
    versions = s3.client("glue").get_table_versions(DatabaseName=database, TableName="orders")["TableVersions"]
    assert len(versions) >= len(loaded.metadata.snapshots)
