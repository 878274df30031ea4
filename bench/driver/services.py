"""The services every figure shares — a single-node Kafka broker (the test fixture) and the
test schema registry — plus registering the event schema and filling topics with the C++
producer (Python's serializer would take minutes for millions of records)."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.integration.fixtures.kafka_broker import KafkaBroker  # noqa: E402,F401
from tests.integration.fixtures.schema_registry import SchemaRegistry  # noqa: E402,F401
from tests.integration.fixtures.s3proxy_server import S3ProxyServer  # noqa: E402,F401

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


class S3Target:
    """The warehouse on the local S3 server (S3Proxy, the tests' fixture: Java, over a local
    directory): a fresh bucket per run, the bytes Floe stored there, and the server's CPU seconds
    (it runs on the same two cores as Floe)."""

    def __init__(self, server, bucket: str | None = None):
        self.server = server
        self.bucket = bucket
        self.warehouse = f"s3://{bucket}/wh" if bucket else None

    def fresh(self) -> "S3Target":
        return S3Target(self.server, self.server.create_bucket("bench"))

    def bytes_stored(self) -> int:
        total = 0
        for page in self.server.client().get_paginator("list_objects_v2").paginate(Bucket=self.bucket):
            total += sum(o.get("Size", 0) for o in page.get("Contents", []))  # S3Proxy lists directories without one
        return total

    def drop(self) -> None:
        """The bucket's directory on the server's disk (GBs at full size)."""
        import shutil
        shutil.rmtree(self.server.workdir / "data" / self.bucket, ignore_errors=True)

    def server_cpu(self) -> float:
        return measure.process_cpu(self.server.proc.pid)
