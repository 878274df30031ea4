"""Generates the pyiceberg-written golden manifests in this directory (see README.md).

Run off-line, by hand, only when the files must change (generate_manifests.sh runs it):
    /work/main/.deps/venv/bin/python tests/data/iceberg/manifests/generate_pyiceberg_manifests.py
Same schema, partition spec (id 3) and entries as GenerateJavaManifests.java: entry i is a
function of i only, and tests/unit/iceberg/manifest_golden_test.cc computes it again.
"""
import decimal
import pathlib
import sys
import uuid

from pyiceberg.io.pyarrow import PyArrowFileIO
from pyiceberg.manifest import (DataFile, DataFileContent, FileFormat, ManifestEntry, ManifestEntryStatus,
                                write_manifest)
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import (BucketTransform, DayTransform, HourTransform, IdentityTransform, MonthTransform,
                                  TruncateTransform)
from pyiceberg.typedef import Record
from pyiceberg.types import (BinaryType, BooleanType, DateType, DecimalType, DoubleType, FixedType, FloatType,
                             IntegerType, LongType, NestedField, StringType, TimestampType, TimestamptzType,
                             TimeType, UUIDType)

HERE = pathlib.Path(__file__).resolve().parent
SNAPSHOT_ID = 42

SCHEMA = Schema(
    NestedField(1, "b", BooleanType()), NestedField(2, "i", IntegerType()), NestedField(3, "l", LongType()),
    NestedField(4, "f", FloatType()), NestedField(5, "d", DoubleType()), NestedField(6, "dt", DateType()),
    NestedField(7, "t", TimeType()), NestedField(8, "ts", TimestampType()), NestedField(9, "tstz", TimestamptzType()),
    NestedField(10, "s", StringType()), NestedField(11, "u", UUIDType()), NestedField(12, "fx", FixedType(4)),
    NestedField(13, "bin", BinaryType()), NestedField(14, "dec", DecimalType(9, 2)),
    NestedField(15, "dec_big", DecimalType(20, 4)), schema_id=0)

# Identity on every column but fx (see the Java generator), then the other transforms.
IDENTITY = [(1, "b"), (2, "i"), (3, "l"), (4, "f"), (5, "d"), (6, "dt"), (7, "t"), (8, "ts"), (9, "tstz"),
            (10, "s"), (11, "u"), (13, "bin"), (14, "dec"), (15, "dec_big")]
FIELDS = [PartitionField(src, 1000 + k, IdentityTransform(), name) for k, (src, name) in enumerate(IDENTITY)]
FIELDS += [PartitionField(8, 1014, DayTransform(), "ts_day"), PartitionField(9, 1015, HourTransform(), "tstz_hour"),
           PartitionField(3, 1016, BucketTransform(8), "l_bucket"),
           PartitionField(10, 1017, TruncateTransform(3), "s_trunc"),
           PartitionField(6, 1018, MonthTransform(), "dt_month")]
SPEC = PartitionSpec(*FIELDS, spec_id=3)


def partition(i: int) -> Record:
    if i == 0:
        values = [True, 42, 1234567890123, 1.5, -2.25, 19000, 45296789012, 1700000000123456, -86400000001,
                  "h\u00e9llo", uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7"), b"\x00\xff\x10",
                  decimal.Decimal("123.45"), decimal.Decimal("12345678901234.5678"), 19675, -25, 5, "h\u00e9l", 624]
    elif i == 1:
        values = [False, -7, -9, -0.25, 1e300, -1, 0, -1, 0, "", uuid.UUID("00000000-0000-0000-0000-000000000001"),
                  b"", decimal.Decimal("-0.01"), decimal.Decimal("-12345678901234.5678"), -1, 0, 0, "", -1]
    else:
        values = [None] * len(FIELDS)
    return Record(*values)


def data_file(i: int) -> DataFile:
    return DataFile.from_args(
        content=DataFileContent.DATA, file_path=f"s3://bucket/t/data/f{i}.parquet", file_format=FileFormat.PARQUET,
        partition=partition(i), record_count=100 + i, file_size_in_bytes=4096 + i,
        column_sizes={1: 800 + i, 2: 900 + i}, value_counts={1: 100 + i, 2: 100 + i}, null_value_counts={1: 0, 2: i},
        nan_value_counts={4: i}, lower_bounds={3: i.to_bytes(8, "little")},
        upper_bounds={3: (1000 + i).to_bytes(8, "little")}, key_metadata=None, split_offsets=[4, 1000 + i],
        equality_ids=None, sort_order_id=0)


def write(version: int, codec: str) -> None:
    path = HERE / f"pyiceberg-v{version}-{codec}.avro"
    path.unlink(missing_ok=True)  # pyiceberg does not overwrite
    with write_manifest(format_version=version, spec=SPEC, schema=SCHEMA,
                        output_file=PyArrowFileIO().new_output(str(path)), snapshot_id=SNAPSHOT_ID,
                        avro_compression=codec) as w:
        w.add_entry(ManifestEntry.from_args(status=ManifestEntryStatus.ADDED, snapshot_id=SNAPSHOT_ID,
                                            sequence_number=None, file_sequence_number=None,
                                            data_file=data_file(0)))
        w.add_entry(ManifestEntry.from_args(status=ManifestEntryStatus.EXISTING, snapshot_id=11, sequence_number=3,
                                            file_sequence_number=2, data_file=data_file(1)))
        w.add_entry(ManifestEntry.from_args(status=ManifestEntryStatus.DELETED, snapshot_id=SNAPSHOT_ID,
                                            sequence_number=4, file_sequence_number=4,
                                            data_file=data_file(2)))
    print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    # pyiceberg's snappy needs python-snappy, which is not installed: the Java files cover snappy.
    for codec in ["null", "deflate", "zstandard"]:
        write(2, codec)
    write(1, "deflate")
    sys.exit(0)
