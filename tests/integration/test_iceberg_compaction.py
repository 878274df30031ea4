"""Compaction of Floe-written Iceberg tables (tests/tools/floe_iceberg_compact: live files
from the manifests, small files merged per partition, a "replace" snapshot), checked with
independent readers: pyiceberg (through Floe's REST catalog) and DuckDB's iceberg_scan."""
import datetime as dt
import json
import subprocess
import time
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyiceberg.catalog.rest import RestCatalog

from tests.integration.fixtures.floe_process import FloeCatalogServer

START = dt.datetime(2026, 3, 1, tzinfo=dt.timezone.utc)
ARROW_SCHEMA = pa.schema([("id", pa.int64()), ("category", pa.string()), ("amount", pa.float64()),
                          ("ts", pa.timestamp("us", tz="UTC"))])


@pytest.fixture(scope="module")
def server(floe_bin, tmp_path_factory):
    with FloeCatalogServer(floe_bin, tmp_path_factory.mktemp("compaction") / "warehouse") as s:
        yield s


@pytest.fixture()
def catalog(server):
    return RestCatalog("floe", uri=server.url)


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def rows(first_id: int, n: int) -> pa.Table:
    ids = range(first_id, first_id + n)
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "category": pa.array(["abc"[i % 3] for i in ids]),
        "amount": pa.array([i / 8 for i in ids], pa.float64()),
        "ts": pa.array([START + dt.timedelta(hours=i % 48) for i in ids], pa.timestamp("us", tz="UTC")),
    }, schema=ARROW_SCHEMA)


def floe_append(tool, server, table: str, data: pa.Table, tmp_path, partition_by, summary=None,
                rows_per_file: int = 40) -> dict:
    src = tmp_path / f"in-{uuid.uuid4().hex}.parquet"
    pq.write_table(data, src)
    args = [str(tool("floe_iceberg_append")), "--catalog-uri", server.catalog_uri, "--warehouse", server.warehouse,
            "--table", table, "--input", str(src), "--rows-per-file", str(rows_per_file), "--partition-by",
            *partition_by]
    if summary is not None:
        args += ["--summary", json.dumps(summary)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def compact_args(tool, server, table: str, target_rows: int) -> list:
    return [str(tool("floe_iceberg_compact")), "--catalog-uri", server.catalog_uri, "--warehouse", server.warehouse,
            "--table", table, "--target-rows", str(target_rows)]


def compact(tool, server, table: str, target_rows: int) -> dict:
    out = subprocess.run(compact_args(tool, server, table, target_rows), capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def wait_for_file(path, proc, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.02)


def sorted_rows(arrow_table: pa.Table) -> list:
    return arrow_table.sort_by("id").to_pylist()


def duck():
    from tests.integration.fixtures.duckdb_ext import connect
    return connect()


def test_compaction_keeps_rows_history_and_offsets(server, catalog, tool, tmp_path):
    ns = unique("compact")
    catalog.create_namespace(ns)
    name = f"{ns}.events"
    per_append, appends = 120, 6
    for k in range(appends):
        offsets = json.dumps({"events": {"0": (k + 1) * per_append}})
        floe_append(tool, server, name, rows(k * per_append, per_append), tmp_path, ["category", "day(ts)"],
                    summary={"floe.offsets": offsets, "floe.commit-id": f"c{k}"})
    n = per_append * appends
    table = catalog.load_table(name)
    before = table.current_snapshot()
    expected = sorted_rows(table.scan().to_arrow())
    assert len(expected) == n
    files_before = len(list(table.scan().plan_files()))
    assert files_before > 30  # many small files: 3 categories x 2 days, 40-row batches

    result = compact(tool, server, name, target_rows=1000)
    assert result["files_before"] == files_before
    assert result["rewritten_files"] == files_before
    assert result["files_after"] == result["added_files"] == 6  # one file per partition

    table = catalog.load_table(name)
    snapshot = table.current_snapshot()
    assert snapshot.snapshot_id == result["snapshot_id"]
    assert snapshot.parent_snapshot_id == before.snapshot_id
    assert snapshot.summary.operation.value == "replace"
    assert snapshot.summary["deleted-data-files"] == str(files_before)
    assert snapshot.summary["added-data-files"] == "6"
    assert snapshot.summary["deleted-records"] == snapshot.summary["added-records"] == str(n)
    assert snapshot.summary["total-records"] == str(n)
    assert snapshot.summary["total-data-files"] == "6"
    # The pipeline's committed offsets survive the compaction unchanged.
    assert snapshot.summary["floe.offsets"] == before.summary["floe.offsets"]
    assert json.loads(snapshot.summary["floe.offsets"]) == {"events": {"0": n}}

    assert sorted_rows(table.scan().to_arrow()) == expected
    assert len(list(table.scan().plan_files())) == 6
    # Partition values survived: pruning on category and day still selects single files.
    one = table.scan(row_filter="category == 'b' and ts >= '2026-03-02T00:00:00+00:00'")
    assert len(list(one.plan_files())) == 1
    assert sorted(r["id"] for r in one.to_arrow().to_pylist()) == sorted(
        r["id"] for r in expected if r["category"] == "b" and r["ts"] >= START + dt.timedelta(days=1))

    # Time travel to the snapshot before the compaction reads the old files.
    old = table.scan(snapshot_id=before.snapshot_id)
    assert len(list(old.plan_files())) == files_before
    assert sorted_rows(old.to_arrow()) == expected

    con = duck()
    count, total = con.execute(
        f"SELECT count(*), sum(id) FROM iceberg_scan('{result['metadata_location']}')").fetchone()
    assert count == n and total == n * (n - 1) // 2
    con.execute(f"ATTACH '' AS floe (TYPE iceberg, ENDPOINT '{server.url}', AUTHORIZATION_TYPE 'none')")
    assert con.execute(f'SELECT count(*) FROM floe."{ns}".events').fetchone()[0] == n

    # Nothing small is left: a second run changes nothing.
    again = compact(tool, server, name, target_rows=1000)
    assert again["files_before"] == again["files_after"] == 6
    assert again["rewritten_files"] == 0
    assert again["snapshot_id"] == snapshot.snapshot_id
    assert catalog.load_table(name).current_snapshot().snapshot_id == snapshot.snapshot_id


def test_target_rows_splits_merged_output(server, catalog, tool, tmp_path):
    ns = unique("split")
    catalog.create_namespace(ns)
    name = f"{ns}.t"
    for k in range(5):
        floe_append(tool, server, name, rows(k * 90, 90), tmp_path, ["category"], rows_per_file=30)
    table = catalog.load_table(name)
    expected = sorted_rows(table.scan().to_arrow())
    files_before = len(list(table.scan().plan_files()))
    # 150 rows per category, merged into files of at most 100 rows: 2 per category.
    result = compact(tool, server, name, target_rows=100)
    assert result["files_before"] == files_before and files_before > 6
    assert result["files_after"] == 6
    table = catalog.load_table(name)
    tasks = list(table.scan().plan_files())
    assert len(tasks) == 6
    assert sorted(t.file.record_count for t in tasks) == [50, 50, 50, 100, 100, 100]
    assert sorted_rows(table.scan().to_arrow()) == expected


def test_pyiceberg_appends_after_compaction_and_its_files_compact_too(server, catalog, tool, tmp_path):
    ns = unique("mixed")
    catalog.create_namespace(ns)
    name = f"{ns}.t"
    for k in range(4):
        floe_append(tool, server, name, rows(k * 60, 60), tmp_path, ["category"], rows_per_file=20)
    first = compact(tool, server, name, target_rows=10_000)
    assert first["files_after"] == 3

    table = catalog.load_table(name)
    pyiceberg_rows = rows(1000, 9)
    table.append(pyiceberg_rows)  # pyiceberg's fast append on top of Floe's replace snapshot
    table.append(rows(2000, 9))
    table = catalog.load_table(name)
    assert table.scan().to_arrow().num_rows == 240 + 18
    assert table.current_snapshot().summary["total-records"] == str(240 + 18)
    expected = sorted_rows(table.scan().to_arrow())
    files_before = len(list(table.scan().plan_files()))
    assert files_before == 3 + 6

    # pyiceberg's Parquet files (their own field ids, pyarrow's types) merge with Floe's.
    second = compact(tool, server, name, target_rows=10_000)
    assert second["files_before"] == files_before
    assert second["files_after"] == 3
    table = catalog.load_table(name)
    assert sorted_rows(table.scan().to_arrow()) == expected
    assert len(list(table.scan().plan_files())) == 3
    con = duck()
    assert con.execute(f"SELECT count(*) FROM iceberg_scan('{second['metadata_location']}')").fetchone()[0] == 258


def test_decimal_partitions_share_one_avro_type(server, catalog, tool, tmp_path):
    """identity(price) and truncate(price) have one partition type, decimal(9,2): the
    manifests name its Avro fixed type once and refer to it the second time."""
    import decimal
    ns = unique("dec")
    catalog.create_namespace(ns)
    name = f"{ns}.prices"
    prices = [decimal.Decimal("1.25"), decimal.Decimal("-3.50"), decimal.Decimal("250.00")]
    schema = pa.schema([("id", pa.int64()), ("price", pa.decimal128(9, 2))])
    for k in range(3):
        ids = range(k * 30, k * 30 + 30)
        data = pa.table({"id": pa.array(ids, pa.int64()), "price": pa.array([prices[i % 3] for i in ids],
                                                                             pa.decimal128(9, 2))}, schema=schema)
        floe_append(tool, server, name, data, tmp_path, ["price", "truncate[100](price)"], rows_per_file=10)
    table = catalog.load_table(name)
    expected = sorted_rows(table.scan().to_arrow())
    assert len(expected) == 90
    files_before = len(list(table.scan().plan_files()))
    result = compact(tool, server, name, target_rows=1000)
    assert result["files_before"] == files_before > 3
    assert result["files_after"] == 3
    table = catalog.load_table(name)
    tasks = list(table.scan().plan_files())
    assert sorted((t.file.partition[0], t.file.partition[1]) for t in tasks) == [
        (decimal.Decimal("-3.50"), decimal.Decimal("-4.00")), (decimal.Decimal("1.25"), decimal.Decimal("1.00")),
        (decimal.Decimal("250.00"), decimal.Decimal("250.00"))]
    assert sorted_rows(table.scan().to_arrow()) == expected
    assert len(table.scan(row_filter="price == 1.25").to_arrow()) == 30
    con = duck()
    assert con.execute(f"SELECT count(*) FROM iceberg_scan('{result['metadata_location']}')").fetchone()[0] == 90


def test_concurrent_append_makes_compaction_retry(server, catalog, tool, tmp_path):
    """An append lands between the compaction's prepare and its commit: the commit fails its
    assert-ref-snapshot-id requirement, the tool prepares again on fresh metadata, and both
    the merged files and the appended file end up live."""
    ns = unique("race")
    catalog.create_namespace(ns)
    name = f"{ns}.t"
    for k in range(3):
        floe_append(tool, server, name, rows(k * 30, 30), tmp_path, ["category"], rows_per_file=10)
    prepared, go = tmp_path / "prepared", tmp_path / "go"
    proc = subprocess.Popen(compact_args(tool, server, name, 1000) + ["--signal-prepared", str(prepared),
                                                                      "--wait-for", str(go)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_file(prepared, proc)
        catalog.load_table(name).append(rows(5000, 6))  # pyiceberg, meanwhile
        go.touch()
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    result = json.loads(stdout)
    assert result["attempts"] == 2
    table = catalog.load_table(name)
    assert table.current_snapshot().summary.operation.value == "replace"
    assert table.scan().to_arrow().num_rows == 96
    assert sorted(r["id"] for r in table.scan().to_arrow().to_pylist()) == list(range(90)) + list(range(5000, 5006))
    # 3 merged files plus pyiceberg's 3 (one per category), which were not part of the plan.
    assert result["files_after"] == len(list(table.scan().plan_files())) == 6


def test_compaction_of_files_another_compaction_removed_fails(server, catalog, tool, tmp_path):
    ns = unique("twice")
    catalog.create_namespace(ns)
    name = f"{ns}.t"
    for k in range(3):
        floe_append(tool, server, name, rows(k * 30, 30), tmp_path, ["category"], rows_per_file=10)
    prepared, go = tmp_path / "prepared", tmp_path / "go"
    proc = subprocess.Popen(compact_args(tool, server, name, 1000) + ["--signal-prepared", str(prepared),
                                                                      "--wait-for", str(go)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_file(prepared, proc)
        first = compact(tool, server, name, 1000)  # wins the race
        go.touch()
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1
    assert "Conflict" in stderr and "not live" in stderr, stderr
    table = catalog.load_table(name)
    assert table.current_snapshot().snapshot_id == first["snapshot_id"]
    assert table.scan().to_arrow().num_rows == 90
