#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets for schemas, files, framing and service inputs
(docs/development.md, "Fuzzing"); gen_corpus.py writes the payload decoders' seeds. Run it with
the project venv:

    .deps/venv/bin/python tests/fuzz/gen_corpus_formats.py

Like gen_corpus.py it rewrites only its NN-<name> files. Seeds come from the real writers where
one exists (fastavro for Avro files, pyiceberg for manifest lists and metadata, delta-rs for
Delta commits, the golden files under tests/data) and are made by hand for the rest."""
import io
import json
import pathlib
import struct
import tempfile

import fastavro

from gen_corpus import CORPUS, FLUSH, SCHEMAS, write_corpus

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def dumps(value):
    return json.dumps(value, separators=(",", ":")).encode()


def zigzag_varint(n):
    n = (n << 1) ^ (n >> 63)
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


# --- Avro schemas -------------------------------------------------------------------------
def avro_schema_seeds():
    full = (SCHEMAS / "fuzz.avsc").read_bytes().strip()
    full_payload = (CORPUS / "avro" / "00-full").read_bytes()
    point = {"type": "record", "name": "Point", "namespace": "geo", "fields": [
        {"name": "x", "type": "double"}, {"name": "y", "type": ["null", "double"], "default": None}]}
    manifest_schema = None
    with open(DATA / "iceberg" / "manifests" / "java-v2-null.avro", "rb") as f:
        manifest_schema = dumps(fastavro.reader(f).writer_schema)
    seeds = [
        ("fuzz-avsc-with-payload", [full, full_payload]),
        ("primitive-long", [b'"long"', zigzag_varint(-1), zigzag_varint(1 << 40)]),
        ("primitive-object", [b'{"type":"string"}', b"\x06abc"]),
        ("record-named-reuse", [dumps({"type": "record", "name": "Line", "fields": [
            {"name": "a", "type": point}, {"name": "b", "type": "geo.Point"},
            {"name": "c", "type": {"type": "array", "items": "geo.Point"}}]}),
            b"\x00\x00\x00\x00\x00\x00\xf0?\x00" * 2 + b"\x00"]),
        ("enum-fixed-map", [dumps({"type": "record", "name": "R", "fields": [
            {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"], "default": "A"}},
            {"name": "f", "type": {"type": "fixed", "name": "F", "size": 2}},
            {"name": "m", "type": {"type": "map", "values": "int"}}]}), b"\x02zz\x02\x02k\x04\x00"]),
        ("logical-types", [dumps({"type": "record", "name": "L", "fields": [
            {"name": "d", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
            {"name": "df", "type": {"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal",
                                    "precision": 18, "scale": 4}},
            {"name": "u", "type": {"type": "string", "logicalType": "uuid"}},
            {"name": "day", "type": {"type": "int", "logicalType": "date"}},
            {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
            {"name": "dur", "type": {"type": "fixed", "name": "Dur", "size": 12, "logicalType": "duration"}},
            {"name": "bad", "type": {"type": "string", "logicalType": "date"}}]})]),
        ("unions", [dumps({"type": "record", "name": "U", "fields": [
            {"name": "o", "type": ["null", "int"]}, {"name": "m", "type": ["int", "string", {"type": "array", "items": "long"}]}]}),
            b"\x02\x04\x02\x02x", b"\x00\x04\x02\x02\x02\x00"]),
        ("recursive-refused", dumps({"type": "record", "name": "Node", "fields": [
            {"name": "next", "type": ["null", "Node"]}]})),
        ("aliases-defaults", dumps({"type": "record", "name": "A", "namespace": "n", "aliases": ["B"], "fields": [
            {"name": "x", "type": "int", "default": 1, "aliases": ["y"], "doc": "d", "order": "descending",
             "field-id": 7}]})),
        ("nested-arrays", [dumps({"type": "array", "items": {"type": "array", "items": {
            "type": "map", "values": {"type": "array", "items": "boolean"}}}}), b"\x02\x02\x02\x02k\x02\x01\x00\x00\x00\x00"]),
        ("iceberg-manifest-entry", manifest_schema),
        ("not-json", b'{"type": "record", "name": '),
    ]
    write_corpus("avro_schema", seeds)


# --- Avro container files -----------------------------------------------------------------
def avro_container_seeds():
    schema = fastavro.parse_schema({"type": "record", "name": "R", "fields": [
        {"name": "i", "type": "long"}, {"name": "s", "type": ["null", "string"]},
        {"name": "a", "type": {"type": "array", "items": "int"}}]})
    records = [{"i": n, "s": None if n % 2 else "v%d" % n, "a": list(range(n % 3))} for n in range(5)]

    def container(codec, block_size=16000):
        buf = io.BytesIO()
        fastavro.writer(buf, schema, records, codec=codec, sync_interval=block_size, metadata={"k": "v"})
        return buf.getvalue()

    seeds = [("fastavro-" + c, container(c)) for c in ("null", "deflate", "snappy", "zstandard")]
    seeds.append(("fastavro-many-blocks", container("null", block_size=1)))
    empty = io.BytesIO()
    fastavro.writer(empty, schema, [], codec="null")
    seeds.append(("no-blocks", empty.getvalue()))
    seeds.append(("header-only-magic", b"Obj\x01"))
    seeds.append(("apache-avro-null", (DATA / "avro" / "apache_avro_null.avro").read_bytes()))
    write_corpus("avro_container", seeds)


# --- Confluent framing ----------------------------------------------------------------------
def wire_format_seeds():
    seeds = [
        ("avro-id-1", b"\x00\x00\x00\x00\x01\x02hi"),
        ("protobuf-first-message", b"\x00\x00\x00\x00\x02\x00\x08\x01"),
        ("protobuf-nested-index", b"\x00\x00\x00\x00\x02\x04\x02\x06\x08\x01"),
        ("protobuf-index-count-too-large", b"\x00\x00\x00\x00\x02\xfe\x03"),
        ("id-max", b"\x00\x7f\xff\xff\xff"),
        ("id-negative", b"\x00\x80\x00\x00\x00"),
        ("wrong-magic", b"\x01\x00\x00\x00\x01"),
        ("short", b"\x00\x00"),
        ("empty", b""),
    ]
    write_corpus("wire_format", seeds)


# --- Schema Registry answers ----------------------------------------------------------------
def registry_response_seeds():
    avro = (SCHEMAS / "fuzz.avsc").read_text()
    seeds = [
        ("avro-by-id", dumps({"schema": json.dumps({"type": "record", "name": "R", "fields": [
            {"name": "a", "type": "int"}]})})),
        ("protobuf-with-references", dumps({
            "id": 12, "schemaType": "PROTOBUF", "schema": 'syntax = "proto3"; import "other.proto"; message M { int32 a = 1; }',
            "references": [{"name": "other.proto", "subject": "other-value", "version": 3}]})),
        ("json-subject-version", dumps({"subject": "orders-value", "version": 2, "id": 5, "schemaType": "JSON",
                                        "schema": '{"type":"object","properties":{"a":{"type":"integer"}}}'})),
        ("fuzz-avsc", dumps({"id": 1, "schema": avro})),
        ("error-body", dumps({"error_code": 40403, "message": "Schema 9 not found"})),
        ("bad-reference", dumps({"schema": "\"int\"", "references": [{"name": "x", "version": "1"}]})),
        ("unknown-type", dumps({"schema": "{}", "schemaType": "THRIFT"})),
        ("id-out-of-range", dumps({"id": 1 << 40, "schema": "\"int\""})),
        ("html", b"<html><body>502 Bad Gateway</body></html>"),
    ]
    write_corpus("registry_response", seeds)


# --- floe.yaml --------------------------------------------------------------------------------
def config_seeds():
    doc = (ROOT / "docs" / "configuration.md").read_text()
    reference = doc.split("```yaml\n", 1)[1].split("```", 1)[0].encode()
    seeds = [
        ("minimal", b"kafka:\n  bootstrap_servers: localhost:9092\nwarehouse: /tmp/wh\ntopics:\n  - name: orders\n"),
        ("registry-and-defaults", b"""kafka: {bootstrap_servers: "b:9092", group_id: g, properties: {fetch.max.bytes: "1000"}}
schema_registry: {url: "http://r:8081"}
warehouse: file:///tmp/wh
catalog: {type: builtin, uri: "sqlite:///tmp/c.db", listen: "127.0.0.1:0"}
admin: {listen: "127.0.0.1:0"}
buffer_memory: 64MiB
defaults: {commit_interval: 2s, target_file_size: 8MiB, error_mode: dlq, formats: [iceberg, delta]}
topics:
  - {pattern: "^orders\\\\..*", value: protobuf, message: acme.Order, dlq_topic: dlq, partition_by: ["bucket[4](id)"]}
  - {name: events, value: json, json_conflicts: as_text, key: string, error_mode: skip}
"""),
        ("catalog-serve", b"warehouse: s3://bucket/wh\nstorage:\n  s3: {endpoint: \"http://127.0.0.1:9000\", path_style: true}\n"
                          b"catalog:\n  type: builtin\n  uri: postgresql://u@h/db\n  token: t\n"),
        ("secret-refs", b"kafka: {bootstrap_servers: b}\nwarehouse: /w\nschema_registry: {url: 'http://r', bearer_token: '$${x}${env:FLOE_FUZZ_UNSET}'}\n"
                        b"topics: [{name: t}]\n"),
        ("anchors-and-tags", b"base: &b {name: t, value: bytes}\nkafka: {bootstrap_servers: b}\nwarehouse: /w\n"
                             b"topics: [*b, {<<: *b, name: u}, !!str x]\n"),
        ("reference", reference),
        ("not-a-map", b"- 1\n- 2\n"),
    ]
    write_corpus("config", seeds)


# --- REST catalog requests ----------------------------------------------------------------
def rest_request_seeds():
    schema = {"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "id", "required": True, "type": "long"},
        {"id": 2, "name": "ts", "required": False, "type": "timestamptz"},
        {"id": 3, "name": "tags", "required": False, "type": {"type": "list", "element-id": 4, "element": "string",
                                                              "element-required": False}}]}
    seeds = [
        ("create-namespace", [dumps({"namespace": ["db", "inner"], "properties": {"owner": "me"}}), b"db\x1finner"]),
        ("update-properties", [dumps({"removals": ["a"], "updates": {"b": "c"}}), b"db"]),
        ("create-table", dumps({"name": "t", "schema": schema, "location": "file:///tmp/wh/db/t",
                                "partition-spec": {"fields": [{"source-id": 2, "transform": "day", "name": "ts_day"},
                                                              {"source-id": 1, "transform": "bucket[16]", "name": "b"}]},
                                "write-order": {"fields": [{"source-id": 1, "transform": "identity",
                                                            "direction": "asc", "null-order": "nulls-first"}]},
                                "properties": {"format-version": "2"}, "stage-create": True})),
        ("register-table", dumps({"name": "t", "metadata-location": "file:///tmp/wh/db/t/metadata/v1.metadata.json"})),
        ("commit-table", dumps({"requirements": [{"type": "assert-table-uuid", "uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1"},
                                                 {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": None},
                                                 {"type": "assert-current-schema-id", "current-schema-id": 0}],
                                "updates": [{"action": "add-schema", "schema": schema, "last-column-id": 4},
                                            {"action": "set-current-schema", "schema-id": -1},
                                            {"action": "set-properties", "updates": {"k": "v"}},
                                            {"action": "remove-properties", "removals": ["x"]},
                                            {"action": "set-location", "location": "s3://b/t"},
                                            {"action": "add-spec", "spec": {"spec-id": 1, "fields": []}},
                                            {"action": "set-default-spec", "spec-id": -1},
                                            {"action": "add-snapshot", "snapshot": {
                                                "snapshot-id": 5, "sequence-number": 1, "timestamp-ms": 1,
                                                "manifest-list": "s3://b/t/metadata/snap-5.avro",
                                                "summary": {"operation": "append"}, "schema-id": 0}},
                                            {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch",
                                             "snapshot-id": 5},
                                            {"action": "upgrade-format-version", "format-version": 2},
                                            {"action": "assign-uuid", "uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1"}]})),
        ("commit-transaction", dumps({"table-changes": [
            {"identifier": {"namespace": ["db"], "name": "a"}, "requirements": [], "updates": [
                {"action": "set-properties", "updates": {"k": "v"}}]},
            {"identifier": {"namespace": ["db"], "name": "b"}, "requirements": [{"type": "assert-create"}],
             "updates": []}]})),
        ("rename", dumps({"source": {"namespace": ["db"], "name": "a"}, "destination": {"namespace": ["db2"], "name": "b"}})),
        ("traversal-names", [dumps({"namespace": [".."], "name": "../../etc"}), b"..\x1f."]),
        ("not-json", b'{"name": "t", "schema": '),
    ]
    write_corpus("rest_request", seeds)


# --- Iceberg table metadata ---------------------------------------------------------------
def iceberg_metadata_seeds():
    seeds = [(p.name.replace(".metadata.json", ""), p.read_bytes()) for p in
             [DATA / "iceberg" / n for n in ("v1-handwritten.metadata.json", "v3-handwritten.metadata.json",
                                             "pyiceberg-00000.metadata.json", "pyiceberg-00003.metadata.json")]]
    write_corpus("iceberg_metadata", seeds)


# --- Iceberg manifests and manifest lists -------------------------------------------------
def iceberg_manifest_seeds():
    seeds = [(n.replace(".avro", ""), (DATA / "iceberg" / "manifests" / n).read_bytes())
             for n in ("java-v2-null.avro", "java-v1-deflate.avro", "pyiceberg-v2-null.avro")]
    # A manifest list as pyiceberg writes it: a table created and appended to in a temp warehouse.
    import pyarrow as pa
    from pyiceberg.catalog.sql import SqlCatalog

    with tempfile.TemporaryDirectory() as tmp:
        catalog = SqlCatalog("fuzz", uri=f"sqlite:///{tmp}/c.db", warehouse=f"file://{tmp}")
        catalog.create_namespace("db")
        data = pa.table({"id": pa.array([1, 2], pa.int64()), "s": pa.array(["a", None])})
        table = catalog.create_table("db.t", schema=data.schema)
        table.append(data)
        table.append(data)
        manifest_list = table.current_snapshot().manifest_list
        seeds.append(("pyiceberg-manifest-list", pathlib.Path(manifest_list.removeprefix("file://")).read_bytes()))
    write_corpus("iceberg_manifest", seeds)


# --- Delta log ------------------------------------------------------------------------------
def delta_log_seeds():
    import pyarrow as pa
    from deltalake import write_deltalake

    seeds = []
    with tempfile.TemporaryDirectory() as tmp:
        data = pa.table({"id": pa.array([1, 2], pa.int64()), "p": pa.array(["a", "b"])})
        write_deltalake(tmp, data, partition_by=["p"])
        write_deltalake(tmp, data, mode="append")
        log = pathlib.Path(tmp) / "_delta_log"
        seeds.append(("delta-rs-two-commits", [(log / f"{v:020d}.json").read_bytes().rstrip(b"\n") for v in (0, 1)]))
    schema = json.dumps({"type": "struct", "fields": [
        {"name": "a", "type": "long", "nullable": True, "metadata": {
            "delta.columnMapping.id": 1, "delta.columnMapping.physicalName": "col-1"}},
        {"name": "s", "type": {"type": "struct", "fields": [{"name": "x", "type": "decimal(10,2)", "nullable": True,
                                                             "metadata": {}}]}, "nullable": True, "metadata": {}}]})
    lines = [
        {"protocol": {"minReaderVersion": 2, "minWriterVersion": 5}},
        {"metaData": {"id": "t", "format": {"provider": "parquet", "options": {}}, "schemaString": schema,
                      "partitionColumns": [], "configuration": {"delta.columnMapping.mode": "name",
                                                                 "delta.columnMapping.maxColumnId": "2"},
                      "createdTime": 1}},
        {"add": {"path": "a%20b.parquet", "partitionValues": {}, "size": 10, "modificationTime": 1, "dataChange": True,
                 "stats": "{\"numRecords\":1}"}},
        {"txn": {"appId": "floe:orders:0", "version": 7, "lastUpdated": 1}},
        {"commitInfo": {"operation": "WRITE"}},
    ]
    removes = [{"remove": {"path": "a%20b.parquet", "deletionTimestamp": 2, "dataChange": True}},
               {"txn": {"appId": "floe:orders:0", "version": 9}}]
    seeds.append(("column-mapping-add-remove-txn", [b"\n".join(dumps(l) for l in lines), b"\n".join(dumps(l) for l in removes)]))
    seeds.append(("reader-features", dumps({"protocol": {"minReaderVersion": 3, "minWriterVersion": 7,
                                                         "readerFeatures": ["deletionVectors"],
                                                         "writerFeatures": ["deletionVectors", "domainMetadata"]}})))
    seeds.append(("not-json", b'{"add": {"path": '))
    write_corpus("delta_log", seeds)


if __name__ == "__main__":
    avro_schema_seeds()
    avro_container_seeds()
    wire_format_seeds()
    registry_response_seeds()
    config_seeds()
    rest_request_seeds()
    iceberg_metadata_seeds()
    iceberg_manifest_seeds()
    delta_log_seeds()
