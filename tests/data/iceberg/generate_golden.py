"""Regenerates the pyiceberg-written golden metadata files in this directory.

Run off-line with the project's venv (pyiceberg 0.12.0, pyarrow, sqlalchemy):
    /work/main/.deps/venv/bin/python tests/data/iceberg/generate_golden.py tests/data/iceberg
It creates a table in a SqlCatalog on SQLite in a temporary directory, drives it through
appends, schema evolution, property changes and refs, and copies every metadata.json that
pyiceberg wrote to <out>/pyiceberg-<NNNNN>.metadata.json (NNNNN = the metadata version).
The metadata text is copied byte for byte; only file names change.
"""
import glob
import os
import shutil
import sys
import tempfile
from datetime import datetime, timezone

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table.sorting import NullOrder, SortDirection, SortField, SortOrder
from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform
from pyiceberg.types import (
    DoubleType, IntegerType, ListType, LongType, MapType, NestedField, StringType, StructType,
    TimestamptzType,
)

out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
tmp = tempfile.mkdtemp(prefix="floe-golden-")
try:
    catalog = SqlCatalog("golden", uri=f"sqlite:///{tmp}/catalog.db", warehouse=f"file://{tmp}/warehouse")
    catalog.create_namespace("db")
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "category", StringType(), required=False),
        NestedField(3, "ts", TimestamptzType(), required=False),
        NestedField(4, "qty", IntegerType(), required=False),
        NestedField(5, "location", StructType(
            NestedField(6, "lat", DoubleType(), required=False),
            NestedField(7, "lon", DoubleType(), required=False)), required=False),
        NestedField(8, "tags", ListType(9, StringType(), element_required=False), required=False),
        NestedField(10, "attrs", MapType(11, StringType(), 12, StringType(), value_required=False), required=False),
        identifier_field_ids=[1],
    )
    # pyiceberg computes only identity partitions without the optional pyiceberg-core
    # package, so data is written under identity(category); the spec is evolved afterwards.
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="category"))
    order = SortOrder(
        SortField(source_id=1, transform=IdentityTransform(), direction=SortDirection.ASC, null_order=NullOrder.NULLS_FIRST),
        SortField(source_id=3, transform=DayTransform(), direction=SortDirection.DESC, null_order=NullOrder.NULLS_LAST),
    )
    table = catalog.create_table("db.events", schema=schema, partition_spec=spec, sort_order=order,
                                 properties={"owner": "floe-tests"})
    arrow_schema = table.schema().as_arrow()

    def batch(start):
        ts = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
        return pa.Table.from_pylist([
            {"id": start + i, "category": ["a", "b"][i % 2], "ts": ts, "qty": i,
             "location": {"lat": 1.5 * i, "lon": -2.0}, "tags": ["x", "y"][: i + 1],
             "attrs": [("k", str(i))]} for i in range(2)], schema=arrow_schema)

    table.append(batch(0), snapshot_properties={"floe.offsets": '{"orders":{"0":2}}', "floe.commit-id": "c-0001"})
    table.append(batch(2), snapshot_properties={"floe.offsets": '{"orders":{"0":4}}', "floe.commit-id": "c-0002"})
    with table.update_schema() as update:
        update.add_column("note", StringType(), doc="free text")
        update.update_column("qty", field_type=LongType())
    # A third append under the evolved schema (its snapshot has schema-id 1).
    evolved = table.schema().as_arrow()
    rows = batch(4).to_pylist()
    for row in rows:
        row["note"] = "after evolution"
    table.append(pa.Table.from_pylist(rows, schema=evolved),
                 snapshot_properties={"floe.offsets": '{"orders":{"0":6}}', "floe.commit-id": "c-0003"})
    with table.update_spec() as update:
        update.add_field("ts", DayTransform(), "ts_day")
        update.add_field("id", BucketTransform(4), "id_bucket")
    with table.transaction() as tx:
        tx.set_properties({"write.metadata.previous-versions-max": "50", "floe.topic": "orders"})
    first = table.metadata.snapshots[0].snapshot_id
    table.manage_snapshots().create_tag(first, "first").create_branch(
        first, "audit", max_ref_age_ms=604800000, max_snapshot_age_ms=86400000, min_snapshots_to_keep=2).commit()
    written = sorted(glob.glob(f"{tmp}/warehouse/**/*.metadata.json", recursive=True))
    for path in written:
        version = os.path.basename(path).split("-", 1)[0]
        shutil.copyfile(path, os.path.join(out, f"pyiceberg-{version}.metadata.json"))
        print(path)
finally:
    shutil.rmtree(tmp)
