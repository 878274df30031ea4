"""Iceberg maintenance operations of src/floe/maintenance/ (expiry, manifest merge, orphan
removal) run one at a time through tests/tools/floe_iceberg_maintain on Floe-written tables,
checked with independent readers: pyiceberg (through Floe's REST catalog) and DuckDB's
iceberg_scan; and the same operations on S3 (moto's server), where listing, modification
times and deletes go through the object store. The end-to-end tests of maintenance inside
`floe run` are test_maintenance.py."""
import json
import os
import pathlib
import subprocess
import time
import uuid

import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.table import StaticTable

from tests.integration.fixtures.floe_process import FloeCatalogServer
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_iceberg_compaction import compact, duck, floe_append, rows, sorted_rows

DAY_MS = 24 * 3600 * 1000


@pytest.fixture(scope="module")
def server(floe_bin, tmp_path_factory):
    with FloeCatalogServer(floe_bin, tmp_path_factory.mktemp("maintenance_lib") / "warehouse") as s:
        yield s


@pytest.fixture()
def catalog(server):
    return RestCatalog("floe", uri=server.url)


def maintain(tool, server, op: str, table: str, *args) -> dict:
    cmd = [str(tool("floe_iceberg_maintain")), op, "--catalog-uri", server.catalog_uri, "--warehouse",
           server.warehouse, "--table", table, *[str(a) for a in args]]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def local(path: str) -> pathlib.Path:
    for prefix in ("file://", "file:"):
        if path.startswith(prefix):
            return pathlib.Path(path[len(prefix):])
    return pathlib.Path(path)


def referenced_paths(table) -> list:
    """Every manifest list, manifest and live data file of every snapshot, per pyiceberg."""
    paths = []
    io = table.io
    for snapshot in table.metadata.snapshots:
        paths.append(snapshot.manifest_list)
        for manifest in snapshot.manifests(io):
            paths.append(manifest.manifest_path)
            paths.extend(e.data_file.file_path for e in manifest.fetch_manifest_entry(io, discard_deleted=True))
    return paths


def history_table(tool, server, catalog, tmp_path) -> str:
    """A table with 8 appends carrying floe.offsets and one compaction among them."""
    ns = f"maint_{uuid.uuid4().hex[:8]}"
    catalog.create_namespace(ns)
    name = f"{ns}.events"
    for k in range(8):
        offsets = json.dumps({"events": {"0": (k + 1) * 60}})
        floe_append(tool, server, name, rows(k * 60, 60), tmp_path, ["category"], rows_per_file=20,
                    summary={"floe.offsets": offsets, "floe.commit-id": f"c{k}"})
        if k == 4:
            compact(tool, server, name, target_rows=10_000)
    return name


def test_merge_then_expiry_keep_rows_for_pyiceberg_and_duckdb(server, catalog, tool, tmp_path):
    name = history_table(tool, server, catalog, tmp_path)
    table = catalog.load_table(name)
    expected = sorted_rows(table.scan().to_arrow())
    assert len(expected) == 480
    offsets = table.current_snapshot().summary["floe.offsets"]
    manifests_before = len(table.current_snapshot().manifests(table.io))
    assert manifests_before >= 4

    merged = maintain(tool, server, "merge-manifests", name, "--min-count", 2)
    assert merged["attempts"] == 1
    assert merged["manifests_before"] == manifests_before
    assert merged["manifests_after"] == 1
    table = catalog.load_table(name)
    snapshot = table.current_snapshot()
    assert snapshot.snapshot_id == merged["snapshot_id"]
    assert snapshot.summary.operation.value == "replace"
    assert snapshot.summary["floe.offsets"] == offsets
    assert len(snapshot.manifests(table.io)) == 1
    assert sorted_rows(table.scan().to_arrow()) == expected
    files = list(table.scan().plan_files())
    assert sum(f.file.record_count for f in files) == 480
    con = duck()
    assert con.execute(f"SELECT count(*), sum(id) FROM iceberg_scan('{merged['metadata_location']}')").fetchone() == (
        480, 480 * 479 // 2)

    # Expire everything but the newest 3 snapshots ("now" 8 days ahead: all are older than 7 days).
    history = [s.snapshot_id for s in table.metadata.snapshots]
    later = int(time.time() * 1000) + 8 * DAY_MS
    plan = maintain(tool, server, "expire", name, "--min-snapshots", 3, "--now-ms", later, "--dry-run")
    assert catalog.load_table(name).metadata.snapshots == table.metadata.snapshots
    assert all(local(p).exists() for p in plan["deleted_paths"])
    expired = maintain(tool, server, "expire", name, "--min-snapshots", 3, "--now-ms", later)
    assert expired["expired_snapshot_ids"] == plan["expired_snapshot_ids"] == history[:-3]
    assert sorted(expired["deleted_paths"]) == sorted(plan["deleted_paths"])
    assert expired["data_files"] > 0  # the small files the compaction replaced
    assert not any(local(p).exists() for p in expired["deleted_paths"])

    table = catalog.load_table(name)
    assert [s.snapshot_id for s in table.metadata.snapshots] == history[-3:]
    assert sorted_rows(table.scan().to_arrow()) == expected
    assert table.current_snapshot().summary["floe.offsets"] == offsets
    missing = [p for p in referenced_paths(table) if not local(p).exists()]
    assert missing == []
    # Time travel: a kept snapshot reads; an expired one is refused cleanly.
    assert sorted_rows(table.scan(snapshot_id=history[-2]).to_arrow()) == expected
    with pytest.raises(ValueError):
        table.scan(snapshot_id=history[0]).to_arrow()
    con = duck()
    assert con.execute(f"SELECT count(*) FROM iceberg_scan('{expired['metadata_location']}')").fetchone()[0] == 480
    con.execute(f"ATTACH '' AS floe (TYPE iceberg, ENDPOINT '{server.url}', AUTHORIZATION_TYPE 'none')")
    ns, t = name.split(".")
    assert con.execute(f'SELECT count(*) FROM floe."{ns}".{t}').fetchone()[0] == 480


def test_orphan_removal_spares_live_young_and_extra_live_files(server, catalog, tool, tmp_path):
    name = history_table(tool, server, catalog, tmp_path)
    table = catalog.load_table(name)
    expected = sorted_rows(table.scan().to_arrow())
    location = local(table.metadata.location)
    zombie = location / "data" / "category=a" / "0-999-zombie.parquet"  # a fenced writer's file
    zombie.parent.mkdir(parents=True, exist_ok=True)
    zombie.write_bytes(b"PAR1 never committed")
    delta_live = location / "data" / "delta-only.parquet"
    delta_live.write_bytes(b"PAR1 in the Delta log")
    delta_log = location / "_delta_log" / "00000000000000000000.json"
    delta_log.parent.mkdir()
    delta_log.write_text("{}")
    young = location / "data" / "in-flight.parquet"
    young.write_bytes(b"PAR1 being written")
    later = int(time.time() * 1000) + 2 * DAY_MS
    os.utime(young, (later / 1000, later / 1000))

    plan = maintain(tool, server, "orphans", name, "--now-ms", later, "--dry-run", "--extra-live",
                    "data/delta-only.parquet")
    assert [local(p) for p in plan["orphans"]] == [zombie]
    assert zombie.exists()
    done = maintain(tool, server, "orphans", name, "--now-ms", later, "--extra-live", "data/delta-only.parquet")
    assert [local(p) for p in done["orphans"]] == [zombie]
    assert done["young_files"] == 1
    assert not zombie.exists()
    assert delta_live.exists() and delta_log.exists() and young.exists()
    table = catalog.load_table(name)
    assert [p for p in referenced_paths(table) if not local(p).exists()] == []
    assert sorted_rows(table.scan().to_arrow()) == expected


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


def test_expiry_merge_and_orphans_on_s3(s3, tool, tmp_path):
    bucket = s3.create_bucket()
    warehouse = f"s3://{bucket}/wh"
    catalog_uri = f"sqlite://{tmp_path}/catalog.db"
    config = tmp_path / "floe.yaml"
    config.write_text(json.dumps({"warehouse": warehouse, "catalog": {"type": "builtin", "uri": catalog_uri},
                                  "storage": s3.storage_config(s3.admin_key)}))
    client = s3.client("s3")

    def run(op: str, *args) -> dict:
        cmd = [str(tool("floe_iceberg_maintain")), op, "--config", str(config), "--catalog-uri", catalog_uri,
               "--warehouse", warehouse, "--table", "lake.events", *[str(a) for a in args]]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.splitlines()[-1])  # after the store's log line

    def objects() -> set:
        pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket)
        return {f"s3://{bucket}/{o['Key']}" for page in pages for o in page.get("Contents", [])}

    def read(metadata_location: str):
        return StaticTable.from_metadata(metadata_location, properties={
            "s3.endpoint": s3.endpoint, "s3.region": REGION, "s3.access-key-id": s3.admin_key[0],
            "s3.secret-access-key": s3.admin_key[1]})

    seeded = run("seed", "--appends", 6, "--rows", 10)
    assert seeded["location"] == f"{warehouse}/lake/events"
    merged = run("merge-manifests", "--min-count", 2)
    assert merged["manifests_before"] == 6 and merged["manifests_after"] == 1
    later = int(time.time() * 1000) + 8 * DAY_MS
    expired = run("expire", "--min-snapshots", 1, "--now-ms", later)
    # 6 appends + the merge, the merge kept: its one manifest replaced the appends' six.
    assert len(expired["expired_snapshot_ids"]) == 6
    assert expired["manifest_lists"] == 6 and expired["manifests"] == 6 and expired["data_files"] == 0
    assert expired["delete_failures"] == 0
    assert not set(expired["deleted_paths"]) & objects()

    zombie = f"{seeded['location']}/data/0-60-zombie.parquet"
    client.put_object(Bucket=bucket, Key=zombie[len(f"s3://{bucket}/"):], Body=b"PAR1 never committed")
    orphans = run("orphans", "--now-ms", int(time.time() * 1000) + 2 * DAY_MS)
    assert orphans["orphans"] == [zombie]
    assert zombie not in objects()

    table = read(expired["metadata_location"])
    assert sorted(table.scan().to_arrow()["id"].to_pylist()) == list(range(60))
    assert len(table.metadata.snapshots) == 1
    present = objects()
    assert [p for p in referenced_paths(table) if p not in present] == []
