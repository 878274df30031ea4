"""Floe's Iceberg REST catalog client (catalog.type: rest) against REST catalog servers:

- "iceberg": Apache Iceberg's own REST catalog server (RESTCatalogServer from the test-fixtures
  jar of iceberg-open-api, on a SQLite JdbcCatalog; tests/integration/fixtures/iceberg_rest_fixture.py)
  — a server written by someone else, which writes the metadata files with Iceberg's Java code;
- "floe": Floe's own `floe catalog serve`, for symmetry.

Floe writes through tests/tools/floe_iceberg_append --catalog-type rest (data files, manifests,
fast-append commit with requirements, retry on 409) and pyiceberg reads through the same server.
"""
import json
import subprocess
import time
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog

from tests.integration.fixtures.floe_process import FloeCatalogServer
from tests.integration.fixtures.iceberg_rest_fixture import IcebergRestFixture

SERVERS = ["iceberg", "floe"]


class Server:
    def __init__(self, kind: str, url: str, version: str):
        self.kind, self.url, self.version = kind, url, version


@pytest.fixture(scope="module", params=SERVERS)
def server(request, floe_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"rest-{request.param}")
    if request.param == "iceberg":
        with IcebergRestFixture(root) as s:
            print(f"Iceberg REST fixture {s.version} at {s.url}, up in {s.startup_seconds:.1f}s")
            yield Server("iceberg", s.url, s.version)
    else:
        with FloeCatalogServer(floe_bin, root / "warehouse") as s:
            yield Server("floe", s.url, "floe")


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


SCHEMA = pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string()), pa.field("amount", pa.float64())])


def rows(start: int, n: int) -> pa.Table:
    return pa.table({"id": pa.array(range(start, start + n), pa.int64()),
                     "name": [f"n{i % 7}" for i in range(start, start + n)],
                     "amount": [i / 4 for i in range(start, start + n)]}, schema=SCHEMA)


def append_cmd(tool, server, table, src, *extra):
    return [str(tool("floe_iceberg_append")), "--catalog-type", "rest", "--catalog-uri", server.url,
            "--table", table, "--input", str(src), *extra]


def run_append(tool, server, table, src, *extra) -> dict:
    out = subprocess.run(append_cmd(tool, server, table, src, *extra), capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def write(tmp_path, name, table) -> str:
    path = tmp_path / name
    pq.write_table(table, path)
    return str(path)


def sorted_rows(table) -> list:
    return sorted(table.scan().to_arrow().select(["id", "name", "amount"]).to_pylist(), key=lambda r: r["id"])


def test_floe_creates_and_appends_twice_pyiceberg_reads(server, tool, tmp_path):
    ns = unique("orders")
    first, second = rows(0, 500), rows(500, 250)
    r1 = run_append(tool, server, f"{ns}.events", write(tmp_path, "1.parquet", first),
                    "--partition-by", "bucket[4](id)", "--rows-per-file", "200",
                    "--summary", json.dumps({"floe.offsets": json.dumps({"orders": {"0": 500}})}))
    r2 = run_append(tool, server, f"{ns}.events", write(tmp_path, "2.parquet", second),
                    "--summary", json.dumps({"floe.offsets": json.dumps({"orders": {"0": 750}})}))
    assert r1["attempts"] == 1 and r2["attempts"] == 1
    assert r1["metadata_location"] != r2["metadata_location"]

    catalog = RestCatalog("reader", uri=server.url)
    assert (ns,) in catalog.list_namespaces()
    table = catalog.load_table(f"{ns}.events")
    # The server wrote the metadata file the client was told about.
    assert table.metadata_location == r2["metadata_location"]
    assert [str(f.transform) for f in table.spec().fields] == ["bucket[4]"]
    assert sorted_rows(table) == pa.concat_tables([first, second]).to_pylist()
    history = table.history()
    assert len(history) == 2
    snapshot = table.current_snapshot()
    assert snapshot.snapshot_id == r2["snapshot_id"]
    assert snapshot.parent_snapshot_id == r1["snapshot_id"]
    assert json.loads(snapshot.summary["floe.offsets"]) == {"orders": {"0": 750}}
    assert snapshot.summary["total-records"] == "750"


def test_stale_base_gets_409_then_retries_and_both_land(server, tool, tmp_path):
    """Two writers prepare their commit on the same base snapshot, then both send it: the
    server accepts one and answers 409 to the other (assert-ref-snapshot-id), which reloads,
    rebuilds its commit on the new snapshot and lands too."""
    ns = unique("race")
    name = f"{ns}.t"
    run_append(tool, server, name, write(tmp_path, "base.parquet", rows(0, 10)))
    go = tmp_path / "go"
    procs = []
    for i, start in enumerate((100, 200)):
        src = write(tmp_path, f"w{i}.parquet", rows(start, 20))
        procs.append(subprocess.Popen(append_cmd(tool, server, name, src, "--signal-prepared",
                                                 str(tmp_path / f"prepared{i}"), "--wait-for", str(go)),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    try:
        deadline = time.monotonic() + 120
        while not all((tmp_path / f"prepared{i}").exists() for i in range(2)):
            assert time.monotonic() < deadline, "writers never prepared their commits"
            assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
            time.sleep(0.05)
        go.touch()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0, err
            results.append(json.loads(out))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert sorted(r["attempts"] for r in results) == [1, 2], results
    table = RestCatalog("reader", uri=server.url).load_table(name)
    ids = [r["id"] for r in sorted_rows(table)]
    assert ids == list(range(10)) + list(range(100, 120)) + list(range(200, 220))
    assert len(table.history()) == 3
    # The retried writer rebuilt on the winner's snapshot: one linear history.
    winner, loser = sorted(results, key=lambda r: r["attempts"])
    assert table.current_snapshot().snapshot_id == loser["snapshot_id"]
    assert table.snapshot_by_id(loser["snapshot_id"]).parent_snapshot_id == winner["snapshot_id"]


def test_multi_level_namespace(server, tool, tmp_path):
    """Namespace levels in paths are joined with the server's announced separator (the Iceberg
    server announces %2E in /v1/config overrides; Floe's uses the spec's default %1F)."""
    cfg = requests.get(f"{server.url}/v1/config", timeout=10).json()
    expected = "%2E" if server.kind == "iceberg" else None
    assert cfg.get("overrides", {}).get("namespace-separator") == expected
    top = unique("lake")
    name = f"{top}.raw.t"
    r1 = run_append(tool, server, name, write(tmp_path, "a.parquet", rows(0, 5)))
    r2 = run_append(tool, server, name, write(tmp_path, "b.parquet", rows(5, 5)))  # loads it back by name
    assert r2["attempts"] == 1 and r1["metadata_location"] != r2["metadata_location"]
    catalog = RestCatalog("reader", uri=server.url)
    assert (top, "raw") in catalog.list_namespaces(top)
    table = catalog.load_table((top, "raw", "t"))
    assert [r["id"] for r in sorted_rows(table)] == list(range(10))


def test_unreachable_server_is_unavailable(tool, tmp_path):
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    out = subprocess.run([str(tool("floe_iceberg_append")), "--catalog-type", "rest", "--catalog-uri",
                          f"http://127.0.0.1:{port}", "--table", "a.t",
                          "--input", write(tmp_path, "x.parquet", rows(0, 1))],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "Unavailable" in out.stderr and "GET /v1/config" in out.stderr, out.stderr


def test_oauth2_client_credentials_against_iceberg_server(tool, tmp_path):
    """The Iceberg server issues tokens for client_credentials at /v1/oauth/tokens (it does not
    check them afterwards): the client fetches one and uses it."""
    with IcebergRestFixture(tmp_path / "srv") as s:
        ns = unique("oauth")
        server = Server("iceberg", s.url, s.version)
        r = run_append(tool, server, f"{ns}.t", write(tmp_path, "o.parquet", rows(0, 3)),
                       "--credential", "floe-client:secret")
        assert r["attempts"] == 1
        assert RestCatalog("reader", uri=s.url).load_table(f"{ns}.t").scan().to_arrow().num_rows == 3


def test_bearer_token_against_floe_server(floe_bin, tool, tmp_path):
    with FloeCatalogServer(floe_bin, tmp_path / "wh", token="s3cret") as s:
        server = Server("floe", s.url, "floe")
        src = write(tmp_path, "t.parquet", rows(0, 4))
        denied = subprocess.run(append_cmd(tool, server, "sec.t", src, "--token", "wrong"),
                                capture_output=True, text=True, timeout=120)
        assert denied.returncode == 1
        assert "not authorized" in denied.stderr and "401" in denied.stderr, denied.stderr
        r = run_append(tool, server, "sec.t", src, "--token", "s3cret")
        assert r["attempts"] == 1
        table = RestCatalog("reader", uri=s.url, token="s3cret").load_table("sec.t")
        assert table.scan().to_arrow().num_rows == 4
