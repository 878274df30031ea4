"""The peer: Apache Iceberg's Kafka Connect sink in a Kafka Connect standalone worker
(scripts/bench/install-peer.sh), writing the same topic into an Iceberg table through Apache
Iceberg's REST catalog fixture (scripts/iceberg-rest-fixture), with the same commit interval.
Measured: from starting the worker's JVM until a pyiceberg load of the table shows every
record committed (`total-records` of the current snapshot), then the JVM's CPU and peak RSS."""
from __future__ import annotations

import os
import pathlib
import signal
import shutil
import subprocess
import time

from . import measure

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIB = ROOT / ".deps" / "bench-peer" / "lib"
INSTALL = ROOT / "scripts" / "bench" / "install-peer.sh"
# Kafka's own connect-standalone defaults (bin/connect-standalone.sh): 256M..2G heap, G1, full JIT.
JVM_OPTS = os.environ.get("BENCH_PEER_JVM_OPTS", "-Xms256m -Xmx2g -XX:+UseG1GC -Djava.awt.headless=true").split()

LOG4J2 = """\
status = warn
appender.out.type = Console
appender.out.name = STDOUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.out.ref = STDOUT
logger.config.name = org.apache.kafka.common.config.AbstractConfig
logger.config.level = warn
"""


def install() -> None:
    r = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{INSTALL} failed:\n{r.stdout}{r.stderr}")


def _props(path: pathlib.Path, props: dict) -> pathlib.Path:
    path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    return path


def run(bootstrap: str, registry_url: str, topic: str, records: int, payload_bytes: int, workdir: pathlib.Path,
        *, commit_interval_ms: int, tasks: int, timeout: float) -> dict:
    from tests.integration.fixtures.iceberg_rest_fixture import IcebergRestFixture
    from pyiceberg.catalog.rest import RestCatalog

    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    install()
    with IcebergRestFixture(workdir / "rest") as rest:
        cat = RestCatalog("peer", uri=rest.url)
        cat.create_namespace("bench")
        (workdir / "log4j2.properties").write_text(LOG4J2)
        (workdir / "plugins").mkdir()
        worker = _props(workdir / "worker.properties", {
            "bootstrap.servers": bootstrap,
            "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "value.converter": "floe.bench.FloeBenchAvroConverter",
            "value.converter.schema.registry.url": registry_url,
            "offset.storage.file.filename": workdir / "connect.offsets",
            # Kafka 4 wants a plugin.path; the sink and converter are on the classpath instead.
            "plugin.path": workdir / "plugins",
            "listeners": "http://127.0.0.1:0",
            # A sink task handles the Iceberg coordinator's START_COMMIT only inside put(), and an
            # idle task (topic read to its end) polls Kafka for up to offset.flush.interval.ms
            # (default 60s) between put() calls; with the default the last commit waits minutes
            # (commits time out after 30s and are retried). 1s keeps put() coming.
            "offset.flush.interval.ms": 1000,
        })
        connector = _props(workdir / "iceberg-sink.properties", {
            "name": "iceberg-sink",
            "connector.class": "org.apache.iceberg.connect.IcebergSinkConnector",
            "tasks.max": tasks,
            "topics": topic,
            "iceberg.tables": "bench.events",
            "iceberg.tables.auto-create-enabled": "true",
            "iceberg.catalog.type": "rest",
            "iceberg.catalog.uri": rest.url,
            "iceberg.control.topic": "control-iceberg",
            "iceberg.control.commit.interval-ms": commit_interval_ms,
            "iceberg.kafka.bootstrap.servers": bootstrap,
        })
        jvm = measure.Background(
            ["java", *JVM_OPTS, f"-Dlog4j2.configurationFile={workdir / 'log4j2.properties'}", "-cp", f"{LIB}/*",
             "org.apache.kafka.connect.cli.ConnectStandalone", str(worker), str(connector)],
            log_path=workdir / "connect.log")
        committed, done_wall, error = 0, None, None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not jvm.alive():
                error = "the Connect worker exited"
                break
            if "unrecoverable exception" in (workdir / "connect.log").read_text(errors="replace"):
                error = "the sink task died"  # Connect keeps the worker up, waiting for a manual restart
                break
            try:
                snap = cat.load_table("bench.events").current_snapshot()
                committed = int(snap.summary.additional_properties.get("total-records", 0)) if snap else 0
            except Exception:  # no table until the sink's first commit
                committed = 0
            if committed >= records:
                done_wall = time.monotonic() - jvm.began
                break
            time.sleep(0.25)
        else:
            error = f"only {committed} of {records} records committed after {timeout:.0f}s"
        # Killed, not stopped: what is measured ends with the last commit, and Connect's own
        # shutdown (which keeps the Iceberg coordinator committing) can take minutes.
        usage = jvm.stop(signal.SIGUSR1)
    if error:
        return {"error": error + f" (log: {workdir / 'connect.log'}): " + _first_error(workdir / "connect.log"),
                "committed": committed}
    return measure.rates(usage, records, payload_bytes, wall=done_wall)


def _first_error(log: pathlib.Path) -> str:
    try:
        for line in log.read_text(errors="replace").splitlines():
            if "] ERROR " in line:
                return line.strip()[:500]
    except OSError:
        pass
    return "(no ERROR line)"
