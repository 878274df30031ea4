"""floe.yaml for the benchmark runs (JSON is YAML): a local warehouse with the built-in SQLite
catalog, one table per topic, Floe's defaults otherwise (zstd Parquet, 128MiB target files)."""
from __future__ import annotations

import json
import pathlib
import re


def write(workdir: pathlib.Path, bootstrap: str, registry_url: str, topics: list[str], *,
          group_id: str, commit_interval: str, value: str = "avro") -> pathlib.Path:
    """`value`: the topics' payload format (docs/configuration.md), as the bench formats are
    named: avro, protobuf, json_schema, json (schemaless)."""
    warehouse = workdir / "warehouse"
    warehouse.mkdir(parents=True, exist_ok=True)
    config = {
        "kafka": {"bootstrap_servers": bootstrap, "group_id": group_id},
        "schema_registry": {"url": registry_url},
        "warehouse": f"file://{warehouse}",
        "catalog": {"type": "builtin", "uri": f"sqlite://{warehouse}/catalog.db"},
        "defaults": {"commit_interval": commit_interval},
        "topics": [{"name": t, "value": value} for t in topics],
    }
    path = workdir / "floe.yaml"
    path.write_text(json.dumps(config, indent=2))
    return path


def catalog(workdir: pathlib.Path):
    from pyiceberg.catalog.sql import SqlCatalog
    warehouse = workdir / "warehouse"
    return SqlCatalog("floe", uri=f"sqlite:///{warehouse}/catalog.db", warehouse=f"file://{warehouse}")


def committed_offsets(table) -> dict:
    """floe.offsets of the current snapshot: {topic: {partition: next offset}} (Floe writes
    every partition the table has covered into each commit)."""
    snap = table.current_snapshot()
    if snap is None or not snap.summary:
        return {}
    text = snap.summary.additional_properties.get("floe.offsets")
    if not text:
        return {}
    return {t: {int(p): o for p, o in parts.items()} for t, parts in json.loads(text).items()}


def table_name(topic: str) -> str:
    """Floe's default table for a topic (docs/configuration.md: lower-cased, [^a-z0-9_] -> _)."""
    return "kafka." + re.sub(r"[^a-z0-9_]", "_", topic.lower())
