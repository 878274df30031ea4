"""catalog.type unity (issue #15): Floe registers its Delta tables in Unity Catalog as external
tables (data_source_format DELTA, storage_location = the table's root, Unity's column list),
creating the catalog and schema, and re-registers the columns when the schema evolves.

Unity's open-source server cannot be installed here, so the endpoint is
fixtures/unity_catalog_server.py: every request Floe sends must parse as the request models of
Unity's official SDK (generated from Unity's OpenAPI document), and the table is read back with
that SDK's own client. The rows are read with delta-rs and DuckDB from the location Unity holds."""
import json
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.unity_catalog_server import UnityCatalogServer
from tests.integration.test_pipeline_evolution import V1, V2

TOKEN = "dapi-unity-test-token"


@pytest.fixture(scope="module")
def unity():
    with UnityCatalogServer(token=TOKEN) as server:
        yield server


def unity_floe(floe_bin, tmp_path, kafka, schema_registry, unity, topic, table, catalog):
    return FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": table}],
                   registry_url=schema_registry.url, defaults={"formats": ["delta"]},
                   extra={"catalog": {"type": "unity", "uri": unity.uri, "token": TOKEN, "unity_catalog": catalog}})


def test_delta_tables_registered_in_unity_and_columns_follow_evolution(kafka, schema_registry, floe_bin, unity,
                                                                        tmp_path):
    topic = f"uc-{uuid.uuid4().hex[:8]}"
    catalog = f"floe_{uuid.uuid4().hex[:6]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1, v2 = producer.serializer(V1), producer.serializer(V2)
    for i in range(40):
        producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"}, partition=i % 2)
    producer.flush()
    floe = unity_floe(floe_bin, tmp_path, kafka, schema_registry, unity, topic, "lake.items", catalog)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert TOKEN not in result.stderr
    assert unity.invalid == [], unity.invalid

    info = unity.sdk_table(f"{catalog}.lake.items")
    assert info.table_type.value == "EXTERNAL" and info.data_source_format.value == "DELTA"
    location = info.storage_location
    assert location == f"file://{floe.warehouse_dir}/lake/items"
    columns = {c.name: c for c in info.columns}
    assert columns["id"].type_name.value == "LONG" and columns["id"].type_text == "bigint"
    assert columns["name"].type_name.value == "STRING"
    assert columns["_kafka"].type_name.value == "STRUCT" and columns["_kafka"].type_text.startswith("struct<")
    assert [c.position for c in info.columns] == list(range(len(info.columns)))
    assert "region" not in columns
    # type_json is the Delta log's own field: what Databricks and Spark read the column as.
    first = (floe.warehouse_dir / "lake/items/_delta_log/00000000000000000000.json").read_text().splitlines()
    metadata = next(json.loads(line)["metaData"] for line in first if "metaData" in json.loads(line))
    log_schema = json.loads(metadata["schemaString"])
    assert [json.loads(c.type_json) for c in info.columns] == log_schema["fields"]
    # Every request carried the token; catalog and schema were created once.
    assert all(auth == f"Bearer {TOKEN}" for _, _, _, auth in unity.requests)
    posts = [path for method, path, _, _ in unity.requests if method == "POST"]
    assert posts.count("/api/2.1/unity-catalog/catalogs") == 1 and posts.count("/api/2.1/unity-catalog/schemas") == 1

    # Readers that know only what Unity holds: the location.
    path = location[len("file://"):]
    assert sorted(r["id"] for r in DeltaTable(path).to_pyarrow_table().to_pylist()) == list(range(40))
    assert connect().execute(f"SELECT count(*), sum(id) FROM delta_scan('{path}')").fetchone() == (40, sum(range(40)))

    # An administrator grants a reader access; re-registering for new columns must keep it.
    unity.sdk_grant(f"{catalog}.lake.items", "reader@example.com", ["SELECT"])

    # The producer's schema gains a field: the Delta table evolves, and so do Unity's columns.
    for i in range(40, 60):
        producer.send_avro(topic, v2, {"id": i, "qty": i, "name": f"n{i}", "region": "eu"}, partition=i % 2)
    producer.flush()
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    info = unity.sdk_table(f"{catalog}.lake.items")
    columns = {c.name: c for c in info.columns}
    assert columns["region"].type_name.value == "STRING" and columns["region"].nullable
    assert info.storage_location == location
    assert unity.invalid == [], unity.invalid
    assert unity.sdk_grants(f"{catalog}.lake.items") == {"reader@example.com": ["SELECT"]}
    assert connect().execute(f"SELECT count(*), count(region) FROM delta_scan('{path}')").fetchone() == (60, 20)

    # A run with nothing new changes nothing in Unity (no re-registration).
    before = len([r for r in unity.requests if r[0] != "GET"])
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert len([r for r in unity.requests if r[0] != "GET"]) == before


def test_a_name_unity_holds_for_another_location_is_not_overwritten(kafka, schema_registry, floe_bin, unity,
                                                                   tmp_path):
    topic = f"uc-{uuid.uuid4().hex[:8]}"
    catalog = f"floe_{uuid.uuid4().hex[:6]}"
    kafka.create_topic(topic, partitions=1)
    other = {"name": "items", "catalog_name": catalog, "schema_name": "lake", "table_type": "EXTERNAL",
             "data_source_format": "DELTA", "columns": [], "storage_location": "s3://someone-else/items"}
    unity.route("POST", "/api/2.1/unity-catalog/catalogs", json.dumps({"name": catalog}).encode(), f"Bearer {TOKEN}")
    unity.route("POST", "/api/2.1/unity-catalog/schemas", json.dumps({"name": "lake", "catalog_name": catalog}).encode(),
                f"Bearer {TOKEN}")
    unity.route("POST", "/api/2.1/unity-catalog/tables", json.dumps(other).encode(), f"Bearer {TOKEN}")
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    v1 = producer.serializer(V1)
    for i in range(10):
        producer.send_avro(topic, v1, {"id": i, "qty": i, "name": f"n{i}"})
    producer.flush()
    floe = unity_floe(floe_bin, tmp_path, kafka, schema_registry, unity, topic, "lake.items", catalog)
    result = floe.run_batch()
    # The data is committed (the Delta log is the truth); the registration is refused, loudly.
    assert result.returncode == 0, result.stderr[-3000:]
    log = result.stdout + result.stderr
    assert f"Unity Catalog already has a table {catalog}.lake.items" in log
    assert "s3://someone-else/items" in log
    assert unity.sdk_table(f"{catalog}.lake.items").storage_location == "s3://someone-else/items"
    assert len(DeltaTable(str(floe.warehouse_dir / "lake/items")).to_pyarrow_table()) == 10


def test_config_refuses_iceberg_topics_and_missing_fields_with_unity(floe_bin, tmp_path):
    import subprocess
    config = tmp_path / "floe.yaml"
    config.write_text(json.dumps({
        "kafka": {"bootstrap_servers": "127.0.0.1:1"}, "warehouse": f"file://{tmp_path}/wh",
        "catalog": {"type": "unity", "uri": "http://127.0.0.1:1"},
        "topics": [{"name": "t", "table": "lake.t", "formats": ["iceberg", "delta"]}]}))
    result = subprocess.run([str(floe_bin), "validate", "--config", str(config)], capture_output=True, text=True)
    assert result.returncode != 0
    assert "catalog.unity_catalog: required value is missing" in result.stderr + result.stdout
    assert "use formats: [delta]" in result.stderr + result.stdout
