"""The built-in SQL catalog (src/floe/catalog/) against a real PostgreSQL server on
loopback, several Floe processes racing on one table, and pyiceberg's SqlCatalog sharing a
database with Floe. Catalog operations run through tests/tools/floe_catalog_tool.cc.

pyiceberg's SqlCatalog reaches PostgreSQL through SQLAlchemy's psycopg2 driver, which the
venv may not have (pyiceberg's `sql-postgres` extra: psycopg2-binary); the interop test
then runs on SQLite only and the PostgreSQL variant is skipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.fixtures.postgres import PostgresServer

pytestmark = pytest.mark.timeout(300)

# floe_catalog_tool's exit codes
EXIT_CONFLICT, EXIT_NOT_FOUND, EXIT_ALREADY_EXISTS, EXIT_UNAVAILABLE = 3, 4, 5, 6


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    with PostgresServer(tmp_path_factory.mktemp("postgres")) as pg:
        yield pg


@pytest.fixture(scope="module")
def catalog_tool(tool) -> Path:
    return tool("floe_catalog_tool")


def run(tool: Path, uri: str, *args: str, catalog: str = "floe", expect: int | None = 0,
        timeout: float = 120) -> subprocess.CompletedProcess:
    r = subprocess.run([str(tool), "--uri", uri, "--catalog", catalog, *args],
                       capture_output=True, text=True, timeout=timeout)
    if expect is not None:
        assert r.returncode == expect, (f"{' '.join(args)} exited {r.returncode}, expected {expect}\n"
                                        f"stdout:\n{r.stdout}\nstderr:\n{r.stderr}")
    return r


class Shell:
    """floe_catalog_tool's `shell`: one long-lived process, one Catalog instance."""

    def __init__(self, tool: Path, uri: str, catalog: str = "floe"):
        self.proc = subprocess.Popen([str(tool), "--uri", uri, "--catalog", catalog, "shell"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        assert self.read() == "ready"

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"shell exited {self.proc.wait()}: {self.proc.stderr.read()}")
        return line.rstrip("\n")

    def call(self, line: str) -> str:
        self.send(line)
        return self.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send("quit")
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        stderr = self.proc.stderr.read()
        assert self.proc.returncode == 0, f"shell exited {self.proc.returncode}: {stderr}"

    def __enter__(self) -> "Shell":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def contract_counts(stdout: str) -> tuple[int, int, int]:
    m = re.search(r"contract checks: (\d+) passed, (\d+) failed, (\d+) skipped", stdout)
    assert m, stdout
    return int(m[1]), int(m[2]), int(m[3])


@pytest.fixture(params=["postgres", "sqlite"])
def backend_uri(request, tmp_path):
    """A fresh catalog database on each backend."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'catalog.db'}"
    pg = request.getfixturevalue("postgres")
    global _db_counter
    _db_counter += 1
    return pg.database_uri(f"race_{_db_counter}")


_db_counter = 0


# ------------------------------------------------------------------------------- contract


def test_contract_against_postgres(postgres, catalog_tool):
    uri = postgres.database_uri("contract")
    r = run(catalog_tool, uri, "contract-test", "--threads", "4", "--rounds", "25", expect=None)
    passed, failed, skipped = contract_counts(r.stdout)
    assert r.returncode == 0 and failed == 0, r.stdout + r.stderr
    assert skipped == 0 and passed >= 13, r.stdout
    # Again on the now existing schema, as another catalog name: opening is idempotent and
    # the checks keep to their own namespaces.
    r = run(catalog_tool, uri, "contract-test", catalog="second")
    assert contract_counts(r.stdout) == (passed, 0, 0)
    # Everything the checks created is gone again.
    assert postgres.sql("SELECT count(*) FROM iceberg_tables", "contract").strip() == "0"
    assert postgres.sql("SELECT count(*) FROM iceberg_namespace_properties", "contract").strip() == "0"


def test_schema_is_the_jdbc_catalogs(postgres, catalog_tool):
    uri = postgres.database_uri("schema")
    run(catalog_tool, uri, "list")
    columns = postgres.sql(
        "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable "
        "FROM information_schema.columns WHERE table_name IN ('iceberg_tables', 'iceberg_namespace_properties') "
        "ORDER BY table_name, ordinal_position", "schema").splitlines()
    assert columns == [
        "iceberg_namespace_properties|catalog_name|character varying|255|NO",
        "iceberg_namespace_properties|namespace|character varying|255|NO",
        "iceberg_namespace_properties|property_key|character varying|255|NO",
        "iceberg_namespace_properties|property_value|character varying|1000|NO",
        "iceberg_tables|catalog_name|character varying|255|NO",
        "iceberg_tables|table_namespace|character varying|255|NO",
        "iceberg_tables|table_name|character varying|255|NO",
        "iceberg_tables|metadata_location|character varying|1000|YES",
        "iceberg_tables|previous_metadata_location|character varying|1000|YES",
        "iceberg_tables|iceberg_type|character varying|5|YES",
    ]
    keys = postgres.sql(
        "SELECT tc.table_name, string_agg(kcu.column_name, ',' ORDER BY kcu.ordinal_position) "
        "FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage kcu "
        "ON tc.constraint_name = kcu.constraint_name AND tc.table_name = kcu.table_name "
        "WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name LIKE 'iceberg%' "
        "GROUP BY tc.table_name ORDER BY tc.table_name", "schema").splitlines()
    assert keys == ["iceberg_namespace_properties|catalog_name,namespace,property_key",
                    "iceberg_tables|catalog_name,table_namespace,table_name"]


def test_many_processes_opening_a_fresh_database_at_once(postgres, catalog_tool):
    """The first open creates the tables; concurrent first opens must not trip over each
    other (CREATE TABLE IF NOT EXISTS alone is not safe against that in PostgreSQL)."""
    uri = postgres.database_uri("fresh")
    procs = [subprocess.Popen([str(catalog_tool), "--uri", uri, "create-namespace", f"ns{i}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(6)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    r = run(catalog_tool, uri, "list")
    assert r.stdout.split("\n")[:-1] == [f"namespace ns{i}" for i in range(6)]


def test_cli_operations_and_exit_codes(postgres, catalog_tool):
    uri = postgres.database_uri("cli")
    run(catalog_tool, uri, "create-namespace", "lake.raw", "-p", "owner=ops")
    run(catalog_tool, uri, "create-namespace", "lake.raw", expect=EXIT_ALREADY_EXISTS)
    run(catalog_tool, uri, "create-table", "lake.raw.orders", "s3://b/orders/v1.metadata.json")
    run(catalog_tool, uri, "create-table", "nope.orders", "x", expect=EXIT_NOT_FOUND)
    run(catalog_tool, uri, "swap", "lake.raw.orders", "s3://b/orders/v1.metadata.json", "s3://b/orders/v2.metadata.json")
    r = run(catalog_tool, uri, "swap", "lake.raw.orders", "s3://b/orders/v1.metadata.json", "x", expect=EXIT_CONFLICT)
    assert "s3://b/orders/v2.metadata.json" in r.stderr  # says what the location is now
    r = run(catalog_tool, uri, "load", "lake.raw.orders")
    assert r.stdout.split("\n")[:2] == ["s3://b/orders/v2.metadata.json", "s3://b/orders/v1.metadata.json"]
    run(catalog_tool, uri, "drop-namespace", "lake.raw", expect=EXIT_CONFLICT)
    run(catalog_tool, uri, "create-namespace", "archive")
    run(catalog_tool, uri, "rename", "lake.raw.orders", "archive.orders")
    assert run(catalog_tool, uri, "list", "archive").stdout == "table archive.orders\n"
    assert run(catalog_tool, uri, "list").stdout == "namespace archive\nnamespace lake\n"
    run(catalog_tool, uri, "drop-table", "archive.orders")
    run(catalog_tool, uri, "load", "archive.orders", expect=EXIT_NOT_FOUND)
    run(catalog_tool, uri, "drop-namespace", "lake.raw")
    # The rows are exactly the JDBC catalog's.
    rows = postgres.sql("SELECT * FROM iceberg_namespace_properties ORDER BY namespace, property_key", "cli").split("\n")
    assert rows[:-1] == ["floe|archive|exists|true"]


# ------------------------------------------------------------------------ racing processes


def test_two_processes_race_each_round(backend_uri, catalog_tool):
    """Lock-step: both processes load the same location, then both swap from it at once.
    Exactly one may win each round; the other must see kConflict."""
    run(catalog_tool, backend_uri, "create-namespace", "race")
    run(catalog_tool, backend_uri, "create-table", "race.t", "round-0")
    wins = {"a": 0, "b": 0}
    with Shell(catalog_tool, backend_uri) as a, Shell(catalog_tool, backend_uri) as b:
        current = "round-0"
        for rnd in range(1, 41):
            for name, sh in (("a", a), ("b", b)):
                assert sh.call("load race.t").split(" ")[:2] == ["OK", current], name
            a.send(f"swap race.t {current} round-{rnd}-a")
            b.send(f"swap race.t {current} round-{rnd}-b")
            answers = {"a": a.read(), "b": b.read()}
            winners = [n for n, ans in answers.items() if ans == "OK"]
            assert len(winners) == 1, f"round {rnd}: {answers}"
            loser = "b" if winners[0] == "a" else "a"
            assert answers[loser].startswith("ERR Conflict "), f"round {rnd}: {answers}"
            wins[winners[0]] += 1
            current = f"round-{rnd}-{winners[0]}"
        assert a.call("load race.t").startswith(f"OK {current} ")
    assert wins["a"] + wins["b"] == 40


def test_two_processes_race_free_running(backend_uri, catalog_tool):
    """Free-running: two processes CAS as fast as they can until version 150. Every version
    must have exactly one winner, and some attempts must have lost (they really raced)."""
    rounds = 150
    run(catalog_tool, backend_uri, "create-namespace", "race")
    run(catalog_tool, backend_uri, "create-table", "race.t", "v0")
    procs = {name: subprocess.Popen([str(catalog_tool), "--uri", backend_uri, "race", "race.t", "--rounds",
                                     str(rounds), "--name", name, "--wait-for-go"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in ("a", "b")}
    for p in procs.values():
        assert p.stdout.readline().strip() == "ready"
    for p in procs.values():
        p.stdin.write("go\n")
        p.stdin.flush()
    won: dict[str, set[int]] = {}
    conflicts = 0
    for name, p in procs.items():
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
        won[name] = {int(line.split()[1]) for line in out.splitlines() if line.startswith("won ")}
        m = re.search(r"^wins (\d+) conflicts (\d+)$", out, re.M)
        assert m and int(m[1]) == len(won[name]), out
        conflicts += int(m[2])
    assert not (won["a"] & won["b"]), f"versions won twice: {sorted(won['a'] & won['b'])}"
    assert won["a"] | won["b"] == set(range(1, rounds + 1))
    assert conflicts > 0, "the two processes never collided"
    final = run(catalog_tool, backend_uri, "load", "race.t").stdout.split("\n")[0]
    assert final == f"v{rounds}-{'a' if rounds in won['a'] else 'b'}"


# ----------------------------------------------------------------------- connection loss


def test_reconnects_after_the_server_restarts(tmp_path, catalog_tool):
    with PostgresServer(tmp_path / "pg") as pg:
        uri = pg.uri
        run(catalog_tool, uri, "create-namespace", "lake")
        run(catalog_tool, uri, "create-table", "lake.t", "v1")
        with Shell(catalog_tool, uri) as sh:
            assert sh.call("load lake.t") == "OK v1 "

            pg.stop()
            answer = sh.call("load lake.t")
            assert answer.startswith("ERR Unavailable "), answer
            assert f"127.0.0.1:{pg.port}" in answer, answer
            assert sh.call("swap lake.t v1 v2").startswith("ERR Unavailable ")

            pg.start()  # same port, same data
            # The broken connection is replaced on the next call; nothing was half-done.
            assert sh.call("load lake.t") == "OK v1 "
            assert sh.call("swap lake.t v1 v2") == "OK"

            # A crash (no clean shutdown) and a killed backend: the same. The test server runs
            # with synchronous_commit=off, which would lose the swap above in the crash; Floe's
            # session turns it on, so an acknowledged swap is durable.
            pg.kill()
            pg.start()
            assert sh.call("load lake.t") == "OK v2 v1"
            pg.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'floe-catalog'")
            assert sh.call("swap lake.t v2 v3") == "OK"
            assert sh.call("load lake.t") == "OK v3 v2"


def test_an_unreachable_server_is_unavailable(catalog_tool):
    r = run(catalog_tool, "postgresql://floe:s3cret@127.0.0.1:1/catalog", "list", expect=EXIT_UNAVAILABLE)
    assert "127.0.0.1" in r.stderr and "s3cret" not in r.stderr, r.stderr


# --------------------------------------------------------------------- pyiceberg interop


def _pyiceberg_catalog(name: str, sqlalchemy_uri: str, warehouse: Path):
    from pyiceberg.catalog.sql import SqlCatalog
    return SqlCatalog(name, uri=sqlalchemy_uri, warehouse=f"file://{warehouse}")


def _pyiceberg_sees_floe(catalog_tool: Path, floe_uri: str, sqlalchemy_uri: str, warehouse: Path) -> None:
    from pyiceberg.exceptions import NamespaceNotEmptyError
    from sqlalchemy import text

    run(catalog_tool, floe_uri, "create-namespace", "lake", "-p", "owner=ops")
    run(catalog_tool, floe_uri, "create-namespace", "lake.raw")
    run(catalog_tool, floe_uri, "create-namespace", "lake.empty")
    run(catalog_tool, floe_uri, "create-table", "lake.raw.orders", "s3://b/orders/00001.metadata.json")
    run(catalog_tool, floe_uri, "swap", "lake.raw.orders", "s3://b/orders/00001.metadata.json",
        "s3://b/orders/00002.metadata.json")

    py = _pyiceberg_catalog("floe", sqlalchemy_uri, warehouse)
    try:
        assert ("lake",) in py.list_namespaces()
        assert sorted(py.list_namespaces("lake")) == [("lake", "empty"), ("lake", "raw")]
        assert py.list_tables("lake.raw") == [("lake", "raw", "orders")]
        assert py.list_tables("lake.empty") == []
        assert py.namespace_exists("lake.empty")
        assert py.load_namespace_properties("lake")["owner"] == "ops"
        with pytest.raises(NamespaceNotEmptyError):
            py.drop_namespace("lake.raw")
        # Loading the table would read its metadata file; the pointer is what Floe owns.
        with py.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT metadata_location, previous_metadata_location, iceberg_type FROM iceberg_tables "
                "WHERE catalog_name = 'floe' AND table_namespace = 'lake.raw' AND table_name = 'orders'")).all()
        assert [tuple(r) for r in rows] == [("s3://b/orders/00002.metadata.json",
                                             "s3://b/orders/00001.metadata.json", "TABLE")]
        # pyiceberg's changes are Floe's too.
        py.drop_namespace("lake.empty")
        assert run(catalog_tool, floe_uri, "list", "lake").stdout == "namespace lake.raw\n"
    finally:
        py.close()
    # Another catalog name sees none of it.
    other = _pyiceberg_catalog("other", sqlalchemy_uri, warehouse)
    try:
        assert ("lake",) not in other.list_namespaces()
    finally:
        other.close()


def _floe_sees_pyiceberg(catalog_tool: Path, floe_uri: str, sqlalchemy_uri: str, warehouse: Path) -> None:
    from pyiceberg.schema import Schema
    from pyiceberg.types import LongType, NestedField, StringType

    py = _pyiceberg_catalog("floe", sqlalchemy_uri, warehouse)
    try:
        py.create_namespace("py")                        # writes exists=true
        py.create_namespace("py.props", {"k": "v"})      # writes only k=v
        table = py.create_table("py.events", Schema(NestedField(1, "id", LongType(), required=False),
                                                    NestedField(2, "name", StringType(), required=False)))
        first = table.metadata_location
        assert first.startswith("file://")

        r = run(catalog_tool, floe_uri, "list", "py")
        assert r.stdout == "namespace py.props\ntable py.events\n"
        assert run(catalog_tool, floe_uri, "load", "py.events").stdout == f"{first}\n\n"
        run(catalog_tool, floe_uri, "create-namespace", "py.props", expect=EXIT_ALREADY_EXISTS)

        # A pyiceberg commit is a CAS Floe sees ...
        with table.transaction() as tx:
            tx.set_properties(owner="pyiceberg")
        second = py.load_table("py.events").metadata_location
        assert second != first
        assert run(catalog_tool, floe_uri, "load", "py.events").stdout == f"{second}\n{first}\n"
        run(catalog_tool, floe_uri, "swap", "py.events", first, "file:///elsewhere.json", expect=EXIT_CONFLICT)

        # ... and Floe's CAS is one pyiceberg sees: point the table at a copy of its metadata.
        src = Path(second.removeprefix("file://"))
        copy = src.with_name("99999-floe-copy.metadata.json")
        shutil.copyfile(src, copy)
        run(catalog_tool, floe_uri, "swap", "py.events", second, f"file://{copy}")
        reloaded = py.load_table("py.events")
        assert reloaded.metadata_location == f"file://{copy}"
        assert reloaded.properties["owner"] == "pyiceberg"

        # A Floe rename across namespaces; pyiceberg finds the table (and its metadata) there.
        run(catalog_tool, floe_uri, "rename", "py.events", "py.props.events")
        assert py.list_tables("py.props") == [("py", "props", "events")]
        assert py.load_table("py.props.events").metadata_location == f"file://{copy}"
        assert py.list_tables("py") == []
    finally:
        py.close()


def test_pyiceberg_and_floe_share_a_sqlite_catalog(tmp_path, catalog_tool):
    # Floe creates the file and the schema; pyiceberg opens it.
    db = tmp_path / "floe-first.db"
    _pyiceberg_sees_floe(catalog_tool, f"sqlite://{db}", f"sqlite:///{db}", tmp_path / "wh1")
    # pyiceberg creates the file and the schema; Floe opens it.
    db = tmp_path / "pyiceberg-first.db"
    _floe_sees_pyiceberg(catalog_tool, f"sqlite://{db}", f"sqlite:///{db}", tmp_path / "wh2")


def test_pyiceberg_and_floe_share_a_postgres_catalog(postgres, catalog_tool, tmp_path):
    pytest.importorskip("psycopg2", reason="pyiceberg's SqlCatalog needs psycopg2 for PostgreSQL: "
                                           "pip install psycopg2-binary==2.9.13 (pyiceberg[sql-postgres])")
    for db, check in (("interop_floe_first", _pyiceberg_sees_floe), ("interop_py_first", _floe_sees_pyiceberg)):
        floe_uri = postgres.database_uri(db)  # an empty database: the first user creates the tables
        sqlalchemy_uri = floe_uri.replace("postgresql://", "postgresql+psycopg2://", 1)
        check(catalog_tool, floe_uri, sqlalchemy_uri, tmp_path / db)
