"""Prints the golden values that tests/unit/schema/pyiceberg_golden_test.cc compares against.

Run off-line, by hand, when a golden needs to change:
    .deps/venv/bin/python tests/unit/schema/pyiceberg_goldens.py
pyiceberg (0.12.0, from tests/requirements.txt) is an independent implementation of the
Iceberg spec; its output is pasted into the C++ test as string literals, so the unit tests
never need Python.
"""
import datetime
import decimal
import json
import uuid

import pyarrow as pa
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema, assign_fresh_schema_ids
from pyiceberg.table.sorting import NullOrder, SortDirection, SortField, SortOrder
from pyiceberg.transforms import (BucketTransform, DayTransform, HourTransform, IdentityTransform,
                                  MonthTransform, TruncateTransform, VoidTransform, YearTransform)
from pyiceberg.types import (BinaryType, BooleanType, DateType, DecimalType, DoubleType, FixedType,
                             FloatType, IntegerType, ListType, LongType, MapType, NestedField,
                             StringType, StructType, TimestampNanoType, TimestampType,
                             TimestamptzNanoType, TimestamptzType, TimeType, UUIDType)


def section(name, value):
    print(f"--- {name}")
    print(value)


schema = Schema(
    NestedField(1, "id", LongType(), required=True, doc="primary key"),
    NestedField(2, "flag", BooleanType(), required=False),
    NestedField(3, "i", IntegerType(), required=False),
    NestedField(4, "f", FloatType(), required=False),
    NestedField(5, "d", DoubleType(), required=False),
    NestedField(6, "price", DecimalType(9, 2), required=False),
    NestedField(7, "day", DateType(), required=False),
    NestedField(8, "t", TimeType(), required=False),
    NestedField(9, "ts", TimestampType(), required=False),
    NestedField(10, "tstz", TimestamptzType(), required=False),
    NestedField(11, "ts_ns", TimestampNanoType(), required=False),
    NestedField(12, "tstz_ns", TimestamptzNanoType(), required=False),
    NestedField(13, "s", StringType(), required=False),
    NestedField(14, "u", UUIDType(), required=False),
    NestedField(15, "fx", FixedType(16), required=False),
    NestedField(16, "b", BinaryType(), required=False),
    NestedField(17, "point", StructType(
        NestedField(20, "x", DoubleType(), required=True),
        NestedField(21, "y", DoubleType(), required=False)), required=False),
    NestedField(18, "tags", ListType(22, StringType(), element_required=True), required=False),
    NestedField(19, "props", MapType(23, StringType(), 24, ListType(25, IntegerType(), element_required=False),
                                     value_required=False), required=True),
    schema_id=3,
    identifier_field_ids=[1],
)
section("schema", schema.model_dump_json())

# Fresh ids: the order pyiceberg (and Java) assign for a new table.
section("fresh_ids", assign_fresh_schema_ids(Schema(
    NestedField(101, "a", StructType(
        NestedField(102, "x", IntegerType(), required=False),
        NestedField(103, "y", ListType(104, StructType(NestedField(105, "z", IntegerType(), required=False)),
                                       element_required=False), required=False)), required=False),
    NestedField(106, "m", MapType(107, StringType(), 108, StructType(
        NestedField(109, "v", LongType(), required=False)), value_required=False), required=False),
    NestedField(110, "c", IntegerType(), required=True),
    identifier_field_ids=[110])).model_dump_json())

spec = PartitionSpec(
    PartitionField(source_id=10, field_id=1000, transform=DayTransform(), name="tstz_day"),
    PartitionField(source_id=1, field_id=1001, transform=BucketTransform(16), name="id_bucket_16"),
    PartitionField(source_id=13, field_id=1002, transform=TruncateTransform(4), name="s_trunc_4"),
    PartitionField(source_id=9, field_id=1003, transform=HourTransform(), name="ts_hour"),
    PartitionField(source_id=7, field_id=1004, transform=MonthTransform(), name="day_month"),
    PartitionField(source_id=7, field_id=1005, transform=YearTransform(), name="day_year"),
    PartitionField(source_id=3, field_id=1006, transform=IdentityTransform(), name="i"),
    PartitionField(source_id=2, field_id=1007, transform=VoidTransform(), name="flag_null"),
    spec_id=2)
section("partition_spec", spec.model_dump_json())
section("partition_type", spec.partition_type(schema).model_dump_json())

order = SortOrder(
    SortField(source_id=1, transform=IdentityTransform(), direction=SortDirection.ASC, null_order=NullOrder.NULLS_FIRST),
    SortField(source_id=10, transform=DayTransform(), direction=SortDirection.DESC, null_order=NullOrder.NULLS_LAST),
    order_id=4)
section("sort_order", order.model_dump_json())


def hashes(type_, values):
    h = BucketTransform(16).transform(type_, bucket=False)
    return [h(v) for v in values]


ints = [0, 1, -1, 34, 2147483647, -2147483648]
longs = [0, -1, 34, 9223372036854775807, -9223372036854775808, 1510871468000000]
decimals = [decimal.Decimal(x) for x in ["14.20", "-14.20", "0.00", "1.00", "-0.01", "99999999.99", "-128.00", "1.28"]]
strings = ["", "a", "iceberg", "ünïcødé", "\U0001F600 emoji", "abcdefghijklmnopqrstuvwxyz"]
binaries = [b"", b"\x00", b"\x00\x01\x02\x03", b"\xff\xfe\xfd", bytes(range(17))]
uuids = [uuid.UUID("f79c3e09-677c-4bbd-a479-3f349cb785e7"), uuid.UUID("00000000-0000-0000-0000-000000000000")]
ts_ns = [1510871468000000123, -1, -1001, 0]
section("hash_int", json.dumps(list(zip(ints, hashes(IntegerType(), ints)))))
section("hash_long", json.dumps(list(zip(longs, hashes(LongType(), longs)))))
section("hash_decimal", json.dumps([[str(d), h] for d, h in zip(decimals, hashes(DecimalType(10, 2), decimals))]))
section("hash_string", json.dumps([[s.encode().hex(), h] for s, h in zip(strings, hashes(StringType(), strings))]))
section("hash_binary", json.dumps([[b.hex(), h] for b, h in zip(binaries, hashes(BinaryType(), binaries))]))
section("hash_uuid", json.dumps([[u.bytes.hex(), h] for u, h in zip(uuids, hashes(UUIDType(), uuids))]))
section("hash_timestamp_ns", json.dumps(list(zip(ts_ns, hashes(TimestampNanoType(), ts_ns)))))

for w in [1, 3, 10]:
    t = TruncateTransform(w).transform(IntegerType())
    section(f"truncate_int_{w}", json.dumps([[v, t(v)] for v in [0, 1, 5, 9, 10, 11, -1, -5, -9, -10, -11, 2147483647]]))
t = TruncateTransform(10).transform(DecimalType(9, 2))
section("truncate_decimal_10", json.dumps([[str(d), str(t(decimal.Decimal(d)))] for d in ["12.34", "12.30", "12.29", "0.05", "-0.05", "-12.34", "-0.01"]]))
t = TruncateTransform(3).transform(StringType())
section("truncate_string_3", json.dumps([[s, t(s)] for s in ["", "ab", "abc", "abcd", "ünïcødé", "\U0001F600\U0001F601\U0001F602\U0001F603"]]))

days = [0, 1, -1, -365, -366, 17486, -719162, 2932896, 31, 59, -1000]
section("year_from_days", json.dumps([[d, YearTransform().transform(DateType())(d)] for d in days]))
section("month_from_days", json.dumps([[d, MonthTransform().transform(DateType())(d)] for d in days]))
micros = [0, 1, -1, 86399999999, 86400000000, -86400000000, -86400000001, 1510871468000000, -1510871468000000, 3599999999, -3600000000, -3600000001]
section("day_from_micros", json.dumps([[m, DayTransform().transform(TimestampType())(m)] for m in micros]))
section("hour_from_micros", json.dumps([[m, HourTransform().transform(TimestampType())(m)] for m in micros]))
section("year_from_micros", json.dumps([[m, YearTransform().transform(TimestampType())(m)] for m in micros]))
section("month_from_micros", json.dumps([[m, MonthTransform().transform(TimestampType())(m)] for m in micros]))
