"""`floe run` with `catalog.type: rest` against Apache Iceberg's own REST catalog server (the
Java test fixture): the server writes the metadata files, Floe the data and manifests, and the
exactly-once offsets travel in the snapshot summary through the REST commit API."""
import uuid

from pyiceberg.catalog.rest import RestCatalog

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.iceberg_rest_fixture import IcebergRestFixture
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_pipeline_avro import ORDER, order


def test_floe_run_commits_through_an_iceberg_rest_catalog(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"rest-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(500):
        producer.send_avro(topic, serializer, order(i), partition=i % 2)
    producer.flush()
    with IcebergRestFixture(tmp_path / "rest") as server:
        floe = FloeRun(floe_bin, tmp_path / "floe", kafka.bootstrap, [{"name": topic, "table": "kafka.rest_orders"}],
                       registry_url=schema_registry.url)
        floe.config["catalog"] = {"type": "rest", "uri": server.url}
        floe.config["warehouse"] = server.warehouse
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
        # Again, with more records: offsets come back from the REST catalog's table.
        for i in range(500, 700):
            producer.send_avro(topic, serializer, order(i), partition=i % 2)
        producer.flush()
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
        table = RestCatalog("fixture", uri=server.url).load_table("kafka.rest_orders")
        ids = sorted(r["id"] for r in table.scan().to_arrow().to_pylist())
        assert ids == list(range(700))
        assert '"0":350' in table.current_snapshot().summary["floe.offsets"].replace(" ", "")
