"""Table health under 1 s commits (issues 18 and 34, docs/maintenance.md): a producer at a steady
rate for --minutes, `floe run` with commit_interval 1s, once with maintenance on and once with it
off (--only on|off: one of them); reported per run at the start and at the end:
  - live data files of the table partition vs the bound 2 x (bytes / target_file_size) + 10,
  - manifests of the current snapshot, snapshots in the metadata,
  - DuckDB count(*) over iceberg_scan and pyiceberg scan planning (plan_files) times,
  - records committed per second and per CPU-second of floe run, the lag at the end.
Writes bench/results/table-health.md and the same section into bench/results/latest.md (both
runs only: the section compares them).

How large the metadata grows (issue 34), for the maintenance-on run, at the start, at the end
and the worst sample: the metadata file's bytes and snapshots (and what one snapshot, its
floe.offsets per Kafka partition and one metadata-log entry cost in it), *.metadata.json files
and manifest lists (snap-*.avro) in the table's metadata/ directory, with --formats
iceberg,delta the _delta_log's files and newest checkpoint, the current snapshot's floe.offsets
bytes, and the commit duration (floe_commit_duration_seconds from /metrics: the mean over the
first --window seconds after warm-up against the last). At the end every reader reads the table
(pyiceberg scan, DuckDB iceberg_scan, delta-rs with delta) and must count the records committed.
Then (--crash-check, the default with --only on) exactly-once across a kill -9 during expiry:
floe run is stopped, restarted with FLOE_FAULT_POINTS=crash-during-expiry-deletes and
maintenance.interval 5s (it exits 137 midway through deleting expired snapshots' files),
restarted normally, and once caught up every acknowledged Kafka (partition, offset) must be in
the table exactly once with the id produced there, and every file the metadata references must
exist. Writes bench/results/table-health-metadata.md (+ .json) and the same section into
latest.md (after the table-health section, which bench/run.py keeps with everything after it).

    .deps/venv/bin/python bench/table_health.py --interval 1m             # issue 18: on and off, 10 min each
    .deps/venv/bin/python bench/table_health.py --minutes 1.5 --build build/asan --interval 20s
    .deps/venv/bin/python bench/table_health.py --only on --partitions 32 --minutes 20 --formats iceberg,delta
"""
from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import pathlib
import re
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
META_START, META_END = "<!-- table-health-metadata -->", "<!-- /table-health-metadata -->"
TABLE = "kafka.health"
FAULT_POINT = "crash-during-expiry-deletes"  # src/floe/core/fault_injection.h
DEFAULT_MAX_SNAPSHOTS = 500  # docs/maintenance.md
# issue 34, "Done when"
TARGET_METADATA_BYTES = 1_000_000
TARGET_METADATA_FILES = 110
TARGET_COMMIT_RATIO = 1.2


def parse_args() -> argparse.Namespace:
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--build", default=str(ROOT / "build" / "release"))
    a.add_argument("--workdir", default=str(ROOT / "build" / "bench-health"))
    a.add_argument("--out", default=str(ROOT / "bench" / "results"))
    a.add_argument("--minutes", type=float, default=float(os.environ.get("BENCH_HEALTH_MINUTES", 10)))
    a.add_argument("--rate", type=float, default=2000.0, help="records/s produced")
    a.add_argument("--partitions", type=int, default=4, help="Kafka partitions of the topic")
    a.add_argument("--commit-interval", default="1s", help="the topic's commit_interval")
    a.add_argument("--formats", default="iceberg", help="comma list: iceberg, or iceberg,delta")
    a.add_argument("--only", choices=("on", "off"), default=None,
                   help="run only the maintenance-on (or -off) run; default both")
    a.add_argument("--interval", default=None,
                   help="maintenance.interval (default: not set, Floe's 5m; the issue-18 figures used 1m)")
    a.add_argument("--retention", default=None, help="maintenance.snapshot_retention (default: Floe's, 7d)")
    a.add_argument("--max-snapshots", type=int, default=None, help="maintenance.max_snapshots (default: Floe's, 500)")
    a.add_argument("--target-file-size", default="128MiB")
    a.add_argument("--window", type=float, default=120.0,
                   help="seconds of the commit-duration means at the start and at the end (at most a quarter of the run)")
    a.add_argument("--crash-check", action=argparse.BooleanOptionalAction, default=None,
                   help="exactly-once across a kill -9 during expiry after the on run (default: with --only on)")
    o = a.parse_args()
    o.format_list = [f.strip() for f in o.formats.split(",") if f.strip()]
    if not o.format_list or any(f not in ("iceberg", "delta") for f in o.format_list) or "iceberg" not in o.format_list:
        a.error("--formats: iceberg, or iceberg,delta (the measurements read the Iceberg table)")
    if o.crash_check is None:
        o.crash_check = o.only == "on"
    o.workdir = str(pathlib.Path(o.workdir).resolve())  # file:// URIs want absolute paths
    return o


class SteadyProducer(threading.Thread):
    def __init__(self, bootstrap, registry_url, topic, partitions, rate, seconds, first=0):
        super().__init__(daemon=True)
        self.producer = RecordProducer(bootstrap, registry_url)
        self.serializer = self.producer.serializer(ORDER)
        self.topic, self.partitions, self.rate, self.seconds = topic, partitions, rate, seconds
        self.first = first
        self.sent = 0
        self.delivered = None  # (partition, offset) -> record id, once done

    def run(self):
        began = time.monotonic()
        while time.monotonic() - began < self.seconds:
            due = int((time.monotonic() - began) * self.rate)
            while self.sent < due:
                i = self.first + self.sent
                # sent=i: the delivery map keeps the id, not the record (millions of them)
                self.producer.send_avro(self.topic, self.serializer, order(i), partition=i % self.partitions, sent=i)
                self.sent += 1
            time.sleep(0.01)
        self.delivered = self.producer.flush()


def produce_batch(bootstrap, registry_url, topic, partitions, first: int, n: int) -> dict:
    """Records first … first + n - 1 at once; (partition, offset) -> id."""
    producer = RecordProducer(bootstrap, registry_url)
    serializer = producer.serializer(ORDER)
    for i in range(first, first + n):
        producer.send_avro(topic, serializer, order(i), partition=i % partitions, sent=i)
    return dict(producer.flush())


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


def local(uri: str) -> pathlib.Path:
    return pathlib.Path(uri[len("file://"):] if uri.startswith("file://") else uri)


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


def _json_bytes(value) -> int:
    """Bytes of `value` written as compact JSON (as Floe writes its metadata files)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def metadata_figures(table, delta: bool) -> dict:
    """What grows per commit (issue 34), from the metadata file and the table's directories."""
    path = local(table.metadata_location)
    raw = path.read_bytes()
    doc = json.loads(raw)
    snapshots = doc.get("snapshots", [])
    current_id = doc.get("current-snapshot-id")
    current = next((s for s in snapshots if s.get("snapshot-id") == current_id), None)
    offsets = (current or {}).get("summary", {}).get("floe.offsets")
    offsets_map = json.loads(offsets) if offsets else {}
    offsets_partitions = sum(len(parts) for parts in offsets_map.values())
    # per snapshot in the file: its entry (summary included) and its snapshot-log entry
    n = len(snapshots)
    snap_bytes = _json_bytes(snapshots) + _json_bytes(doc.get("snapshot-log", []))
    offsets_in_file = [_json_bytes(s["summary"]["floe.offsets"]) + len('"floe.offsets":,')
                       for s in snapshots if s.get("summary", {}).get("floe.offsets")]
    offsets_partition_counts = [sum(len(p) for p in json.loads(s["summary"]["floe.offsets"]).values())
                                for s in snapshots if s.get("summary", {}).get("floe.offsets")]
    mlog = doc.get("metadata-log", [])
    meta_dir = local(table.location()) / "metadata"
    names = [e.name for e in os.scandir(meta_dir)] if meta_dir.is_dir() else []
    out = {
        "metadata_bytes": len(raw), "metadata_bytes_on_disk": os.path.getsize(path) if path.exists() else None,
        "compact_ratio": len(raw) / max(_json_bytes(doc), 1),
        "snapshots": n, "snapshot_log": len(doc.get("snapshot-log", [])), "metadata_log": len(mlog),
        # the time-travel window the kept snapshots span (docs/maintenance.md's table)
        "snapshot_span_s": ((max(s["timestamp-ms"] for s in snapshots) - min(s["timestamp-ms"] for s in snapshots))
                            / 1000 if n else None),
        "bytes_per_snapshot_file": len(raw) / n if n else None,
        "bytes_per_snapshot_entry": snap_bytes / n if n else None,
        "offsets_bytes_in_entry": sum(offsets_in_file) / len(offsets_in_file) if offsets_in_file else 0,
        "offsets_partitions_mean": (sum(offsets_partition_counts) / len(offsets_partition_counts)
                                    if offsets_partition_counts else 0),
        "metadata_log_entry_bytes": _json_bytes(mlog) / len(mlog) if mlog else None,
        "current_offsets_bytes": len(offsets.encode()) if offsets else 0,
        "current_offsets_partitions": offsets_partitions,
        "metadata_json_files": sum(1 for x in names if x.endswith(".metadata.json")),
        "manifest_lists": sum(1 for x in names if x.startswith("snap-") and x.endswith(".avro")),
        "manifests": sum(1 for x in names if x.endswith(".avro") and not x.startswith("snap-")),
        "metadata_dir_files": len(names),
        "metadata_dir_bytes": sum(os.path.getsize(meta_dir / x) for x in names if (meta_dir / x).is_file()),
    }
    out["snapshot_entry_without_offsets"] = (out["bytes_per_snapshot_entry"] - out["offsets_bytes_in_entry"]
                                             if n else None)
    out["offsets_bytes_per_partition"] = (out["offsets_bytes_in_entry"] / out["offsets_partitions_mean"]
                                          if out["offsets_partitions_mean"] else None)
    if delta:
        out.update(delta_log_figures(local(table.location()) / "_delta_log"))
    return out


def delta_log_figures(log: pathlib.Path) -> dict:
    if not log.is_dir():
        return {"delta_log_files": 0, "delta_log_bytes": 0, "delta_commits": 0, "delta_checkpoints": 0,
                "delta_checkpoint_bytes": None, "delta_checkpoint_version": None}
    entries = [(e.name, e.stat().st_size) for e in os.scandir(log) if e.is_file()]
    checkpoints = {}
    for name, size in entries:
        m = re.match(r"^(\d{20})\.checkpoint.*\.parquet$", name)
        if m:
            checkpoints.setdefault(int(m.group(1)), []).append(size)
    newest = max(checkpoints) if checkpoints else None
    last = log / "_last_checkpoint"
    if last.exists():
        try:
            newest = json.loads(last.read_text()).get("version", newest)
        except (ValueError, OSError):
            pass
    return {"delta_log_files": len(entries), "delta_log_bytes": sum(s for _, s in entries),
            "delta_commits": sum(1 for name, _ in entries if re.match(r"^\d{20}\.json$", name)),
            "delta_checkpoints": len(checkpoints), "delta_checkpoint_version": newest,
            "delta_checkpoint_bytes": sum(checkpoints.get(newest, [])) if newest is not None else None}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def status_table(port: int) -> dict:
    """floe run's /status maintenance entry of the table (totals, metadata_bytes, snapshots...)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=10) as r:
            status = json.load(r)
    except OSError:
        return {}
    for t in (status.get("maintenance") or {}).get("tables", []):
        if t.get("table") == TABLE:
            return t
    return {}


def maintenance_totals(port: int) -> dict:
    """floe run's /status maintenance totals of the table (passes, compactions, bytes rewritten...)."""
    return status_table(port).get("totals", {})


METRIC_LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})?\s+(\S+)')


def scrape(port: int) -> dict:
    """/metrics of floe run, the series of this table: {name: value} (labels other than table and
    le folded into the name; histogram buckets as name{le})."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            text = r.read().decode()
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        m = METRIC_LINE.match(line)
        if not m:
            continue
        name, labels, value = m.groups()
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', labels or ""))
        # the commit series are labelled with the formats: table="kafka.health (iceberg+delta)"
        table = labels.get("table")
        if table is not None and table != TABLE and not table.startswith(TABLE + " ("):
            continue
        key = name + (f"{{{labels['le']}}}" if "le" in labels else "")
        try:
            out[key] = float(value)
        except ValueError:
            pass
    return out


def committed(catalog, table_name: str, topic: str) -> int:
    try:
        snap = catalog.load_table(table_name).current_snapshot()
    except Exception:  # noqa: BLE001 - not created yet
        return 0
    return sum(floe_config.snapshot_offsets(snap).get(topic, {}).values())


def wait_committed(catalog, topic: str, want: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while True:
        got = committed(catalog, TABLE, topic)
        if got >= want or time.monotonic() > deadline:
            return got
        time.sleep(1)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def start_floe(floe_bin, config: pathlib.Path, log_path: pathlib.Path, fault: str | None = None):
    env = {k: v for k, v in os.environ.items() if k != "FLOE_FAULT_POINTS"}
    if fault:
        env["FLOE_FAULT_POINTS"] = fault
    log = open(log_path, "w")
    proc = subprocess.Popen([str(floe_bin), "run", "--config", str(config)], stdout=log, stderr=log, env=env)
    return proc, log


def stop_floe(proc, log) -> int:
    if proc.poll() is None:
        proc.terminate()
    try:
        rc = proc.wait(180)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    log.close()
    return rc


def thread_cpu(pid: int) -> dict:
    """CPU seconds of floe run's threads by name (floe-commit, floe-decode, floe, rdk:...)."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            comm = pathlib.Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
            fields = pathlib.Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[f"cpu:{comm}"] = out.get(f"cpu:{comm}", 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def sample(port: int, pid: int) -> dict:
    """/metrics of the table, the threads' CPU and the load average, at one instant."""
    m = scrape(port)
    m.update(thread_cpu(pid))
    m["cpu:all"] = sum(v for k, v in m.items() if k.startswith("cpu:"))
    m["load1"] = os.getloadavg()[0]
    return m


def commit_means(samples: list, t_start: float, t_end: float, window: float) -> dict:
    """Mean floe_commit_duration_seconds over [t_start, t_start + window] and [t_end - window, t_end],
    from the histogram's _sum and _count at the samples nearest those bounds; and per minute. Beside
    it, where the time goes: CPU seconds of the commit threads (floe-commit) and of the whole
    process per commit over the same windows, and the 1-minute load average."""
    pts = [(t, m) for t, m in samples if m.get("floe_commit_duration_seconds_count") is not None]
    if len(pts) < 2:
        return {}

    def at(t):  # the sample nearest t
        return min(pts, key=lambda p: abs(p[0] - t))

    def window_figures(a, b):
        (ta, ma), (tb, mb) = a, b
        n = mb["floe_commit_duration_seconds_count"] - ma["floe_commit_duration_seconds_count"]
        out = {"commits": int(n), "span_s": tb - ta,
               "load1": sum(m.get("load1", 0) for t, m in pts if ta <= t <= tb) /
               max(1, sum(1 for t, m in pts if ta <= t <= tb))}
        if n > 0:
            out["mean_s"] = (mb["floe_commit_duration_seconds_sum"] - ma["floe_commit_duration_seconds_sum"]) / n
            for key, name in (("cpu:floe-commit", "commit_thread_cpu_s"), ("cpu:all", "process_cpu_s")):
                if key in ma and key in mb:
                    out[name] = (mb[key] - ma[key]) / n
        return out

    start = window_figures(at(t_start), at(t_start + window))
    end = window_figures(at(t_end - window), at(t_end))
    per_minute = []
    t = t_start
    while t + 60 <= t_end + 1:
        w = window_figures(at(t), at(t + 60))
        per_minute.append({k: round(v, 4) if isinstance(v, float) else v for k, v in w.items()})
        t += 60
    return {"start_mean_s": start.get("mean_s"), "start_commits": start["commits"], "start_span_s": start["span_s"],
            "end_mean_s": end.get("mean_s"), "end_commits": end["commits"], "end_span_s": end["span_s"],
            "start": start, "end": end,
            "ratio": end["mean_s"] / start["mean_s"] if start.get("mean_s") and end.get("mean_s") else None,
            "per_minute_mean_s": [w.get("mean_s") for w in per_minute], "per_minute": per_minute}


def read_positions_duckdb(metadata_location: str):
    """(partition, offset, id) lists of the Iceberg table, read by DuckDB."""
    con = connect()
    got = con.execute(f"select _kafka.partition as p, _kafka.offset as o, id from iceberg_scan('{metadata_location}')"
                      ).to_arrow_table()
    return got.column("p").to_pylist(), got.column("o").to_pylist(), got.column("id").to_pylist()


def read_positions_delta(path: pathlib.Path):
    from deltalake import DeltaTable
    t = DeltaTable(str(path)).to_pyarrow_table(columns=["_kafka", "id"])
    k = t.column("_kafka").combine_chunks()
    return k.field("partition").to_pylist(), k.field("offset").to_pylist(), t.column("id").to_pylist()


def exactly_once(positions, delivered: dict) -> dict:
    """Every acknowledged (partition, offset) in the table once, with the id produced there."""
    rows, duplicates = {}, 0
    for p, o, i in zip(*positions):
        if (p, o) in rows:
            duplicates += 1
        rows[(p, o)] = i
    missing = sum(1 for k in delivered if k not in rows)
    unexpected = sum(1 for k in rows if k not in delivered)
    wrong = sum(1 for k, i in rows.items() if k in delivered and delivered[k] != i)
    out = {"rows": len(positions[0]), "acknowledged": len(delivered), "duplicates": duplicates,
           "missing": missing, "unexpected": unexpected, "id_mismatches": wrong}
    out["ok"] = duplicates == 0 and missing == 0 and unexpected == 0 and wrong == 0
    return out


def missing_referenced_files(table, delta: bool) -> dict:
    """Files the metadata references that are not on storage: every kept snapshot's manifest list,
    manifests and live data files, the metadata-log's files; with delta, the Delta snapshot's files."""
    io = table.io
    missing, manifests, data = [], set(), set()
    for snap in table.metadata.snapshots:
        if not local(snap.manifest_list).exists():
            missing.append(snap.manifest_list)
            continue
        for m in snap.manifests(io):
            if m.manifest_path in manifests:
                continue
            manifests.add(m.manifest_path)
            if not local(m.manifest_path).exists():
                missing.append(m.manifest_path)
                continue
            for entry in m.fetch_manifest_entry(io, discard_deleted=True):
                data.add(entry.data_file.file_path)
    missing += [f for f in data if not local(f).exists()]
    logged = [e.metadata_file for e in table.metadata.metadata_log]
    missing_logged = [f for f in logged if not local(f).exists()]
    out = {"snapshots": len(table.metadata.snapshots), "manifests": len(manifests), "data_files": len(data),
           "metadata_log_files": len(logged), "missing": missing[:20], "missing_count": len(missing),
           "missing_metadata_log": missing_logged[:20], "missing_metadata_log_count": len(missing_logged)}
    if delta:
        from deltalake import DeltaTable
        dt = DeltaTable(str(local(table.location())))
        uris = dt.file_uris()
        gone = [u for u in uris if not local(u).exists()]
        out.update({"delta_version": dt.version(), "delta_files": len(uris), "delta_missing": gone[:20],
                    "delta_missing_count": len(gone)})
    out["ok"] = out["missing_count"] == 0 and out.get("delta_missing_count", 0) == 0
    return out


def readers(table, delta: bool, want: int) -> dict:
    """Every reader at the end: pyiceberg scan, DuckDB iceberg_scan, delta-rs; counts and seconds."""
    out = {"committed": want}
    began = time.monotonic()
    try:
        out["pyiceberg"] = table.scan(selected_fields=("id",)).to_arrow().num_rows
    except Exception as e:  # noqa: BLE001 - reported
        out["pyiceberg"] = f"error: {e}"
    out["pyiceberg_s"] = time.monotonic() - began
    began = time.monotonic()
    try:
        out["duckdb"] = connect().execute(f"select count(*) from iceberg_scan('{table.metadata_location}')").fetchone()[0]
    except Exception as e:  # noqa: BLE001
        out["duckdb"] = f"error: {e}"
    out["duckdb_s"] = time.monotonic() - began
    if delta:
        began = time.monotonic()
        try:
            from deltalake import DeltaTable
            out["delta_rs"] = DeltaTable(str(local(table.location()))).to_pyarrow_table(columns=["id"]).num_rows
        except Exception as e:  # noqa: BLE001
            out["delta_rs"] = f"error: {e}"
        out["delta_rs_s"] = time.monotonic() - began
    out["ok"] = all(out[k] == want for k in ("pyiceberg", "duckdb", "delta_rs") if k in out)
    return out


def make_config(o, kafka, registry, work: pathlib.Path, topic: str, admin_port: int, maintenance: bool) -> dict:
    m = {"enabled": maintenance}
    if o.interval:
        m["interval"] = o.interval
    if o.retention:
        m["snapshot_retention"] = o.retention
    if o.max_snapshots:
        m["max_snapshots"] = o.max_snapshots
    return {
        "kafka": {"bootstrap_servers": kafka.bootstrap, "group_id": f"bench-{topic}"},
        "schema_registry": {"url": registry.url},
        "warehouse": f"file://{work}/warehouse",
        "catalog": {"type": "builtin", "uri": f"sqlite://{work}/warehouse/catalog.db"},
        "defaults": {"commit_interval": o.commit_interval, "target_file_size": o.target_file_size,
                     "formats": o.format_list},
        "maintenance": m,
        "admin": {"listen": f"127.0.0.1:{admin_port}"},
        "topics": [{"name": topic, "table": TABLE}],
    }


def one_run(o, floe_bin, kafka, registry, maintenance: bool) -> dict:
    from pyiceberg.catalog.sql import SqlCatalog
    name = "on" if maintenance else "off"
    delta = "delta" in o.format_list
    measure_metadata = maintenance  # issue 34's figures are for the maintenance-on run
    work = pathlib.Path(o.workdir) / name
    subprocess.run(["rm", "-rf", str(work)], check=True)
    (work / "warehouse").mkdir(parents=True)
    topic = f"health-{name}-{int(time.time())}"
    admin_port = free_port()
    kafka.create_topic(topic, o.partitions)
    config = make_config(o, kafka, registry, work, topic, admin_port, maintenance)
    (work / "floe.yaml").write_text(json.dumps(config, indent=2))
    catalog = SqlCatalog("floe", uri=f"sqlite:///{work}/warehouse/catalog.db", warehouse=f"file://{work}/warehouse")
    load_start = uptime()
    proc, log = start_floe(floe_bin, work / "floe.yaml", work / "floe.log")
    seconds = o.minutes * 60
    producing = SteadyProducer(kafka.bootstrap, registry.url, topic, o.partitions, o.rate, seconds)
    began = time.monotonic()
    producing.start()
    target = byte_size(o.target_file_size)
    while committed(catalog, TABLE, topic) < o.rate * 10 and time.monotonic() - began < 120:
        time.sleep(0.5)
    start = health(catalog, TABLE, target)
    cpu_start, wall_start, rows_start = cpu_seconds(proc.pid), time.monotonic(), start["rows"]
    worst = dict(start)
    metrics = [(wall_start, sample(admin_port, proc.pid))]
    meta_start = metadata_figures(catalog.load_table(TABLE), delta) if measure_metadata else None
    meta_worst = dict(meta_start) if meta_start else None
    meta_samples = [(0.0, meta_start)] if meta_start else []
    while producing.is_alive():
        time.sleep(5)
        h = health(catalog, TABLE, target)
        if h["data_files"] - h["bound"] > worst["data_files"] - worst["bound"]:
            worst = h
        if producing.is_alive():  # a sample of the steady state (not of the drain after it)
            metrics.append((time.monotonic(), sample(admin_port, proc.pid)))
        if measure_metadata:
            try:
                f = metadata_figures(catalog.load_table(TABLE), delta)
            except (OSError, ValueError):  # the metadata file was replaced under us: next time
                continue
            meta_samples.append((time.monotonic() - wall_start, f))
            for k, v in f.items():
                if isinstance(v, (int, float)) and (meta_worst.get(k) is None or v > meta_worst[k]):
                    meta_worst[k] = v
    producing.join()
    t_end = metrics[-1][0]
    end = health(catalog, TABLE, target)
    cpu = cpu_seconds(proc.pid) - cpu_start
    wall = time.monotonic() - wall_start
    lag = producing.sent - committed(catalog, TABLE, topic)
    totals = maintenance_totals(admin_port)
    result = {"maintenance": maintenance, "start": start, "end": end, "worst": worst, "sent": producing.sent,
              "lag_at_end": lag, "records_per_s": (end["rows"] - rows_start) / wall,
              "records_per_cpu_s": (end["rows"] - rows_start) / cpu if cpu else None,
              "floe_cpu_s": cpu, "wall_s": wall, "maintenance_totals": totals, "topic": topic,
              "load_start": load_start}
    if measure_metadata:
        table = catalog.load_table(TABLE)
        result["metadata"] = {"start": meta_start, "end": metadata_figures(table, delta), "worst": meta_worst,
                              "samples": [(round(t), {k: f.get(k) for k in (
                                  "metadata_bytes", "snapshots", "metadata_json_files", "manifest_lists",
                                  "delta_log_files", "delta_checkpoint_bytes")}) for t, f in meta_samples]}
        result["commit"] = commit_means(metrics, wall_start, t_end, min(o.window, seconds / 4))
        result["commit"]["total_commits"] = metrics[-1][1].get("floe_commits_total")
        st = status_table(admin_port)
        result["status_end"] = {k: v for k, v in st.items() if k != "totals"}
        last = scrape(admin_port)
        result["gauges_end"] = {k: last.get(k) for k in ("floe_table_metadata_bytes", "floe_table_snapshots")}
        # every reader, once the table holds every record sent (the producer has stopped)
        caught = wait_committed(catalog, topic, producing.sent, 300)
        time.sleep(3)  # with delta: its commit follows Iceberg's
        result["readers"] = readers(catalog.load_table(TABLE), delta, caught)
        result["caught_up"] = caught == producing.sent
    result["floe_exit"] = stop_floe(proc, log)
    result["load_end"] = uptime()
    if maintenance and o.crash_check:
        result["crash"] = crash_check(o, floe_bin, kafka, registry, work, config, catalog, topic, producing)
        result["load_end"] = uptime()
    return result


def crash_check(o, floe_bin, kafka, registry, work, config, catalog, topic, producing) -> dict:
    """Exactly-once across a kill -9 during expiry (see the module doc)."""
    delta = "delta" in o.format_list
    delivered = dict(producing.delivered)
    next_id = producing.first + producing.sent
    snapshots = len(catalog.load_table(TABLE).metadata.snapshots)
    default_max = o.max_snapshots or DEFAULT_MAX_SNAPSHOTS
    crash_config = copy.deepcopy(config)
    crash_config["maintenance"]["interval"] = "5s"
    max_snapshots = None if snapshots > default_max else 50
    if max_snapshots:
        crash_config["maintenance"]["max_snapshots"] = max_snapshots
    (work / "floe-crash.yaml").write_text(json.dumps(crash_config, indent=2))
    out = {"snapshots_before": snapshots, "max_snapshots": max_snapshots or default_max, "interval": "5s"}
    batch = int(o.rate * 10)
    # records that the run with the fault point ingests while its first pass expires
    delivered.update(produce_batch(kafka.bootstrap, registry.url, topic, o.partitions, next_id, batch))
    next_id += batch
    proc, log = start_floe(floe_bin, work / "floe-crash.yaml", work / "floe-crash.log", fault=FAULT_POINT)
    began = time.monotonic()
    try:
        rc = proc.wait(300)
    except subprocess.TimeoutExpired:
        rc = None
    out["crash_exit"] = rc
    out["crash_after_s"] = time.monotonic() - began
    if rc is None:
        stop_floe(proc, log)
    else:
        log.close()
    text = (work / "floe-crash.log").read_text(errors="replace")
    out["expiry_log"] = [line[-300:] for line in text.splitlines() if "expir" in line.lower()][-5:]
    table = catalog.load_table(TABLE)
    out["after_crash"] = {"snapshots": len(table.metadata.snapshots),
                          "committed": committed(catalog, TABLE, topic),
                          "references": missing_referenced_files(table, delta),
                          # files the interrupted deletes left (orphan removal takes them after orphan_age)
                          "storage": {k: v for k, v in metadata_figures(table, delta).items()
                                      if k in ("metadata_json_files", "manifest_lists", "manifests")}}
    # more records while floe is down, then a normal restart catches up
    delivered.update(produce_batch(kafka.bootstrap, registry.url, topic, o.partitions, next_id, batch))
    proc, log = start_floe(floe_bin, work / "floe.yaml", work / "floe-restart.log")
    began = time.monotonic()
    caught = wait_committed(catalog, topic, len(delivered), 300)
    out["catch_up_s"] = time.monotonic() - began
    time.sleep(3)
    table = catalog.load_table(TABLE)
    out["acknowledged"] = len(delivered)
    out["committed"] = caught
    out["watermarks"] = high_watermarks(kafka.bootstrap, topic, o.partitions)
    out["iceberg"] = exactly_once(read_positions_duckdb(table.metadata_location), delivered)
    if delta:
        out["delta"] = exactly_once(read_positions_delta(local(table.location())), delivered)
    out["references"] = missing_referenced_files(table, delta)
    out["metadata_after"] = {k: v for k, v in metadata_figures(table, delta).items()
                             if k in ("metadata_bytes", "snapshots", "metadata_json_files", "manifest_lists",
                                      "delta_log_files")}
    out["restart_exit"] = stop_floe(proc, log)
    out["ok"] = (rc == 137 and caught == len(delivered) and sum(out["watermarks"]) == len(delivered)
                 and out["iceberg"]["ok"] and out.get("delta", {"ok": True})["ok"]
                 and out["references"]["ok"] and out["after_crash"]["references"]["ok"])
    return out


def high_watermarks(bootstrap: str, topic: str, partitions: int) -> list:
    from confluent_kafka import Consumer, TopicPartition
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"wm-{topic}", "enable.auto.commit": False})
    try:
        return [c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(partitions)]
    finally:
        c.close()


def markdown(o, runs: dict, build: str) -> str:
    lines = [SECTION_START, "## Table health (1 s commits, issue 18)", "",
             f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {report.machine()}, build `{build}`: "
             f"{o.rate:.0f} records/s over {o.partitions} partitions for {o.minutes:g} min per run, "
             f"commit_interval {o.commit_interval}, target_file_size {o.target_file_size}, "
             f"maintenance.interval {o.interval or '5m (default)'}, "
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


def _n(v, digits=0):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def _pf(ok) -> str:
    return "**PASS**" if ok else "**FAIL**"


def metadata_markdown(o, r: dict, build: str, command: str, commit: str) -> tuple[str, dict]:
    """The issue-34 section: figures, and the targets with PASS/FAIL."""
    md, c = r["metadata"], r.get("commit", {})
    s, e, w = md["start"], md["end"], md["worst"]
    m_settings = ", ".join(f"{k} {v}" for k, v in (("interval", o.interval), ("snapshot_retention", o.retention),
                                                      ("max_snapshots", o.max_snapshots)) if v) or "all Floe's defaults"
    lines = [META_START, "## Table metadata under fast commits (issue 34)", "",
             f"{datetime.datetime.now():%Y-%m-%d %H:%M} UTC, {report.machine().split(', load average')[0]}, build `{build}` "
             f"(tree at {commit} when the run began). {o.rate:.0f} records/s over {o.partitions} partitions for "
             f"{o.minutes:g} min, commit_interval {o.commit_interval}, formats [{', '.join(o.format_list)}], "
             f"maintenance: {m_settings}. Load: `{r['load_start']}` at start, `{r['load_end']}` at the end. "
             f"Command: `{command}`.", "",
             "| figure | start | end | worst | issue 34 target |", "| --- | ---: | ---: | ---: | --- |"]
    targets = {}

    def row(label, key, fmt=_n, target=""):
        if all(x.get(key) is None for x in (s, e, w)):
            return  # not measured by this version of the script
        lines.append(f"| {label} | {fmt(s.get(key))} | {fmt(e.get(key))} | {fmt(w.get(key))} | {target} |")
    targets["metadata file ≤ 1 MB at the end"] = e["metadata_bytes"] <= TARGET_METADATA_BYTES
    targets["≤ 110 metadata files on storage"] = e["metadata_json_files"] <= TARGET_METADATA_FILES
    row("metadata file, bytes", "metadata_bytes",
        target=f"≤ 1,000,000 at the end: {_pf(targets['metadata file ≤ 1 MB at the end'])}")
    row("snapshots in the metadata", "snapshots")
    row("time span of the snapshots kept, s", "snapshot_span_s")
    row("metadata-log entries", "metadata_log")
    row("`*.metadata.json` files in metadata/", "metadata_json_files",
        target=f"≤ 110: {_pf(targets['≤ 110 metadata files on storage'])}")
    row("manifest lists (`snap-*.avro`) in metadata/", "manifest_lists")
    row("manifests (other `*.avro`) in metadata/", "manifests")
    row("metadata/ bytes, all files", "metadata_dir_bytes")
    row("`floe.offsets` of the current snapshot, bytes", "current_offsets_bytes")
    row("… partitions in it", "current_offsets_partitions")
    row("metadata file bytes / snapshot", "bytes_per_snapshot_file")
    row("one snapshot + its snapshot-log entry, bytes", "bytes_per_snapshot_entry")
    row("… of which `floe.offsets` (as written in the file)", "offsets_bytes_in_entry")
    row("… `floe.offsets` per Kafka partition", "offsets_bytes_per_partition", lambda v: _n(v, 1))
    row("… the snapshot without `floe.offsets`", "snapshot_entry_without_offsets")
    row("one metadata-log entry, bytes", "metadata_log_entry_bytes")
    if "delta" in o.format_list:
        row("`_delta_log` files", "delta_log_files")
        row("… JSON commits", "delta_commits")
        row("… checkpoints", "delta_checkpoints")
        row("newest checkpoint, bytes", "delta_checkpoint_bytes")
        row("`_delta_log` bytes, all files", "delta_log_bytes")
    ratio = c.get("ratio")
    targets["commit duration at the end ≤ 1.2× the start"] = ratio is not None and ratio <= TARGET_COMMIT_RATIO
    lines.append(f"| commit duration, mean s (`floe_commit_duration_seconds`; first / last "
                 f"{_n(c.get('start_span_s'))} / {_n(c.get('end_span_s'))} s, {_n(c.get('start_commits'))} / "
                 f"{_n(c.get('end_commits'))} commits) | {_n(c.get('start_mean_s'), 3)} | {_n(c.get('end_mean_s'), 3)} "
                 f"| – | end ≤ 1.2× start: {_n(ratio, 2)}× {_pf(targets['commit duration at the end ≤ 1.2× the start'])} |")
    cs, ce = c.get("start", {}), c.get("end", {})
    lines.append(f"| … CPU s per commit of the commit threads (`floe-commit`) | {_n(cs.get('commit_thread_cpu_s'), 3)} "
                 f"| {_n(ce.get('commit_thread_cpu_s'), 3)} | – | |")
    lines.append(f"| … CPU s per commit of the whole process (ingestion, maintenance, librdkafka) | "
                 f"{_n(cs.get('process_cpu_s'), 3)} | {_n(ce.get('process_cpu_s'), 3)} | – | |")
    lines.append(f"| … 1-minute load average over the window (2 cores) | {_n(cs.get('load1'), 1)} "
                 f"| {_n(ce.get('load1'), 1)} | – | |")
    rd = r.get("readers", {})
    targets["every reader reads the table"] = bool(rd.get("ok"))
    readers_text = ", ".join(f"{k} {_n(rd[k])} ({rd[k + '_s']:.2f} s)" for k in ("pyiceberg", "duckdb", "delta_rs")
                             if k in rd)
    lines += ["", f"Readers at the end, {_n(rd.get('committed'))} records committed: {readers_text} — "
              f"{_pf(targets['every reader reads the table'])}."]
    st = r.get("status_end", {})
    lines.append(f"`/status` at the end: metadata_bytes {_n(st.get('metadata_bytes'))}, snapshots "
                 f"{_n(st.get('snapshots'))}; `/metrics`: floe_table_metadata_bytes "
                 f"{_n(r.get('gauges_end', {}).get('floe_table_metadata_bytes'))}, floe_table_snapshots "
                 f"{_n(r.get('gauges_end', {}).get('floe_table_snapshots'))}.")
    lines.append(f"Per minute of the run, commit duration mean s / commit-thread CPU s per commit / load: "
                 f"{', '.join(_n(w.get('mean_s'), 3) + ' / ' + _n(w.get('commit_thread_cpu_s'), 3) + ' / ' + _n(w.get('load1'), 1) for w in c.get('per_minute', []))}; commits in all "
                 f"{_n(c.get('total_commits'))}; records committed/s {r['records_per_s']:,.0f}, lag at the end "
                 f"{r['lag_at_end']:,}; floe run CPU {r['floe_cpu_s']:.0f} s over {r['wall_s']:.0f} s; maintenance "
                 f"passes {r['maintenance_totals'].get('passes', '–')}, compactions "
                 f"{r['maintenance_totals'].get('compactions', '–')}.")
    cr = r.get("crash")
    if cr:
        targets["exactly-once across a kill -9 during expiry"] = bool(cr["ok"])
        ice, dl = cr["iceberg"], cr.get("delta")
        refs, refs0 = cr["references"], cr["after_crash"]["references"]

        def eo(x):
            return (f"{x['rows']:,} rows for {x['acknowledged']:,} acknowledged, duplicates {x['duplicates']}, "
                    f"missing {x['missing']}, unexpected {x['unexpected']}, ids wrong {_n(x['id_mismatches'])}")
        lines += ["", f"Exactly-once across a kill -9 during expiry: {_pf(cr['ok'])}. Floe stopped with "
                  f"{cr['snapshots_before']} snapshots; {int(o.rate * 10):,} more records produced; restarted with "
                  f"`FLOE_FAULT_POINTS={FAULT_POINT}`, maintenance.interval 5s, max_snapshots {cr['max_snapshots']}: "
                  f"exit {_n(cr['crash_exit'])} after {cr['crash_after_s']:.1f} s ({cr['after_crash']['snapshots']} "
                  f"snapshots left, {cr['after_crash']['storage']['manifest_lists']} manifest lists and "
                  f"{cr['after_crash']['storage']['manifests']} manifests on storage; referenced files missing "
                  f"{refs0['missing_count']} of "
                  f"{refs0['data_files']:,} data files + {refs0['manifests']:,} manifests + {refs0['snapshots']} "
                  f"manifest lists, metadata-log files missing {refs0['missing_metadata_log_count']}"
                  + (f", Delta files missing {refs0['delta_missing_count']}" if "delta_missing_count" in refs0 else "")
                  + f"); {int(o.rate * 10):,} more records, restarted without the fault point, caught up in "
                  f"{cr['catch_up_s']:.0f} s. Iceberg (DuckDB): {eo(ice)}"
                  + (f". Delta (delta-rs): {eo(dl)}" if dl else "")
                  + f". Broker high watermarks sum {sum(cr['watermarks']):,}. Referenced files missing after the "
                  f"restart: {refs['missing_count']}"
                  + (f", Delta {refs['delta_missing_count']}" if "delta_missing_count" in refs else "")
                  + f"; metadata-log files missing {refs['missing_metadata_log_count']}."]
    lines += ["", "| issue 34 target | result |", "| --- | --- |"]
    for k, ok in targets.items():
        lines.append(f"| {k} | {_pf(ok)} |")
    if not cr:
        lines.append("| exactly-once across a kill -9 during expiry | not run (--no-crash-check) |")
    lines += [META_END, ""]
    return "\n".join(lines), targets


def write_latest(latest: pathlib.Path, health_text: str | None, meta_text: str | None) -> None:
    """latest.md: bench/run.py's part, then the table-health section, then the metadata section
    (run.py keeps everything from the table-health marker on)."""
    current = latest.read_text() if latest.exists() else ""
    sections = {}
    for start, end in ((SECTION_START, SECTION_END), (META_START, META_END)):
        if start in current and end in current:
            a, b = current.index(start), current.index(end) + len(end)
            sections[start] = current[a:b]
            current = current[:a] + current[b:]
    if health_text:
        sections[SECTION_START] = health_text.strip("\n")
    if meta_text:
        sections[META_START] = meta_text.strip("\n")
    parts = [current.rstrip("\n")] + [sections[k] for k in (SECTION_START, META_START) if k in sections]
    latest.write_text("\n\n".join(p for p in parts if p) + "\n")


def main() -> int:
    o = parse_args()
    floe_bin = pathlib.Path(o.build) / "apps" / "floe" / "floe"
    out = pathlib.Path(o.out)
    work = pathlib.Path(o.workdir)
    work.mkdir(parents=True, exist_ok=True)
    command = "bench/table_health.py " + " ".join(sys.argv[1:])
    commit = "`" + subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                  text=True).stdout.strip() + "`"
    if subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "src", "apps"], capture_output=True,
                      text=True).stdout.strip():
        commit += " plus uncommitted changes in src/ or apps/"
    build = o.build.replace(str(ROOT) + "/", "")
    with KafkaBroker(work / "kafka") as kafka, SchemaRegistry() as registry:
        runs = {}
        for maintenance in (True, False):
            name = "on" if maintenance else "off"
            if o.only and o.only != name:
                continue
            print(f"maintenance {name}: {o.minutes:g} min at {o.rate:.0f} records/s", flush=True)
            runs[name] = one_run(o, floe_bin, kafka, registry, maintenance)
            print(json.dumps(runs[name], default=str), flush=True)
    health_text = meta_text = None
    if "on" in runs and "off" in runs:
        health_text = markdown(o, runs, build)
        (out / "table-health.md").write_text(health_text)
        print(health_text)
    if "on" in runs:
        meta_text, targets = metadata_markdown(o, runs["on"], build, command, commit)
        (out / "table-health-metadata.md").write_text(meta_text)
        (out / "table-health-metadata.json").write_text(json.dumps(
            {"command": command, "commit": commit, "build": build, "targets": targets, "run": runs["on"]},
            indent=1, default=str))
        print(meta_text)
    write_latest(out / "latest.md", health_text, meta_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
