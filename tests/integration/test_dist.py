"""The release tarball (`make dist`, scripts/dist.sh; issue 33): unpacked into an empty folder,
its `floe` runs with nothing from .deps/ or build/ on any path — every library `ldd` shows, and
every one the loader maps while `floe run` runs, is inside the tarball or in the base system's
/lib, /usr/lib — and `floe --version`, `floe validate`
on the example config and a batch `floe run` against the test broker work; the table it writes
reads back with pyiceberg and DuckDB.

The tarball is FLOE_DIST_TARBALL (make test sets it and builds it first), else
build/dist/floe-<version>-linux-x86_64.tar.gz; the test skips only when that default is not built."""
import datetime as dt
import os
import pathlib
import re
import subprocess
import tarfile
import uuid

import pytest
import yaml

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.produce import RecordProducer

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERSION = re.search(r"^project\(floe VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text(), re.M).group(1)
NAME = f"floe-{VERSION}-linux-x86_64"
ORDER = {
    "type": "record", "name": "Order", "namespace": "floe.dist",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "customer", "type": "string"},
        {"name": "amount", "type": "double"},
        {"name": "created_at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    ],
}
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def tarball() -> pathlib.Path:
    named = os.environ.get("FLOE_DIST_TARBALL")
    if named:
        path = pathlib.Path(named)
        assert path.is_file(), f"FLOE_DIST_TARBALL={named} is missing: `make dist` builds it"
        return path
    path = ROOT / "build" / "dist" / f"{NAME}.tar.gz"
    if not path.is_file():
        pytest.skip(f"{path} is not built (run `make dist`, or `make test`, which builds it)")
    return path


@pytest.fixture(scope="module")
def install(tmp_path_factory) -> pathlib.Path:
    """The tarball unpacked into an empty folder; returns its top directory."""
    dest = tmp_path_factory.mktemp("dist-install")
    assert not any(dest.iterdir())
    with tarfile.open(tarball()) as tar:
        names = tar.getnames()
        assert all(n == NAME or n.startswith(NAME + "/") for n in names), names[:5]
        tar.extractall(dest, filter="data")
    return dest / NAME


def clean_env(home: pathlib.Path) -> dict:
    """What a user's shell on a stock system has: no LD_LIBRARY_PATH, no sanitizer settings, no .deps/."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}


def run(install, *args, cwd, timeout=60, env=None):
    return subprocess.run([str(install / "bin" / "floe"), *args], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, env={**clean_env(cwd), **(env or {})})


def assert_loaded_from_tarball_or_system(install, prefix: pathlib.Path):
    """Every object the loader mapped (LD_DEBUG=files into prefix.<pid>), dlopen()ed ones included,
    came from the unpacked tarball or the base system."""
    paths = set()
    for log in prefix.parent.glob(prefix.name + ".*"):
        text = log.read_text()
        paths.update(re.findall(r"calling init: (/\S+)", text))
        paths.update(re.findall(r"file=(/\S+) \[\d+\];\s+(?:generating link map|dynamically loaded)", text))
    assert paths, f"no loader log at {prefix}.*"
    inside = str(install.resolve()) + "/"
    for path in paths:
        real = os.path.realpath(path)
        assert ".deps" not in path and ".deps" not in real and "/build/" not in real, path
        assert real.startswith(inside) or re.match(r"^/(usr/)?lib(64)?/", path), path
    assert any(os.path.realpath(p).startswith(inside) for p in paths), sorted(paths)


def test_layout(install):
    for path in ("bin/floe", "lib", "docs/deploying.md", "docs/configuration.md", "deploy/floe.yaml",
                 "deploy/systemd/floe.service", "deploy/kubernetes/statefulset.yaml",
                 "deploy/kubernetes/configmap.yaml", "README.md", "BUILDINFO"):
        assert (install / path).exists(), path
    libs = {p.name for p in (install / "lib").iterdir()}
    for want in ("libarrow.so.", "libparquet.so.", "librdkafka.so.", "libprotobuf.so.", "libyaml-cpp.so."):
        assert any(n.startswith(want) for n in libs), (want, sorted(libs))
    # Base-system libraries are left to the system.
    for base in ("libc.so.", "libstdc++.so.", "libssl.so.", "libcurl.so."):
        assert not any(n.startswith(base) for n in libs), (base, sorted(libs))


def test_libraries_resolve_inside_the_tarball_or_the_base_system(install, tmp_path):
    readelf = subprocess.run(["readelf", "-d", str(install / "bin/floe")], capture_output=True, text=True, check=True)
    assert "Library runpath: [$ORIGIN/../lib]" in readelf.stdout, readelf.stdout
    for lib in (install / "lib").iterdir():
        dyn = subprocess.run(["readelf", "-d", str(lib)], capture_output=True, text=True, check=True).stdout
        assert ".deps" not in dyn and "/build/" not in dyn, (lib.name, dyn)

    ldd = subprocess.run(["ldd", str(install / "bin/floe")], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path, env=clean_env(tmp_path))
    assert ldd.returncode == 0, ldd.stderr
    resolved = {}
    for line in ldd.stdout.splitlines():
        assert "not found" not in line, ldd.stdout
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m:
            resolved[m.group(1)] = m.group(2)
    assert resolved, ldd.stdout
    inside = str(install.resolve()) + "/"
    for soname, path in resolved.items():
        real = os.path.realpath(path)
        assert ".deps" not in path and ".deps" not in real and "/build/" not in real, (soname, path)
        assert real.startswith(inside) or re.match(r"^/(usr/)?lib(64)?/", path), (soname, path)
    for own in ("libarrow.so.", "libparquet.so.", "librdkafka.so."):
        soname = next(s for s in resolved if s.startswith(own))
        assert os.path.realpath(resolved[soname]).startswith(inside), (soname, resolved[soname])


def test_version_and_validate(install, tmp_path):
    r = run(install, "--version", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"floe {VERSION}"), r.stdout
    r = run(install, "validate", "--config", str(install / "deploy/floe.yaml"), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert ": OK (" in r.stdout


def test_batch_run_against_the_test_broker(install, kafka, schema_registry, tmp_path):
    topic = f"dist-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    n = 2_000
    for i in range(n):
        producer.send_avro(topic, serializer, {"id": i, "customer": f"c-{i % 7}", "amount": i * 0.5,
                                               "created_at": EPOCH + dt.timedelta(seconds=i)},
                           partition=i % 2, key=f"k{i}".encode())
    assert len(producer.flush()) == n

    # The example config of the tarball, pointed at the test broker, registry and a warehouse here.
    config = yaml.safe_load((install / "deploy/floe.yaml").read_text())
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    config["kafka"].update({"bootstrap_servers": kafka.bootstrap, "group_id": f"dist-{topic}",
                            "properties": {"session.timeout.ms": "6000", "heartbeat.interval.ms": "500"}})
    config["schema_registry"]["url"] = schema_registry.url
    config["warehouse"] = f"file://{warehouse}"
    config["catalog"].update({"uri": f"sqlite://{warehouse}/catalog.db", "listen": "127.0.0.1:0"})
    config["admin"]["listen"] = "127.0.0.1:0"
    config["defaults"]["commit_interval"] = "1s"
    config["topics"] = [{"name": topic, "table": "kafka.dist_orders"}]
    path = tmp_path / "floe.yaml"
    path.write_text(yaml.safe_dump(config))

    loader_log = tmp_path / "ld-debug" / "floe"
    loader_log.parent.mkdir()
    r = run(install, "run", "--config", str(path), "--exit-when-caught-up", cwd=tmp_path, timeout=240,
            env={"LD_DEBUG": "files", "LD_DEBUG_OUTPUT": str(loader_log)})
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    assert_loaded_from_tarball_or_system(install, loader_log)

    from pyiceberg.catalog.sql import SqlCatalog
    table = SqlCatalog("floe", uri=f"sqlite:///{warehouse}/catalog.db",
                       warehouse=f"file://{warehouse}").load_table("kafka.dist_orders")
    rows = table.scan().to_arrow()
    assert rows.num_rows == n
    assert sorted(rows.column("id").to_pylist()) == list(range(n))
    count, total, distinct = connect().execute(
        f"SELECT count(*), sum(amount), count(DISTINCT (_kafka.partition, _kafka.\"offset\")) "
        f"FROM iceberg_scan('{table.metadata_location}')").fetchone()
    assert (count, total, distinct) == (n, sum(i * 0.5 for i in range(n)), n)
