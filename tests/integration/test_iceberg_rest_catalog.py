"""Floe's Iceberg REST catalog (`floe catalog serve`) used by engines written by others:
pyiceberg (reads and writes through it) and DuckDB (ATTACH … TYPE iceberg, iceberg_scan).
Tables are also written by Floe itself (tests/tools/floe_iceberg_append) and read back."""
import datetime as dt
import json
import logging
import pathlib
import subprocess
import uuid

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import NoSuchTableError, NamespaceAlreadyExistsError
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import BucketTransform, DayTransform
from pyiceberg.types import (DoubleType, IntegerType, LongType, NestedField, StringType, TimestamptzType)

from tests.integration.fixtures.floe_process import FloeCatalogServer


@pytest.fixture(scope="module")
def server(floe_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("rest")
    with FloeCatalogServer(floe_bin, root / "warehouse") as s:
        yield s


@pytest.fixture()
def catalog(server):
    return RestCatalog("floe", uri=server.url)


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def duck():
    from tests.integration.fixtures.duckdb_ext import connect
    return connect()


def test_config_and_namespaces(server, catalog):
    cfg = requests.get(f"{server.url}/v1/config", timeout=10).json()
    assert "defaults" in cfg and "overrides" in cfg
    ns = unique("ns")
    catalog.create_namespace(ns, {"owner": "floe-tests"})
    assert (ns,) in catalog.list_namespaces()
    assert catalog.load_namespace_properties(ns)["owner"] == "floe-tests"
    with pytest.raises(NamespaceAlreadyExistsError):
        catalog.create_namespace(ns)
    catalog.update_namespace_properties(ns, removals={"owner"}, updates={"team": "data"})
    assert catalog.load_namespace_properties(ns).get("team") == "data"
    assert "owner" not in catalog.load_namespace_properties(ns)
    nested = (ns, "child")
    catalog.create_namespace(nested)
    assert nested in catalog.list_namespaces(ns)
    catalog.drop_namespace(nested)
    catalog.drop_namespace(ns)
    assert (ns,) not in catalog.list_namespaces()


def test_error_bodies_follow_the_spec(server):
    r = requests.get(f"{server.url}/v1/namespaces/nope/tables/t", timeout=10)
    assert r.status_code == 404
    # NoSuchTableException even though the namespace is what is missing: Java clients only
    # fall back to metadata tables (t.files) on this type.
    assert r.json()["error"]["type"] == "NoSuchTableException"
    # Messages open with Iceberg's own wording (what Java clients and the compatibility kit match).
    assert r.json()["error"]["message"].startswith("Table does not exist: nope.t (namespace nope does not exist)")
    r = requests.get(f"{server.url}/v1/namespaces/nope", timeout=10)
    assert r.status_code == 404 and r.json()["error"]["type"] == "NoSuchNamespaceException"
    assert "Namespace does not exist: nope" in r.json()["error"]["message"]
    r = requests.post(f"{server.url}/v1/tables/rename", timeout=10,
                      json={"source": {"namespace": ["nope"], "name": "a"}, "destination": {"namespace": ["nope2"], "name": "b"}})
    assert r.status_code == 404 and r.json()["error"]["type"] == "NoSuchNamespaceException"
    assert r.json()["error"]["message"].startswith("Namespace does not exist: nope2")
    ns = f"dup{uuid.uuid4().hex[:6]}"
    assert requests.post(f"{server.url}/v1/namespaces", json={"namespace": [ns]}, timeout=10).status_code == 200
    r = requests.post(f"{server.url}/v1/namespaces", json={"namespace": [ns]}, timeout=10)
    assert r.status_code == 409 and "Namespace already exists: " + ns in r.json()["error"]["message"]
    r = requests.post(f"{server.url}/v1/namespaces", data="{not json", timeout=10)
    assert r.status_code == 400 and r.json()["error"]["type"] == "BadRequestException"
    r = requests.post(f"{server.url}/v1/namespaces", json={"namespace": [".."]}, timeout=10)
    assert r.status_code == 400
    r = requests.head(f"{server.url}/v1/namespaces/nope", timeout=10)
    assert r.status_code == 404
    r = requests.post(f"{server.url}/v1/namespaces", data="x" * (17 << 20), timeout=30)
    assert r.status_code == 413


def test_pyiceberg_creates_appends_and_scans(catalog, caplog):
    ns = unique("py")
    catalog.create_namespace(ns)
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "name", StringType(), required=False),
        NestedField(3, "amount", DoubleType(), required=False),
    )
    table = catalog.create_table(f"{ns}.orders", schema=schema)
    data = pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["a", None, "c"], "amount": [1.5, 2.5, None]},
                    schema=pa.schema([pa.field("id", pa.int64(), False), pa.field("name", pa.string()),
                                      pa.field("amount", pa.float64())]))
    table.append(data)
    table.append(data)
    loaded = catalog.load_table(f"{ns}.orders")
    assert len(loaded.history()) == 2
    result = loaded.scan().to_arrow()
    assert result.num_rows == 6
    assert sorted(result.column("id").to_pylist()) == [1, 1, 2, 2, 3, 3]
    assert (ns, "orders") in catalog.list_tables(ns)
    # A stale writer's requirement on the old snapshot fails with 409; pyiceberg then
    # refreshes and retries, so both appends land exactly once.
    stale = catalog.load_table(f"{ns}.orders")
    loaded.append(data)
    with caplog.at_level(logging.WARNING, logger="pyiceberg"):
        stale.append(data)
    assert any("Commit failed due to a concurrent update" in r.getMessage() for r in caplog.records)
    assert catalog.load_table(f"{ns}.orders").scan().to_arrow().num_rows == 12
    catalog.drop_table(f"{ns}.orders")
    with pytest.raises(NoSuchTableError):
        catalog.load_table(f"{ns}.orders")


def test_commit_with_a_stale_requirement_is_409(server, catalog):
    ns = unique("cas")
    catalog.create_namespace(ns)
    table = catalog.create_table(f"{ns}.t", schema=Schema(NestedField(1, "id", LongType(), required=True)))
    table.append(pa.table({"id": pa.array([1], pa.int64())}, schema=pa.schema([pa.field("id", pa.int64(), False)])))
    body = {"requirements": [{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": 12345}],
            "updates": [{"action": "set-properties", "updates": {"k": "v"}}]}
    r = requests.post(f"{server.url}/v1/namespaces/{ns}/tables/t", json=body, timeout=10)
    assert r.status_code == 409, r.text
    assert r.json()["error"]["type"] == "CommitFailedException"
    assert "assert-ref-snapshot-id" in r.json()["error"]["message"]
    assert "k" not in catalog.load_table(f"{ns}.t").properties
    r = requests.post(f"{server.url}/v1/namespaces/{ns}/tables/t",
                      json={"requirements": [], "updates": [{"action": "no-such-action"}]}, timeout=10)
    assert r.status_code == 400, r.text


def test_pyiceberg_schema_evolution_is_visible_to_readers(catalog):
    ns = unique("evo")
    catalog.create_namespace(ns)
    schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "qty", IntegerType(), required=False))
    table = catalog.create_table(f"{ns}.t", schema=schema)
    arrow_schema = pa.schema([pa.field("id", pa.int64(), False), pa.field("qty", pa.int32())])
    table.append(pa.table({"id": [1, 2], "qty": pa.array([10, 20], pa.int32())}, schema=arrow_schema))
    with table.update_schema() as update:
        update.add_column("note", StringType())
        update.update_column("qty", field_type=LongType())
    table = catalog.load_table(f"{ns}.t")
    assert table.schema().find_field("qty").field_type == LongType()
    new_schema = pa.schema([pa.field("id", pa.int64(), False), pa.field("qty", pa.int64()), pa.field("note", pa.string())])
    table.append(pa.table({"id": [3], "qty": pa.array([2 ** 40], pa.int64()), "note": ["new"]}, schema=new_schema))
    rows = sorted(catalog.load_table(f"{ns}.t").scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert rows == [{"id": 1, "qty": 10, "note": None}, {"id": 2, "qty": 20, "note": None},
                    {"id": 3, "qty": 2 ** 40, "note": "new"}]


def test_floe_written_table_read_by_pyiceberg_and_duckdb(server, catalog, tool, tmp_path):
    ns = unique("floe")
    catalog.create_namespace(ns)
    n = 3000
    start = dt.datetime(2026, 3, 1, tzinfo=dt.timezone.utc)
    data = pa.table({
        "id": pa.array(range(n), pa.int64()),
        "customer": pa.array([f"c{i % 13}" for i in range(n)]),
        "amount": pa.array([i / 4 for i in range(n)], pa.float64()),
        "ts": pa.array([start + dt.timedelta(hours=i) for i in range(n)], pa.timestamp("us", tz="UTC")),
    })
    src = tmp_path / "input.parquet"
    pq.write_table(data, src)
    out = subprocess.run([str(tool("floe_iceberg_append")), "--catalog-uri", server.catalog_uri,
                          "--warehouse", server.warehouse, "--table", f"{ns}.events", "--input", str(src),
                          "--partition-by", "day(ts)", "--rows-per-file", "500"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    table = catalog.load_table(f"{ns}.events")
    scanned = table.scan().to_arrow().sort_by("id")
    assert scanned.num_rows == n
    assert scanned.column("id").to_pylist() == list(range(n))
    assert scanned.column("customer").to_pylist() == data.column("customer").to_pylist()
    assert scanned.column("ts").to_pylist() == data.column("ts").to_pylist()
    # Partition pruning with the day transform: one day's files only.
    day = table.scan(row_filter="ts >= '2026-03-02T00:00:00+00:00' and ts < '2026-03-03T00:00:00+00:00'")
    tasks = list(day.plan_files())
    assert 0 < len(tasks) < result["files"]
    assert day.to_arrow().num_rows == 24
    con = duck()
    count, total = con.execute(f"SELECT count(*), sum(id) FROM iceberg_scan('{result['metadata_location']}')").fetchone()
    assert count == n and total == n * (n - 1) // 2
    con.execute(f"ATTACH '' AS floe (TYPE iceberg, ENDPOINT '{server.url}', AUTHORIZATION_TYPE 'none')")
    assert con.execute(f'SELECT count(*) FROM floe."{ns}".events').fetchone()[0] == n


def test_floe_appends_to_a_table_pyiceberg_created(catalog, server, tool, tmp_path):
    """Floe reads another writer's metadata and manifest list, then adds its own snapshot."""
    ns = unique("mixed")
    catalog.create_namespace(ns)
    schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType(), required=False))
    table = catalog.create_table(f"{ns}.t", schema=schema)
    arrow_schema = pa.schema([pa.field("id", pa.int64(), False), pa.field("name", pa.string())])
    table.append(pa.table({"id": pa.array([1, 2], pa.int64()), "name": ["py", "py"]}, schema=arrow_schema))
    src = tmp_path / "more.parquet"
    pq.write_table(pa.table({"id": pa.array([3, 4, 5], pa.int64()), "name": ["floe"] * 3}, schema=arrow_schema), src)
    out = subprocess.run([str(tool("floe_iceberg_append")), "--catalog-uri", server.catalog_uri,
                          "--warehouse", server.warehouse, "--table", f"{ns}.t", "--input", str(src),
                          "--summary", json.dumps({"floe.offsets": json.dumps({"orders": {"0": 42}})})],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    table = catalog.load_table(f"{ns}.t")
    rows = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert rows == [{"id": 1, "name": "py"}, {"id": 2, "name": "py"}, {"id": 3, "name": "floe"},
                    {"id": 4, "name": "floe"}, {"id": 5, "name": "floe"}]
    snapshot = table.current_snapshot()
    assert snapshot.summary["total-records"] == "5"
    assert json.loads(snapshot.summary["floe.offsets"]) == {"orders": {"0": 42}}
    assert snapshot.parent_snapshot_id == table.history()[0].snapshot_id
    # pyiceberg appends again on top of Floe's snapshot.
    table.append(pa.table({"id": pa.array([6], pa.int64()), "name": ["py"]}, schema=arrow_schema))
    assert catalog.load_table(f"{ns}.t").scan().to_arrow().num_rows == 6


def test_multi_table_transaction_is_all_or_nothing(server, catalog):
    ns = unique("txn")
    catalog.create_namespace(ns)
    for name in ("a", "b"):
        catalog.create_table(f"{ns}.{name}", schema=Schema(NestedField(1, "id", LongType(), required=True)))
    uuid_a = catalog.load_table(f"{ns}.a").metadata.table_uuid

    def change(name, table_uuid):
        return {"identifier": {"namespace": [ns], "name": name},
                "requirements": [{"type": "assert-table-uuid", "uuid": str(table_uuid)}],
                "updates": [{"action": "set-properties", "updates": {"txn": "1"}}]}

    bad = requests.post(f"{server.url}/v1/transactions/commit",
                        json={"table-changes": [change("a", uuid_a), change("b", uuid.uuid4())]}, timeout=10)
    assert bad.status_code == 409, bad.text
    assert "txn" not in catalog.load_table(f"{ns}.a").properties  # a's change did not land alone
    uuid_b = catalog.load_table(f"{ns}.b").metadata.table_uuid
    ok = requests.post(f"{server.url}/v1/transactions/commit",
                       json={"table-changes": [change("a", uuid_a), change("b", uuid_b)]}, timeout=10)
    assert ok.status_code == 204, ok.text
    assert catalog.load_table(f"{ns}.a").properties["txn"] == "1"
    assert catalog.load_table(f"{ns}.b").properties["txn"] == "1"


def test_rename_and_register(server, catalog):
    ns = unique("ren")
    catalog.create_namespace(ns)
    t = catalog.create_table(f"{ns}.old", schema=Schema(NestedField(1, "id", LongType(), required=True)))
    catalog.rename_table(f"{ns}.old", f"{ns}.new")
    assert (ns, "new") in catalog.list_tables(ns) and (ns, "old") not in catalog.list_tables(ns)
    registered = catalog.register_table(f"{ns}.again", t.metadata_location)
    assert registered.metadata.table_uuid == t.metadata.table_uuid


def test_bearer_token_is_required_when_configured(floe_bin, tmp_path):
    with FloeCatalogServer(floe_bin, tmp_path / "wh", token="s3cret") as s:
        assert requests.get(f"{s.url}/v1/config", timeout=10).status_code == 401
        r = requests.get(f"{s.url}/v1/config", headers={"Authorization": "Bearer wrong"}, timeout=10)
        assert r.status_code == 401 and r.json()["error"]["type"] == "NotAuthorizedException"
        cat = RestCatalog("floe", uri=s.url, token="s3cret")
        cat.create_namespace("secured")
        assert ("secured",) in cat.list_namespaces()


def test_rest_server_on_postgresql(floe_bin, tmp_path):
    from tests.integration.fixtures.postgres import PostgresServer
    with PostgresServer(tmp_path / "pg") as pg, \
            FloeCatalogServer(floe_bin, tmp_path / "wh", catalog_uri=pg.database_uri("floe_catalog")) as s:
        cat = RestCatalog("floe", uri=s.url)
        cat.create_namespace("pgns")
        table = cat.create_table("pgns.t", schema=Schema(NestedField(1, "id", LongType(), required=True)))
        table.append(pa.table({"id": pa.array([7, 8], pa.int64())}, schema=pa.schema([pa.field("id", pa.int64(), False)])))
        assert cat.load_table("pgns.t").scan().to_arrow().num_rows == 2
        rows = pg.sql("SELECT table_namespace, table_name FROM iceberg_tables", database="floe_catalog")
        assert "pgns|t" in rows
