"""The slow test tier: Apache Spark (a JVM Iceberg client) against Floe's REST catalog.

Collected only when FLOE_SLOW_TESTS=1 (`make test-slow` sets it), so `make test`, which runs
`pytest tests/integration`, neither imports pyspark nor starts a JVM. Spark comes from
scripts/spark/install.sh: pyspark in .deps/spark-py (put on sys.path here, and on the
PYTHONPATH that Spark's Python workers inherit) and the Iceberg runtime jar in .deps/spark-jars.
The fixtures of tests/integration/conftest.py (floe_bin, tool) apply here as well."""
import os
import pathlib
import sys

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
