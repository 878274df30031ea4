"""Table health under 1 s commits (issue 18, docs/maintenance.md): a producer at a steady rate
for --minutes, `floe run` with commit_interval 1s, once with maintenance on and once with it
off; reported per run at the start and at the end:
  - live data files of the table partition vs the bound 2 x (bytes / target_file_size) + 10,
  - manifests of the current snapshot, snapshots in the metadata,
  - DuckDB count(*) over iceberg_scan and pyiceberg scan planning (plan_files) times,
  - records committed per second and per CPU-second of floe run, the lag at the end.
Writes bench/results/table-health.md and the same section into bench/results/latest.md.

    .deps/venv/bin/python bench/table_health.py                        # 10 minutes per run, Release build
    .deps/venv/bin/python bench/table_health.py --minutes 1.5 --build build/asan --interval 20s
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.driver import floe_config, report  # noqa: E402
from tests.integration.fixtures.duckdb_ext import connect  # noqa: E402
from tests.integration.fixtures.kafka_broker import KafkaBroker  # noqa: E402
from tests.integration.fixtures.produce import RecordProducer  # noqa: E402
from tests.integration.fixtures.schema_registry import SchemaRegistry  # noqa: E402
from tests.integration.test_pipeline_avro import ORDER, order  # noqa: E402

SECTION_START, SECTION_END = "<!-- table-health -->", "<!-- /table-health -->"


def parse_args() -> argparse.Namespace:
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--build", default=str(ROOT / "build" / "release"))
    a.add_argument("--workdir", default=str(ROOT / "build" / "bench-health"))
    a.add_argument("--out", default=str(ROOT / "bench" / "results"))
    a.add_argument("--minutes", type=float, default=float(os.environ.get("BENCH_HEALTH_MINUTES", 10)))
    a.add_argument("--rate", type=float, default=2000.0, help="records/s produced")
    a.add_argument("--partitions", type=int, default=4)
    a.add_argument("--interval", default="1m", help="maintenance.interval")
    a.add_argument("--retention", default=None, help="maintenance.snapshot_retention (default: Floe's, 7d)")
    a.add_argument("--target-file-size", default="128MiB")
    return a.parse_args()


class SteadyProducer(threading.Thread):
    def __init__(self, bootstrap, registry_url, topic, partitions, rate, seconds):
        super().__init__(daemon=True)
        self.producer = RecordProducer(bootstrap, registry_url)
        self.serializer = self.producer.serializer(ORDER)
        self.topic, self.partitions, self.rate, self.seconds = topic, partitions, rate, seconds
        self.sent = 0

    def run(self):
        began = time.monotonic()
        while time.monotonic() - began < self.seconds:
            due = int((time.monotonic() - began) * self.rate)
            while self.sent < due:
                self.producer.send_avro(self.topic, self.serializer, order(self.sent), partition=self.sent % self.partitions)
                self.sent += 1
            time.sleep(0.01)
        self.producer.flush()


def byte_size(text: str) -> int:
    """floe.yaml's sizes (docs/configuration.md): 128MiB, 64MB, 1048576."""
    for unit, factor in (("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 10**3), ("MB", 10**6),
                         ("GB", 10**9), ("B", 1)):
        if text.endswith(unit):
            return int(text[:-len(unit)]) * factor
    return int(text)


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def health(catalog, table_name: str, target_bytes: int) -> dict:
    table = catalog.load_table(table_name)
    snapshot = table.current_snapshot()
    began = time.monotonic()
    tasks = list(table.scan().plan_files())
    plan_s = time.monotonic() - began
    data_bytes = sum(t.file.file_size_in_bytes for t in tasks)
    con = connect()
    began = time.monotonic()
    rows = con.execute(f"select count(*) from iceberg_scan('{table.metadata_location}')").fetchone()[0]
    count_s = time.monotonic() - began
    return {"data_files": len(tasks), "data_bytes": data_bytes, "bound": 2 * data_bytes / target_bytes + 10,
            "manifests": len(snapshot.manifests(table.io)) if snapshot else 0,
            "snapshots": len(table.metadata.snapshots), "rows": rows, "count_s": count_s, "plan_s": plan_s}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def maintenance_totals(port: int) -> dict:
    """floe run's /status maintenance totals of the table (passes, compactions, bytes rewritten...)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=10) as r:
            status = json.load(r)
    except OSError:
        return {}
    for t in (status.get("maintenance") or {}).get("tables", []):
        if t.get("table") == "kafka.health":
            return t.get("totals", {})
    return {}


def committed(catalog, table_name: str, topic: str) -> int:
    try:
        snap = catalog.load_table(table_name).current_snapshot()
    except Exception:  # noqa: BLE001 - not created yet
        return 0
    return sum(floe_config.snapshot_offsets(snap).get(topic, {}).values())


def one_run(o, floe_bin, kafka, registry, maintenance: bool) -> dict:
    from pyiceberg.catalog.sql import SqlCatalog
    name = "on" if maintenance else "off"
    work = pathlib.Path(o.workdir) / name
    subprocess.run(["rm", "-rf", str(work)], check=True)
    (work / "warehouse").mkdir(parents=True)
    topic = f"health-{name}-{int(time.time())}"
    admin_port = free_port()
    kafka.create_topic(topic, o.partitions)
    config = {
        "kafka": {"bootstrap_servers": kafka.bootstrap, "group_id": f"bench-{topic}"},
        "schema_registry": {"url": registry.url},
        "warehouse": f"file://{work}/warehouse",
        "catalog": {"type": "builtin", "uri": f"sqlite://{work}/warehouse/catalog.db"},
        "defaults": {"commit_interval": "1s", "target_file_size": o.target_file_size},
        "maintenance": {"enabled": maintenance, "interval": o.interval,
                        **({"snapshot_retention": o.retention} if o.retention else {})},
        "admin": {"listen": f"127.0.0.1:{admin_port}"},
        "topics": [{"name": topic, "table": "kafka.health"}],
    }
    (work / "floe.yaml").write_text(json.dumps(config, indent=2))
    catalog = SqlCatalog("floe", uri=f"sqlite:///{work}/warehouse/catalog.db", warehouse=f"file://{work}/warehouse")
    log = open(work / "floe.log", "w")
    proc = subprocess.Popen([str(floe_bin), "run", "--config", str(work / "floe.yaml")], stdout=log, stderr=log)
    seconds = o.minutes * 60
    producing = SteadyProducer(kafka.bootstrap, registry.url, topic, o.partitions, o.rate, seconds)
    began = time.monotonic()
    producing.start()
    target = byte_size(o.target_file_size)
    while committed(catalog, "kafka.health", topic) < o.rate * 10 and time.monotonic() - began < 120:
        time.sleep(0.5)
    start = health(catalog, "kafka.health", target)
    cpu_start, wall_start, rows_start = cpu_seconds(proc.pid), time.monotonic(), start["rows"]
    worst = dict(start)
    while producing.is_alive():
        time.sleep(5)
        h = health(catalog, "kafka.health", target)
        if h["data_files"] - h["bound"] > worst["data_files"] - worst["bound"]:
            worst = h
    producing.join()
    end = health(catalog, "kafka.health", target)
    cpu = cpu_seconds(proc.pid) - cpu_start
    wall = time.monotonic() - wall_start
    lag = producing.sent - committed(catalog, "kafka.health", topic)
    totals = maintenance_totals(admin_port)
    proc.terminate()
    proc.wait(120)
    log.close()
    rows = end["rows"] - rows_start
    return {"maintenance": maintenance, "start": start, "end": end, "worst": worst, "sent": producing.sent,
            "lag_at_end": lag, "records_per_s": rows / wall, "records_per_cpu_s": rows / cpu if cpu else None,
            "floe_cpu_s": cpu, "wall_s": wall, "maintenance_totals": totals}


def markdown(o, runs: dict, build: str) -> str:
    lines = [SECTION_START, "## Table health (1 s commits, issue 18)", "",
             f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {report.machine()}, build `{build}`: "
             f"{o.rate:.0f} records/s over {o.partitions} partitions for {o.minutes:g} min per run, "
             f"commit_interval 1s, target_file_size {o.target_file_size}, maintenance.interval {o.interval}, "
             f"snapshot_retention {o.retention or '7d (default)'}; "
             "`bench/table_health.py`.", "",
             "| | maintenance on | maintenance off |", "| --- | --- | --- |"]

    def row(label, f):
        lines.append(f"| {label} | {f(runs['on'])} | {f(runs['off'])} |")
    row("data files at start / end (table partition)", lambda r: f"{r['start']['data_files']} / {r['end']['data_files']}")
    row("bound 2 x (bytes / target) + 10 at end", lambda r: f"{r['end']['bound']:.1f}")
    row("worst files over bound during the run", lambda r: f"{r['worst']['data_files'] - r['worst']['bound']:+.1f}")
    row("manifests per snapshot at start / end", lambda r: f"{r['start']['manifests']} / {r['end']['manifests']}")
    row("snapshots at start / end", lambda r: f"{r['start']['snapshots']} / {r['end']['snapshots']}")
    row("DuckDB count(*) s at start / end", lambda r: f"{r['start']['count_s']:.3f} / {r['end']['count_s']:.3f}")
    row("pyiceberg plan_files s at start / end", lambda r: f"{r['start']['plan_s']:.3f} / {r['end']['plan_s']:.3f}")
    row("records committed / s", lambda r: f"{r['records_per_s']:,.0f}")
    row("records / CPU-s of floe run", lambda r: f"{r['records_per_cpu_s']:,.0f}" if r["records_per_cpu_s"] else "-")
    row("lag at end (records)", lambda r: f"{r['lag_at_end']:,}")
    row("maintenance passes / compactions", lambda r: f"{r['maintenance_totals'].get('passes', 0)} / "
        f"{r['maintenance_totals'].get('compactions', 0)}" if r["maintenance"] else "-")
    row("bytes rewritten / table bytes at end", lambda r: f"{r['maintenance_totals'].get('bytes_rewritten', 0) / max(r['end']['data_bytes'], 1):.1f}"
        if r["maintenance"] else "-")
    on, off = runs["on"], runs["off"]
    lines += ["", f"Ingestion with maintenance on: {on['records_per_s'] / off['records_per_s']:.0%} of off in "
              f"records/s (the producer's rate bounds both), {on['records_per_cpu_s'] / off['records_per_cpu_s']:.0%} "
              "in records per CPU-second.", SECTION_END, ""]
    return "\n".join(lines)


def main() -> int:
    o = parse_args()
    floe_bin = pathlib.Path(o.build) / "apps" / "floe" / "floe"
    out = pathlib.Path(o.out)
    work = pathlib.Path(o.workdir)
    work.mkdir(parents=True, exist_ok=True)
    with KafkaBroker(work / "kafka") as kafka, SchemaRegistry() as registry:
        runs = {}
        for maintenance in (True, False):
            print(f"maintenance {'on' if maintenance else 'off'}: {o.minutes:g} min at {o.rate:.0f} records/s", flush=True)
            runs["on" if maintenance else "off"] = one_run(o, floe_bin, kafka, registry, maintenance)
            print(json.dumps(runs["on" if maintenance else "off"], default=str), flush=True)
    text = markdown(o, runs, o.build.replace(str(ROOT) + "/", ""))
    (out / "table-health.md").write_text(text)
    latest = out / "latest.md"
    current = latest.read_text() if latest.exists() else ""
    if SECTION_START in current:
        current = current[:current.index(SECTION_START)] + current[current.index(SECTION_END) + len(SECTION_END) + 1:]
    latest.write_text(current.rstrip("\n") + "\n\n" + text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
