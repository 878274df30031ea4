#pragma once
// Table schema <-> Arrow schema. Arrow fields carry the Iceberg field id as
// PARQUET:field_id metadata so Parquet files record it (engines resolve columns by id).
#include <arrow/type_fwd.h>

#include <memory>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::schema {

inline constexpr const char* kParquetFieldIdKey = "PARQUET:field_id";
// Arrow has no uuid type of its own besides the arrow.uuid extension, and plain
// fixed_size_binary(16) is Iceberg's fixed[16]. A field with this metadata set to "true"
// (or of the arrow.uuid extension type) is a uuid; ToArrowSchema sets it on uuid fields.
inline constexpr const char* kFloeUuidKey = "floe:uuid";
// The field's doc string, under the key pyiceberg uses; written when the doc is non-empty.
inline constexpr const char* kDocKey = "doc";

// Iceberg -> Arrow: boolean→bool, int→int32, long→int64, float→float32, double→float64,
// decimal(p,s)→decimal128(p,s), date→date32, time→time64[us], timestamp→timestamp[us],
// timestamptz→timestamp[us,UTC], timestamp_ns/tz_ns→timestamp[ns(,UTC)], string→utf8,
// uuid→fixed_size_binary(16), fixed[L]→fixed_size_binary(L), binary→binary, struct→struct,
// list→list (element field named "element"), map→map ("key"/"value").
Result<std::shared_ptr<arrow::Schema>> ToArrowSchema(const Schema& schema);
Result<std::shared_ptr<arrow::DataType>> ToArrowType(const Type& type);

// Arrow -> Iceberg, accepting what Floe's decoders build (docs/types.md, "Iceberg types"):
// utf8/large_utf8/utf8_view→string, binary/large_binary/binary_view→binary,
// fixed_size_binary(L)→fixed[L] (uuid only as described at kFloeUuidKey),
// int8/int16/uint8/uint16→int and uint32→long (widened: Iceberg has no unsigned or small
// ints; uint64 is rejected), float16→float, time32[s|ms]/time64[us]→time,
// timestamp[s|ms|us]→timestamp, with any time zone→timestamptz, timestamp[ns]→timestamp_ns
// (tz: timestamptz_ns), decimal32/64/128/256 with precision <= 38→decimal,
// list/large_list/fixed_size_list/list_view→list, dictionary and run-end-encoded→their
// value type, other extension types→their storage type. The null type, time64[ns],
// date64, durations, intervals and unions are rejected.
//
// Field ids come from PARQUET:field_id metadata when every field has
// one; otherwise fresh ids are assigned starting at `next_id` in the spec's order
// (all fields of a struct before their children, breadth-first per level), as
// pyiceberg and Java do for a new table. Unsupported Arrow types are errors naming the field.
Result<Schema> FromArrowSchema(const arrow::Schema& schema, int next_id = 1);

// A copy of `schema` with every field id reassigned from 1 (fresh table schema).
Schema AssignFreshIds(const Schema& schema);

}  // namespace floe::schema
