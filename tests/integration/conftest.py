"""Shared fixtures: the Floe build under test, and the real services (Kafka broker, Schema
Registry) that integration tests talk to on loopback. Services are session-scoped: one
broker and one registry serve the whole run; each test uses its own topics."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.integration.fixtures.kafka_broker import KafkaBroker  # noqa: E402
from tests.integration.fixtures.schema_registry import SchemaRegistry  # noqa: E402


def build_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("FLOE_BUILD_DIR", ROOT / "build" / "asan"))


@pytest.fixture(scope="session")
def floe_bin() -> pathlib.Path:
    path = build_dir() / "apps" / "floe" / "floe"
    assert path.exists(), f"{path} is missing: run `make build` (or set FLOE_BUILD_DIR)"
    return path


@pytest.fixture(scope="session")
def tool():
    """Path to a test tool built from tests/tools/<name>.cc."""
    def find(name: str) -> pathlib.Path:
        path = build_dir() / "tests" / name
        assert path.exists(), f"{path} is missing: run `make build`"
        return path
    return find


@pytest.fixture(scope="session")
def kafka(tmp_path_factory):
    with KafkaBroker(tmp_path_factory.mktemp("kafka")) as broker:
        yield broker


@pytest.fixture(scope="session")
def schema_registry():
    with SchemaRegistry() as registry:
        yield registry


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook turns the groups into node ids
def pytest_collection_modifyitems(config, items):
    """scripts/run-tests.sh runs the tests in two pytest-xdist workers (`--dist loadgroup`). Each
    module's tests form one group, so they stay on one worker and its module-scoped servers start
    once; the Spark tier's modules form one group, so two Spark JVMs never compete for the cores.
    That group goes first: it is the longest, and scheduled last it would run alone at the end."""
    for item in items:
        path = pathlib.Path(str(item.fspath))
        item.add_marker(pytest.mark.xdist_group("spark-tier" if path.parent.name == "slow" else path.stem))
    items.sort(key=lambda item: pathlib.Path(str(item.fspath)).parent.name != "slow")
