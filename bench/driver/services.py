"""The services every figure shares — a single-node Kafka broker (the test fixture) and the
test schema registry — plus registering the event schema and filling topics with the C++
producer (Python's serializer would take minutes for millions of records)."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.integration.fixtures.kafka_broker import KafkaBroker  # noqa: E402,F401
from tests.integration.fixtures.schema_registry import SchemaRegistry  # noqa: E402,F401

from . import measure  # noqa: E402


FORMATS = ["avro", "protobuf", "json_schema", "json"]  # bench/event.h
SCHEMA_TYPES = {"avro": "AVRO", "protobuf": "PROTOBUF", "json_schema": "JSON"}  # json: no registry


def register_schema(registry_url: str, subject: str, schema_text: str, schema_type: str = "AVRO") -> int:
    body = {"schema": schema_text}
    if schema_type != "AVRO":  # the registry's default
        body["schemaType"] = schema_type
    body = json.dumps(body).encode()
    req = urllib.request.Request(f"{registry_url}/subjects/{subject}/versions", data=body, method="POST",
                                 headers={"Content-Type": "application/vnd.schemaregistry.v1+json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())["id"]


class Producer:
    """floe_bench_produce in one payload format (avro, protobuf, json_schema: registered once per
    subject with that schemaType; json: schemaless, nothing registered)."""

    def __init__(self, bench_bin: pathlib.Path, bootstrap: str, registry_url: str, workdir: pathlib.Path,
                 fmt: str = "avro"):
        self.bin = bench_bin / "floe_bench_produce"
        self.bootstrap = bootstrap
        self.registry_url = registry_url
        self.workdir = workdir
        self.format = fmt
        self.schema = subprocess.run([str(self.bin), "--print-schema", fmt], check=True, capture_output=True,
                                     text=True).stdout

    def schema_id(self, topic: str) -> int:
        if self.format == "json":
            return 0  # no framing, no registry
        return register_schema(self.registry_url, f"{topic}-value", self.schema, SCHEMA_TYPES[self.format])

    def command(self, topics: list[str], partitions: int, records: int, *, first_index: int = 0, rate: float = 0,
                samples: pathlib.Path | None = None, sample_every: int = 1) -> list[str]:
        cmd = [str(self.bin), "--bootstrap", self.bootstrap, "--partitions", str(partitions),
               "--records", str(records), "--first-index", str(first_index), "--format", self.format,
               "--schema-id", str(self.schema_id(topics[0])), "--rate", str(rate)]
        for t in topics[1:]:
            self.schema_id(t)  # Floe looks the id up by number; registering under each subject is tidy
        for t in topics:
            cmd += ["--topic", t]
        if samples:
            cmd += ["--samples", str(samples), "--sample-every", str(sample_every)]
        return cmd

    def fill(self, topics: list[str], partitions: int, records: int) -> dict:
        usage = measure.run(self.command(topics, partitions, records),
                            log_path=self.workdir / f"produce-{self.format}.log")
        out = json.loads(usage.stdout)
        out["wall"] = usage.wall
        return out
