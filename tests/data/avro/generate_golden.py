"""Generates the golden Avro container files in this directory (see README.md).

Run off-line, by hand, only when the files must change:
    /work/main/.deps/venv/bin/python tests/data/avro/generate_golden.py
The files are committed; unit tests read them and never run this script. The rows are
a function of the row index only (row()); tests/unit/avro/container_golden_test.cc
computes the same values in C++ and compares every column.
"""
import decimal
import io
import pathlib

import avro.datafile
import avro.io
import avro.schema
import fastavro

HERE = pathlib.Path(__file__).resolve().parent
ROWS = 40

# Every Avro type, nested, with the attributes Iceberg puts in manifests ("field-id" on
# fields, "element-id" on arrays, "key-id"/"value-id" on maps, "logicalType": "map" on an
# array of key/value records) and an empty record like an unpartitioned manifest's
# "partition".
SCHEMA = {
    "type": "record", "name": "Golden", "namespace": "floe.golden",
    "fields": [
        {"name": "id", "type": "long", "field-id": 1},
        {"name": "name", "type": "string", "field-id": 2},
        {"name": "flag", "type": "boolean", "field-id": 3},
        {"name": "small", "type": "int", "field-id": 4},
        {"name": "ratio", "type": "float", "field-id": 5},
        {"name": "score", "type": "double", "field-id": 6},
        {"name": "payload", "type": "bytes", "field-id": 7},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}, "field-id": 8},
        {"name": "hash", "type": {"type": "fixed", "name": "Hash", "size": 4}, "field-id": 9},
        {"name": "note", "type": ["null", "string"], "default": None, "field-id": 10},
        {"name": "tags", "type": {"type": "array", "items": "string", "element-id": 12}, "field-id": 11},
        {"name": "counts", "type": {"type": "map", "values": "long", "key-id": 14, "value-id": 15}, "field-id": 13},
        {"name": "point", "field-id": 16, "type": {"type": "record", "name": "Point", "fields": [
            {"name": "x", "type": "int", "field-id": 17},
            {"name": "y", "type": ["null", "double"], "default": None, "field-id": 18}]}},
        {"name": "partition", "type": {"type": "record", "name": "r102", "fields": []}, "field-id": 102},
        {"name": "kv", "field-id": 19, "type": {"type": "array", "logicalType": "map", "element-id": 20, "items": {
            "type": "record", "name": "k21_v22", "fields": [
                {"name": "key", "type": "int", "field-id": 21},
                {"name": "value", "type": "long", "field-id": 22}]}}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}, "field-id": 23},
        {"name": "tms", "type": {"type": "int", "logicalType": "time-millis"}, "field-id": 24},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}, "field-id": 25},
        {"name": "dec", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}, "field-id": 26},
        {"name": "choice", "type": ["null", "long", "string"], "field-id": 27},
        {"name": "opt_point", "type": ["null", "Point"], "default": None, "field-id": 28},
    ],
}

METADATA = {"floe.golden": "yes", "format-version": "2"}


def row(i: int) -> dict:
    return {
        "id": i * 1000003 - 5000,
        "name": f"row-{i}" + ("-\u00e9" if i % 3 == 0 else ""),
        "flag": i % 2 == 0,
        "small": -(i * i),
        "ratio": i * 0.25,
        "score": i * 0.5 - 3.25,
        "payload": bytes([i % 256, (i * 7) % 256]) * (i % 4),
        "kind": "ABC"[i % 3],
        "hash": ((i * 2654435761) % 2**32).to_bytes(4, "big"),
        "note": None if i % 4 == 0 else f"note{i}",
        "tags": [f"t{k}" for k in range(i % 4)],
        "counts": {f"k{k}": k * i for k in range(i % 3)},
        "point": {"x": i, "y": None if i % 5 == 0 else i / 8},
        "partition": {},
        "kv": [{"key": k, "value": k * i - 1} for k in range(i % 3)],
        "day": 19000 + i,                          # days since 1970-01-01
        "tms": i * 1000 + 7,                       # milliseconds after midnight
        "ts": 1700000000000000 + i * 1000001,      # microseconds since the epoch
        "dec": decimal.Decimal(i * 101 - 3000).scaleb(-2),
        "choice": None if i % 3 == 0 else (i if i % 3 == 1 else f"s{i}"),
        "opt_point": None if i % 2 else {"x": -i, "y": 1.5},
    }


def normalize(record: dict) -> dict:
    """fastavro's logical values back to the numbers row() gives."""
    import datetime as dt
    r = dict(record)
    r["day"] = (r["day"] - dt.date(1970, 1, 1)).days
    t = r["tms"]
    r["tms"] = ((t.hour * 60 + t.minute) * 60 + t.second) * 1000 + t.microsecond // 1000
    r["ts"] = (r["ts"] - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) // dt.timedelta(microseconds=1)
    return r


def write_fastavro(codec: str) -> None:
    out = io.BytesIO()
    # sync_interval: a new block about every 512 bytes, so each file has several.
    # (fastavro adds avro.* keys to the metadata dict it is given: hand it a copy.)
    fastavro.writer(out, SCHEMA, [row(i) for i in range(ROWS)], codec=codec, metadata=dict(METADATA),
                    sync_interval=512)
    (HERE / f"fastavro_{codec}.avro").write_bytes(out.getvalue())


def write_apache_avro(codec: str) -> None:
    """The same rows with the reference implementation's Python library."""
    schema = avro.schema.parse(__import__("json").dumps(SCHEMA))
    out = io.BytesIO()
    writer = avro.datafile.DataFileWriter(out, avro.io.DatumWriter(), schema, codec=codec)
    for key, value in METADATA.items():
        writer.set_meta(key, value.encode())
    for i in range(ROWS):
        r = row(i)
        # avro-python's writer takes logical values as Python objects.
        import datetime as dt
        r["day"] = dt.date(1970, 1, 1) + dt.timedelta(days=r["day"])
        r["tms"] = (dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=r["tms"])).time()
        r["ts"] = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(microseconds=r["ts"])
        writer.append(r)
        if i % 9 == 8:
            writer.flush()  # ends a block
    writer.flush()
    data = out.getvalue()
    writer.close()
    (HERE / f"apache_avro_{codec}.avro").write_bytes(data)


def write_pyiceberg_manifests() -> None:
    """Real Iceberg v2 manifests, by pyiceberg's own Avro writer (deflate)."""
    from pyiceberg.io.pyarrow import PyArrowFileIO
    from pyiceberg.manifest import (DataFile, DataFileContent, FileFormat, ManifestEntry, ManifestEntryStatus,
                                    write_manifest)
    from pyiceberg.partitioning import UNPARTITIONED_PARTITION_SPEC, PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import DayTransform, IdentityTransform
    from pyiceberg.typedef import Record
    from pyiceberg.types import DateType, LongType, NestedField, StringType

    schema = Schema(NestedField(1, "id", LongType(), required=True),
                    NestedField(2, "name", StringType(), required=False),
                    NestedField(3, "day", DateType(), required=False), schema_id=0)

    def data_file(i, partition):
        return DataFile.from_args(
            content=DataFileContent.DATA, file_path=f"s3://bucket/t/data/f{i}.parquet",
            file_format=FileFormat.PARQUET, partition=partition, record_count=100 + i,
            file_size_in_bytes=4096 + i, column_sizes={1: 800 + i, 2: 900 + i},
            value_counts={1: 100 + i, 2: 100 + i}, null_value_counts={1: 0, 2: i}, nan_value_counts={},
            lower_bounds={1: i.to_bytes(8, "little")}, upper_bounds={1: (1000 + i).to_bytes(8, "little")},
            key_metadata=None, split_offsets=[4], equality_ids=None, sort_order_id=0)

    partitioned = PartitionSpec(PartitionField(3, 1000, DayTransform(), "day_day"),
                                PartitionField(2, 1001, IdentityTransform(), "name"), spec_id=1)
    for name, spec, partition in [
            ("unpartitioned", UNPARTITIONED_PARTITION_SPEC, lambda i: Record()),
            ("partitioned", partitioned, lambda i: Record(19000 + i, f"n{i}"))]:
        path = HERE / f"pyiceberg_manifest_{name}.avro"
        with write_manifest(format_version=2, spec=spec, schema=schema,
                            output_file=PyArrowFileIO().new_output(str(path)), snapshot_id=42,
                            avro_compression="deflate") as w:
            for i in range(3):
                w.add(ManifestEntry.from_args(status=ManifestEntryStatus.ADDED, snapshot_id=42,
                                              sequence_number=None, file_sequence_number=None,
                                              data_file=data_file(i, partition(i))))


if __name__ == "__main__":
    for codec in ["null", "deflate", "snappy", "zstandard"]:
        write_fastavro(codec)
    for codec in ["null", "deflate", "zstandard"]:
        write_apache_avro(codec)
    for p in HERE.glob("pyiceberg_manifest_*.avro"):
        p.unlink()  # pyiceberg does not overwrite
    write_pyiceberg_manifests()
    # Every file must read back with fastavro as the rows above.
    for p in sorted(HERE.glob("*.avro")):
        with open(p, "rb") as f:
            records = list(fastavro.reader(f))
        if not p.name.startswith("pyiceberg"):
            assert [normalize(r) for r in records] == [row(i) for i in range(ROWS)], p
        print(f"{p.name}: {p.stat().st_size} bytes, {len(records)} records")
