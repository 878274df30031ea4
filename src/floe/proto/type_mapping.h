#pragma once
// How a Protobuf message is stored as Arrow columns: the rules users see in docs/types.md.
// The decoders build exactly these types (decode_plan_compile.cc makes both at once), so any
// change here is a change to every table.
//
// | Protobuf                                  | Arrow                      | notes                          |
// |-------------------------------------------|----------------------------|--------------------------------|
// | int32, sint32, sfixed32                   | int32                      |                                |
// | int64, sint64, sfixed64                   | int64                      |                                |
// | uint32, fixed32                           | int64                      | lossless                       |
// | uint64, fixed64                           | decimal128(20, 0)          | lossless (Iceberg: no uint64)  |
// | bool, float, double                       | bool, float32, float64     |                                |
// | string                                    | utf8                       | invalid UTF-8 = bad record     |
// | bytes                                     | binary                     |                                |
// | enum                                      | utf8                       | the name; undeclared numbers as decimal text ("7") |
// | message, proto2 group                     | struct                     | one child per field            |
// | repeated T                                | list<element: T not null>  | packed or not                  |
// | map<K, V>                                 | map<K, V not null>         | a repeated key: the last wins  |
// | oneof members                             | a nullable column each     | the set one has the value      |
// | google.protobuf.Timestamp                 | timestamp[us, tz=UTC]      | [1]                            |
// | google.protobuf.Duration                  | int64 (microseconds)       | [1]                            |
// | google.protobuf.*Value wrappers           | the wrapped type, nullable | Double Float Int64 UInt64 Int32 UInt32 Bool String Bytes |
// | confluent.type.Decimal                    | decimal128(P, S)           | [2]                            |
// | google.type.Date                          | date32                     | year, month or day 0 = bad record |
//
// [1] nanos truncated toward zero to micros. A bad record: Timestamp nanos outside
//     0..999999999, Duration nanos of another sign than its seconds, micros past 64 bits.
// [2] P and S from the field option (confluent.field_meta).params {precision, scale}; default
//     P = 38 (Iceberg's maximum; Confluent leaves it unbounded) and S = 0 (Confluent's
//     default). A value written at another scale is rescaled when that is exact; one that
//     cannot be, or has more than P digits, is a bad record.
//
// Nullability, which becomes required/optional columns:
//  - proto3 fields without presence (plain scalars, enums, strings, bytes): not null; an
//    absent field is the proto3 default (0, false, "", the enum's first value);
//  - fields with presence — proto3 `optional`, proto2 `optional`, oneof members, every
//    singular message field (well-known types included): nullable, absent -> null, except a
//    proto2 `optional` scalar with a declared `[default = ...]`, which reads as that default;
//  - proto2 `required`: not null; an absent one is a bad record;
//  - repeated fields and maps: not null (absent = empty); their elements are never null; an
//    absent map value is the value type's default (an empty message: its defaults and nulls).
//
// Reading the wire (as libprotobuf does, except where noted): fields in any order; a singular
// field written twice -> the last value; a message field written twice -> merged (scalars
// last, repeated appended); two members of one oneof -> the last one, the other null; packed
// and unpacked repeated scalars both accepted; unknown fields (of every wire type, groups
// included) and proto2 extensions skipped. Stricter than libprotobuf, as a bad record: a known
// field with the wrong wire type (libprotobuf would keep it as an unknown field), invalid
// UTF-8 in a string, varints over 10 bytes, groups nested deeper than 100 levels. A value that
// a later one replaces (a string written twice, a oneof member replaced by another) is checked
// all the same, as libprotobuf parses it before dropping it. Different:
// an unknown number of a proto2 (closed) enum is kept as text, where libprotobuf drops it.
//
// Column names are the field names as declared (not json_name). Fields are in declaration
// order. Refused with kInvalidArgument: recursive messages (naming the cycle, e.g.
// "a.Node.children -> a.Node"; this includes google.protobuf.Struct/Value), messages without
// fields (Parquet cannot store an empty group; google.protobuf.Empty), decimals over 38 digits,
// and nesting deeper than 100 levels. No Arrow field metadata is set (as for Avro).
#include <arrow/type_fwd.h>

#include <memory>

#include "floe/core/result.h"

namespace google::protobuf {
class Descriptor;
}  // namespace google::protobuf

namespace floe::proto {

// One field per field of `message`: the columns of a value.
Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const google::protobuf::Descriptor& message);

}  // namespace floe::proto
