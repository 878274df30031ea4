"""The slow test tier: Apache Spark (a JVM Iceberg client) against Floe's REST catalog, and
Iceberg's REST compatibility kit (test_rest_compatibility_kit.py, which uses only `server`).

Collected only when FLOE_SLOW_TESTS=1 (`make test-slow` sets it), so `make test`, which runs
`pytest tests/integration`, neither imports pyspark nor starts a JVM. Spark comes from
scripts/spark/install.sh: pyspark in .deps/spark-py (put on sys.path here, and on the
PYTHONPATH that Spark's Python workers inherit) and the jars in .deps/spark-jars (the Iceberg
runtime for every session; the S3 and Delta jars for test_spark_s3.py's).
The fixtures of tests/integration/conftest.py (floe_bin, tool, kafka, schema_registry) apply
here as well. Each module that uses them gets one Floe catalog server (`server`, `catalog`) and
one local Spark session (`spark`: local[2], 1 GiB driver) for all its tests; a module that needs
other jars or catalogs builds its own session with `spark_session_factory`."""
import contextlib
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPARK_PY = ROOT / ".deps" / "spark-py"
SPARK_JARS = ROOT / ".deps" / "spark-jars"

ENABLED = os.environ.get("FLOE_SLOW_TESTS") == "1"

# Not collected at all unless enabled: no "skipped" noise in the fast tier's summary.
collect_ignore_glob = [] if ENABLED else ["*"]

if ENABLED and SPARK_PY.is_dir() and str(SPARK_PY) not in sys.path:
    sys.path.insert(0, str(SPARK_PY))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(SPARK_PY), os.environ.get("PYTHONPATH")) if p)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: the slow tier (Spark); runs only with FLOE_SLOW_TESTS=1")


# Imported after sys.path holds the repository (tests/integration/conftest.py puts it there).
from tests.integration.fixtures.floe_process import FloeCatalogServer  # noqa: E402


@pytest.fixture(scope="module")
def server(floe_bin, tmp_path_factory):
    with FloeCatalogServer(floe_bin, tmp_path_factory.mktemp("spark-rest") / "warehouse") as s:
        yield s


@pytest.fixture(scope="module")
def catalog(server):
    from pyiceberg.catalog.rest import RestCatalog
    return RestCatalog("floe", uri=server.url)


@contextlib.contextmanager
def spark_session(work: pathlib.Path, catalog_uri: str, extra_conf: dict | None = None):
    """A local Spark session with the Iceberg catalog `floe` on `catalog_uri` (plus `extra_conf`,
    which may override anything); on exit it stops the session and ends the gateway JVM, so the
    next session of the process starts a new JVM with its own class path."""
    try:
        from pyspark import SparkContext
        from pyspark.sql import SparkSession
    except ImportError as e:
        pytest.fail(f"pyspark is not importable ({e}): run scripts/spark/install.sh (or `make test-slow`)")
    jars = sorted(SPARK_JARS.glob("iceberg-spark-runtime-*.jar"))
    assert jars, f"no Iceberg Spark runtime in {SPARK_JARS}: run scripts/spark/install.sh"
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["SPARK_LOCAL_DIRS"] = str(work / "local")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    conf = {
        "spark.master": "local[2]",
        "spark.app.name": "floe-slow-tests",
        "spark.driver.memory": "1g",
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.warehouse.dir": str(work / "spark-warehouse"),
        "spark.driver.extraJavaOptions": f"-Djava.io.tmpdir={work} -Dderby.system.home={work}",
        # A local jar: never spark.jars.packages, which would resolve from a repository at run time.
        "spark.jars": str(jars[-1]),
        "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        "spark.sql.catalog.floe": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.floe.type": "rest",
        "spark.sql.catalog.floe.uri": catalog_uri,
        **(extra_conf or {}),
    }
    builder = SparkSession.builder
    for key, value in conf.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("WARN")
    gateway = SparkContext._gateway
    try:
        yield session
    finally:
        session.stop()
        # session.stop() leaves the JVM up for a later session; end it, so no java process
        # outlives the module: closing its stdin makes the gateway JVM exit.
        proc = getattr(gateway, "proc", None)
        gateway.shutdown()
        SparkContext._gateway = None
        SparkContext._jvm = None
        if proc is not None:
            if proc.stdin:
                proc.stdin.close()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def spark(server, tmp_path_factory):
    with spark_session(tmp_path_factory.mktemp("spark"), server.url) as session:
        yield session


@pytest.fixture(scope="session")
def spark_session_factory():
    """spark_session itself, for modules that need a session of their own (other jars, other
    catalogs): `with spark_session_factory(work_dir, catalog_uri, extra_conf) as spark: …`."""
    return spark_session
