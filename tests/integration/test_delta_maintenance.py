"""Delta maintenance (src/floe/maintenance/: compaction, vacuum, log retention; driven by
tests/tools/floe_delta_maintain.cc) on a table Floe's Delta writer made
(tests/tools/floe_delta_append.cc), checked with independent readers: delta-rs (`deltalake`)
and DuckDB's delta extension read the same rows before and after each step, delta-rs time
travel reads versions inside the retention windows, and delta-rs's own vacuum agrees on which
files are removable. The dual-format mirror is covered by tests/unit/maintenance/ and by the
pipeline tests of `floe run`."""
import json
import os
import pathlib
import subprocess
import time

import deltalake
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.integration.fixtures.duckdb_ext import connect

DAY_MS = 24 * 3600 * 1000
ROWS_PER_COMMIT = 20


def run(tool, name, *args):
    result = subprocess.run([str(tool(name)), *map(str, args)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def append_commit(tool, tmp_path, location, commit):
    ids = list(range(commit * ROWS_PER_COMMIT, (commit + 1) * ROWS_PER_COMMIT))
    data = pa.table({
        "id": pa.array(ids, pa.int64()),
        "p": pa.array(["a" if k % 2 == 0 else "b" for k in ids]),
        "v": pa.array([f"value-{k}" for k in ids]),
    })
    path = tmp_path / f"in-{commit}.parquet"
    pq.write_table(data, path)
    run(tool, "floe_delta_append", "--location", location, "--input", path, "--partition-by", "p",
        "--checkpoint-interval", 5, "--txn", f"floe:orders:0={(commit + 1) * ROWS_PER_COMMIT}")


def expected_rows(commits):
    return [{"id": k, "p": "a" if k % 2 == 0 else "b", "v": f"value-{k}"} for k in range(commits * ROWS_PER_COMMIT)]


def rows_deltalake(location, version=None):
    dt = deltalake.DeltaTable(str(location), version=version)
    rows = dt.to_pyarrow_table().select(["id", "p", "v"]).to_pylist()
    return sorted(rows, key=lambda r: r["id"])


def rows_duckdb(location):
    # Without the partition column: DuckDB's delta extension returns NULL for partition columns
    # of column-mapped tables (docs/delta.md, "Column mapping"), before and after maintenance.
    cur = connect().execute(f"select id, v from delta_scan('{location}') order by id")
    return [{"id": r[0], "v": r[1]} for r in cur.fetchall()]


def without_partition(rows):
    return [{"id": r["id"], "v": r["v"]} for r in rows]


def maintain(tool, operation, location, *args):
    return run(tool, "floe_delta_maintain", operation, "--location", location, *args)


def test_compaction_vacuum_and_log_cleanup_keep_rows_for_deltalake_and_duckdb(tool, tmp_path):
    location = tmp_path / "orders"
    for commit in range(12):  # versions 0..11, checkpoints at 5 and 10, two files per commit
        append_commit(tool, tmp_path, location, commit)
    want = expected_rows(12)
    assert rows_deltalake(location) == want
    assert rows_duckdb(location) == without_partition(want)
    assert len(deltalake.DeltaTable(str(location)).file_uris()) == 24

    # Compaction: one version, one file per partition, same rows and offsets for every reader.
    plan = maintain(tool, "compact", location, "--dry-run")
    assert (plan["rewritten_files"], plan["added_files"], plan["version"]) == (24, 2, None)
    report = maintain(tool, "compact", location)
    assert (report["rewritten_files"], report["added_files"], report["version"]) == (24, 2, 12)
    dt = deltalake.DeltaTable(str(location))
    assert dt.version() == 12
    assert len(dt.file_uris()) == 2
    assert dt.transaction_version("floe:orders:0") == 12 * ROWS_PER_COMMIT
    assert dt.history(1)[0]["operation"] == "OPTIMIZE"
    adds = pa.table(dt.get_add_actions(flatten=True)).to_pylist()
    assert sorted(a["num_records"] for a in adds) == [120, 120]
    assert rows_deltalake(location) == want
    assert rows_duckdb(location) == without_partition(want)
    # Time travel to the version before: the small files, the same rows.
    assert rows_deltalake(location, version=11) == want
    assert len(deltalake.DeltaTable(str(location), version=11).file_uris()) == 24

    # Vacuum: inside deletedFileRetentionDuration (7 days) nothing goes; delta-rs's own
    # vacuum, told to ignore the window, names the same 24 removed files as Floe's.
    assert maintain(tool, "vacuum", location, "--dry-run")["deleted"] == []
    removable = dt.vacuum(retention_hours=0, dry_run=True, enforce_retention_duration=False)
    later = int(time.time() * 1000) + 8 * DAY_MS
    listed = maintain(tool, "vacuum", location, "--now-ms", later, "--dry-run")
    assert sorted(pathlib.Path(u).name for u in listed["deleted"]) == sorted(pathlib.Path(p).name for p in removable)
    vacuumed = maintain(tool, "vacuum", location, "--now-ms", later)
    assert len(vacuumed["deleted"]) == 24 and vacuumed["bytes"] > 0
    assert not any(pathlib.Path(u.removeprefix("file://")).exists() for u in vacuumed["deleted"])
    assert rows_deltalake(location) == want
    assert rows_duckdb(location) == without_partition(want)

    # Log retention: versions 0..12 written 40 days ago (older than delta.logRetentionDuration,
    # 30 days), 13..15 now. The cutoff checkpoint is 10: versions before it go, 10.. stay.
    for commit in range(12, 15):
        append_commit(tool, tmp_path, location, commit)
    log = location / "_delta_log"
    old = time.time() - 40 * 24 * 3600
    for version in range(13):
        os.utime(log / f"{version:020d}.json", (old, old))
    cleaned = maintain(tool, "cleanup-log", location)
    assert cleaned["cutoff_checkpoint"] == 10
    assert cleaned["oldest_version_kept"] == 10
    assert sorted(pathlib.Path(f).name for f in cleaned["deleted"]) == sorted(
        [f"{v:020d}.json" for v in range(10)] + [f"{5:020d}.checkpoint.parquet"])
    want = expected_rows(15)
    assert rows_deltalake(location) == want
    assert rows_duckdb(location) == without_partition(want)
    # Inside the window: the compacted version and the ones after it read as they were.
    assert rows_deltalake(location, version=12) == expected_rows(12)
    assert rows_deltalake(location, version=13) == expected_rows(13)
    # Outside it: refused, not read wrongly.
    with pytest.raises(Exception):
        rows_deltalake(location, version=3)

    # Floe's replay starts from the kept checkpoint too: another compaction sees every row.
    again = maintain(tool, "compact", location)
    assert again["version"] == 15 + 1
    assert rows_deltalake(location) == want
    assert rows_duckdb(location) == without_partition(want)
    references = maintain(tool, "references", location)
    assert len(references["live"]) == 2
