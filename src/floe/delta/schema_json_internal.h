#pragma once
// Delta's schemaString <-> Floe's table schema. Field ids travel as column mapping metadata
// (delta.columnMapping.id on struct fields; delta.columnMapping.nested.ids, icebergCompat's
// form, for list elements and map keys/values) so that they survive a round trip exactly.
// Physical names are the field names: that is what Floe's Parquet files are written with.
#include <string>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::delta {

inline constexpr const char* kColumnMappingId = "delta.columnMapping.id";
inline constexpr const char* kPhysicalName = "delta.columnMapping.physicalName";
inline constexpr const char* kNestedIds = "delta.columnMapping.nested.ids";

// Types: boolean, int→integer, long, float, double, decimal(p,s), date, string, binary;
// timestamptz→timestamp, timestamp→timestamp_ntz; uuid and fixed[L]→binary (Floe writes
// them as 16/L-byte fixed Parquet columns, which Delta readers take as binary); struct,
// array (containsNull), map (valueContainsNull). time, nanosecond timestamps, unknown and
// variant have no Delta type: kUnsupported naming the column. `column_mapping` false
// leaves out the column mapping metadata (a table with mode none).
Result<std::string> ToSchemaString(const schema::Schema& schema, bool column_mapping = true);

// The reverse. byte/short/integer→int; timestamp→timestamptz; timestamp_ntz→timestamp.
// Ids come from the column mapping metadata; without it (mode none, tables of others)
// ids are assigned fresh, as for a new table. Errors name the field.
Result<schema::Schema> ParseSchemaString(const std::string& text);

}  // namespace floe::delta
