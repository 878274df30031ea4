"""Floe's Delta log writer (src/floe/delta/, driven by tests/tools/floe_delta_append.cc),
checked with independent readers: delta-rs (`deltalake`, both its pyarrow path and its
DataFusion/kernel path) and DuckDB's delta extension. Also the other direction: Floe's log
replay of a table delta-rs wrote and checkpointed."""
import datetime
import decimal
import json
import pathlib
import subprocess
import time

import deltalake
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from deltalake import QueryBuilder

from tests.integration.fixtures.duckdb_ext import connect


def all_types(start: int, n: int) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "i": pa.array([None if k % 5 == 0 else k * 10 for k in ids], pa.int32()),
        "s": pa.array([None if k % 7 == 0 else f"name-{k}" for k in ids]),
        "d": pa.array([k / 4 for k in ids]),
        "dec": pa.array([decimal.Decimal(k * 101 - 500) / 100 for k in ids], pa.decimal128(9, 2)),
        "day": pa.array([datetime.date(2026, 1, 1) + datetime.timedelta(days=k) for k in ids]),
        "ts": pa.array([datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
                        + datetime.timedelta(seconds=k, microseconds=k) for k in ids], pa.timestamp("us", tz="UTC")),
        "st": pa.array([None if k % 3 == 0 else {"x": k, "y": f"y{k}"} for k in ids],
                       pa.struct([("x", pa.int64()), ("y", pa.string())])),
        "l": pa.array([[k, k + 1] if k % 2 else [] for k in ids], pa.list_(pa.int64())),
        "m": pa.array([[("k", k)] for k in ids], pa.map_(pa.string(), pa.int64())),
    })


def write_input(tmp_path: pathlib.Path, table: pa.Table, name: str) -> pathlib.Path:
    path = tmp_path / f"{name}.parquet"
    pq.write_table(table, path)
    return path


def append(tool, location, input_path, *args, check=True):
    result = subprocess.run([str(tool("floe_delta_append")), "--location", str(location), "--input", str(input_path),
                             *args], capture_output=True, text=True, timeout=120)
    if check:
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)
    return result


def floe_state(tool, location):
    result = subprocess.run([str(tool("floe_delta_append")), "--location", str(location), "--state"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def rows_deltalake(location):
    return sorted(deltalake.DeltaTable(str(location)).to_pyarrow_table().to_pylist(), key=lambda r: r["id"])


def rows_datafusion(location):
    dt = deltalake.DeltaTable(str(location))
    table = pa.table(QueryBuilder().register("t", dt).execute("select * from t").read_all())
    return sorted(table.to_pylist(), key=lambda r: r["id"])


def rows_duckdb(location, columns="*"):
    con = connect()
    cur = con.execute(f"select {columns} from delta_scan('{location}') order by id")
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def normalize(rows):
    """Readers differ in how they return maps (list of pairs vs dict) and time zones."""
    out = []
    for r in rows:
        r = dict(r)
        if isinstance(r.get("m"), list):
            r["m"] = dict(r["m"])
        if isinstance(r.get("ts"), datetime.datetime):
            r["ts"] = r["ts"].astimezone(datetime.timezone.utc)
        out.append(r)
    return out


def expected(*tables):
    return normalize(sorted(pa.concat_tables(tables).to_pylist(), key=lambda r: r["id"]))


def test_all_types_read_by_deltalake_and_duckdb(tool, tmp_path):
    location = tmp_path / "t"
    data = all_types(0, 50)
    out = append(tool, location, write_input(tmp_path, data, "in"), "--txn", "floe:orders:0=50")
    assert out["version"] == 0
    want = expected(data)
    assert normalize(rows_deltalake(location)) == want
    assert normalize(rows_datafusion(location)) == want
    assert normalize(rows_duckdb(location)) == want
    dt = deltalake.DeltaTable(str(location))
    assert dt.version() == 0
    protocol = dt.protocol()
    assert (protocol.min_reader_version, protocol.min_writer_version) == (2, 5)  # column mapping, nothing else
    assert dt.transaction_version("floe:orders:0") == 50
    assert [f.name for f in dt.schema().fields] == data.schema.names
    # Stats: delta-rs parses them (num_records per file, min/max of a top-level column).
    adds = pa.table(dt.get_add_actions(flatten=True)).to_pylist()
    assert adds[0]["num_records"] == 50
    assert adds[0]["min.id"] == 0 and adds[0]["max.id"] == 49
    # DuckDB prunes files with the stats: a filter outside [min, max] reads nothing.
    assert connect().execute(f"select count(*) from delta_scan('{location}') where id > 1000").fetchone()[0] == 0


def test_timestamp_ntz_needs_table_features(tool, tmp_path):
    location = tmp_path / "t"
    data = pa.table({"id": pa.array([1, 2], pa.int64()),
                     "local": pa.array([datetime.datetime(2026, 1, 1, 8), None], pa.timestamp("us"))})
    append(tool, location, write_input(tmp_path, data, "in"))
    protocol = deltalake.DeltaTable(str(location)).protocol()
    assert (protocol.min_reader_version, protocol.min_writer_version) == (3, 7)
    assert set(protocol.reader_features) == {"columnMapping", "timestampNtz"}
    assert set(protocol.writer_features) == {"columnMapping", "timestampNtz"}
    assert rows_datafusion(location) == data.to_pylist()
    assert rows_duckdb(location) == data.to_pylist()
    # delta-rs's pyarrow path refuses the explicit columnMapping reader feature (it does not
    # apply physical names there); its DataFusion path above reads the table (docs/delta.md).
    with pytest.raises(Exception, match="columnMapping"):
        deltalake.DeltaTable(str(location)).to_pyarrow_table()


@pytest.mark.parametrize("mapping", ["none", "name"])
def test_several_appends_partitioned(tool, tmp_path, mapping):
    location = tmp_path / "t"
    batches = []
    for k in range(3):
        batch = pa.table({"id": pa.array(range(k * 10, k * 10 + 10), pa.int64()),
                          "region": pa.array(["eu" if j % 2 else "us" for j in range(10)]),
                          "v": pa.array([float(j) for j in range(10)])})
        batches.append(batch)
        out = append(tool, location, write_input(tmp_path, batch, f"in{k}"), "--partition-by", "region",
                     "--column-mapping", mapping, "--txn", f"floe:t:0={(k + 1) * 10}")
        assert out["version"] == k
        assert out["files"] == 2
    want = sorted(pa.concat_tables(batches).to_pylist(), key=lambda r: r["id"])
    assert rows_deltalake(location) == want
    assert rows_datafusion(location) == want
    dt = deltalake.DeltaTable(str(location))
    assert dt.metadata().partition_columns == ["region"]
    assert dt.transaction_version("floe:t:0") == 30
    assert {p for r in pa.table(dt.get_add_actions(flatten=True)).to_pylist() for p in [r["partition.region"]]} == {
        "eu", "us"}
    if mapping == "none":
        assert rows_duckdb(location) == want
    else:
        # DuckDB 1.5.5's delta extension returns NULL for partition columns of tables with
        # column mapping (docs/delta.md, "Readers"): only the data columns are compared.
        assert rows_duckdb(location, "id, v") == [{"id": r["id"], "v": r["v"]} for r in want]


def test_schema_evolution_adds_a_column(tool, tmp_path):
    location = tmp_path / "t"
    first = pa.table({"id": pa.array([1, 2], pa.int64()), "name": pa.array(["a", "b"])})
    second = pa.table({"id": pa.array([3], pa.int64()), "name": pa.array(["c"]), "score": pa.array([9.5])})
    append(tool, location, write_input(tmp_path, first, "a"))
    out = append(tool, location, write_input(tmp_path, second, "b"))
    assert out["version"] == 1
    want = [{"id": 1, "name": "a", "score": None}, {"id": 2, "name": "b", "score": None},
            {"id": 3, "name": "c", "score": 9.5}]
    assert rows_deltalake(location) == want
    assert rows_datafusion(location) == want
    assert rows_duckdb(location) == want
    state = floe_state(tool, location)
    assert [(f["id"], f["name"]) for f in state["fields"]] == [(1, "id"), (2, "name"), (3, "score")]
    assert state["configuration"]["delta.columnMapping.maxColumnId"] == "3"
    # Same table id across the two metaData actions.
    log = location / "_delta_log"
    ids = [json.loads(line)["metaData"]["id"] for f in sorted(log.glob("*.json"))
           for line in f.read_text().splitlines() if "metaData" in json.loads(line)]
    assert len(ids) == 2 and ids[0] == ids[1]


def test_checkpoint_every_ten_commits(tool, tmp_path):
    location = tmp_path / "t"
    batches = []
    for k in range(12):
        batch = all_types(k * 5, 5)
        batches.append(batch)
        out = append(tool, location, write_input(tmp_path, batch, f"in{k}"), "--txn", f"floe:t:{k % 2}={k}")
        assert out["version"] == k
    log = location / "_delta_log"
    assert (log / "00000000000000000010.checkpoint.parquet").exists()
    assert json.loads((log / "_last_checkpoint").read_text())["version"] == 10
    # Readers must get everything even without the JSON commits the checkpoint covers.
    for v in range(0, 11):
        (log / f"{v:020d}.json").rename(log / f"{v:020d}.json.hidden")
    want = expected(*batches)
    assert normalize(rows_deltalake(location)) == want
    assert normalize(rows_datafusion(location)) == want
    assert normalize(rows_duckdb(location)) == want
    dt = deltalake.DeltaTable(str(location))
    assert dt.version() == 11
    assert dt.transaction_version("floe:t:0") == 10 and dt.transaction_version("floe:t:1") == 11
    state = floe_state(tool, location)
    assert state["version"] == 11 and state["num_files"] == 12
    assert state["txns"] == {"floe:t:0": 10, "floe:t:1": 11}


def test_floe_replays_a_table_deltalake_wrote_and_checkpointed(tool, tmp_path):
    location = tmp_path / "t"
    for k in range(4):
        deltalake.write_deltalake(str(location), pa.table({"id": pa.array([k], pa.int64()), "p": [f"p{k % 2}"]}),
                                  mode="append", partition_by=["p"])
    dt = deltalake.DeltaTable(str(location))
    dt.create_checkpoint()
    deltalake.write_deltalake(str(location), pa.table({"id": pa.array([9], pa.int64()), "p": ["p1"]}), mode="append")
    dt = deltalake.DeltaTable(str(location))
    dt.delete("id = 0")  # a remove action (and an add of the rewritten file, if any)
    dt = deltalake.DeltaTable(str(location))
    state = floe_state(tool, location)
    assert state["version"] == dt.version()
    assert state["num_files"] == len(dt.file_uris())
    assert state["partition_columns"] == ["p"]
    assert [(f["name"], f["type"]) for f in state["fields"]] == [("id", "long"), ("p", "string")]
    # And Floe can append to it (no column mapping on this table: mode none is kept).
    out = append(tool, location, write_input(tmp_path, pa.table({"id": pa.array([100], pa.int64()), "p": ["p0"]}),
                                             "more"))
    assert out["version"] == dt.version() + 1
    ids = sorted(r["id"] for r in deltalake.DeltaTable(str(location)).to_pyarrow_table().to_pylist())
    assert ids == [1, 2, 3, 9, 100]
    assert sorted(r[0] for r in connect().execute(f"select id from delta_scan('{location}')").fetchall()) == ids


def test_concurrent_appends_one_wins_the_other_retries(tool, tmp_path):
    location = tmp_path / "t"
    base = pa.table({"id": pa.array([0], pa.int64())})
    append(tool, location, write_input(tmp_path, base, "base"))
    a_in = write_input(tmp_path, pa.table({"id": pa.array([1], pa.int64())}), "a")
    b_in = write_input(tmp_path, pa.table({"id": pa.array([2], pa.int64())}), "b")
    ready, go = tmp_path / "a.ready", tmp_path / "b.done"
    a = subprocess.Popen([str(tool("floe_delta_append")), "--location", str(location), "--input", str(a_in),
                          "--txn", "floe:t:0=2", "--signal-prepared", str(ready), "--wait-for", str(go)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not ready.exists():
        assert time.time() < deadline and a.poll() is None, "the first append never got ready"
        time.sleep(0.02)
    b_out = append(tool, location, b_in, "--txn", "floe:t:1=3")
    assert b_out == {"version": 1, "files": 1, "attempts": 1}
    go.write_text("")
    stdout, stderr = a.communicate(timeout=60)
    assert a.returncode == 0, stderr
    assert "already exists" in stderr  # the kConflict it retried on
    assert json.loads(stdout) == {"version": 2, "files": 1, "attempts": 2}
    dt = deltalake.DeltaTable(str(location))
    assert sorted(r["id"] for r in dt.to_pyarrow_table().to_pylist()) == [0, 1, 2]
    assert dt.transaction_version("floe:t:0") == 2 and dt.transaction_version("floe:t:1") == 3
