"""floe.yaml for the benchmark runs (JSON is YAML): a local warehouse with the built-in SQLite
catalog, one table per topic, Floe's defaults otherwise (zstd Parquet, 128MiB target files)."""
from __future__ import annotations

import json
import os
import pathlib
import re


def write(workdir: pathlib.Path, bootstrap: str, registry_url: str, topics: list[str], *,
          group_id: str, commit_interval: str, value: str = "avro", s3=None) -> pathlib.Path:
    """`value`: the topics' payload format (docs/configuration.md), as the bench formats are
    named: avro, protobuf, json_schema, json (schemaless). `s3`: an S3Target to put the
    warehouse on (the catalog database stays a local file)."""
    warehouse = workdir / "warehouse"
    warehouse.mkdir(parents=True, exist_ok=True)
    config = {
        "kafka": {"bootstrap_servers": bootstrap, "group_id": group_id},
        "schema_registry": {"url": registry_url},
        "warehouse": s3.warehouse if s3 else f"file://{warehouse}",
        "catalog": {"type": "builtin", "uri": f"sqlite://{warehouse}/catalog.db"},
        "defaults": {"commit_interval": commit_interval},
        "topics": [{"name": t, "value": value} for t in topics],
    }
    if s3:
        config["storage"] = s3.server.storage_config()
    # bench/run.py --buffer-memory / --workers: Floe's defaults unless set.
    if os.environ.get("BENCH_BUFFER_MEMORY"):
        config["buffer_memory"] = os.environ["BENCH_BUFFER_MEMORY"]
    if os.environ.get("BENCH_WORKERS"):
        config["workers"] = int(os.environ["BENCH_WORKERS"])
    path = workdir / "floe.yaml"
    path.write_text(json.dumps(config, indent=2))
    return path


def catalog(workdir: pathlib.Path, s3=None):
    from pyiceberg.catalog.sql import SqlCatalog
    warehouse = workdir / "warehouse"
    if s3:
        key = s3.server.key
        return SqlCatalog("floe", uri=f"sqlite:///{warehouse}/catalog.db", warehouse=s3.warehouse,
                          **{"s3.endpoint": s3.server.endpoint, "s3.region": "us-east-1",
                             "s3.access-key-id": key[0], "s3.secret-access-key": key[1]})
    return SqlCatalog("floe", uri=f"sqlite:///{warehouse}/catalog.db", warehouse=f"file://{warehouse}")


def commits_and_files(table) -> tuple[int, int]:
    """Snapshots that added data files, and how many files they added (files per commit)."""
    commits = files = 0
    for snap in table.metadata.snapshots:
        added = int((snap.summary.additional_properties if snap.summary else {}).get("added-data-files", 0))
        if added:
            commits, files = commits + 1, files + added
    return commits, files


def snapshot_offsets(snap) -> dict:
    """floe.offsets of a snapshot (None: no snapshot): {topic: {partition: next offset}} (Floe
    writes every partition the table has covered into each commit)."""
    if snap is None or not snap.summary:
        return {}
    text = snap.summary.additional_properties.get("floe.offsets")
    if not text:
        return {}
    return {t: {int(p): o for p, o in parts.items()} for t, parts in json.loads(text).items()}


def committed_offsets(table) -> dict:
    """floe.offsets of the current snapshot."""
    return snapshot_offsets(table.current_snapshot())


def table_name(topic: str) -> str:
    """Floe's default table for a topic (docs/configuration.md: lower-cased, [^a-z0-9_] -> _)."""
    return "kafka." + re.sub(r"[^a-z0-9_]", "_", topic.lower())
