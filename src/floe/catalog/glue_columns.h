#pragma once
// What AWS Glue shows of a table's schema: StorageDescriptor.Columns. Informational, as in
// Apache Iceberg's GlueCatalog: engines read the schema from the metadata file (Iceberg) or the
// log (Delta); the Glue console, Athena's SHOW COLUMNS, Lake Formation grants and crawlers'
// consumers read these.
//
// Iceberg tables: exactly what Iceberg's GlueCatalog writes (IcebergToGlueConverter), so the
// columns read the same whichever writer committed last:
//   - the current schema's top-level fields, in order, then each older schema's fields (in the
//     order of the metadata's schema list) whose name is not listed yet: dropped columns stay
//     visible with iceberg.field.current = false;
//   - Name; Type as a Hive type string (GlueTypeString); Comment = the field's doc, else the
//     comment the Glue column of that name already had (someone may have written one in the
//     console); Parameters iceberg.field.id, iceberg.field.optional ("true"/"false"),
//     iceberg.field.current ("true"/"false").
// Delta tables: the log's top-level fields in order, Type as Spark's type text (the Hive type
// string, which Spark and crawlers write), Comment from the field's "comment" metadata.
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/schema/types.h"

namespace floe::catalog {

// boolean, int, bigint, float, double, date, timestamp (with or without zone), string (also
// time and uuid), binary (also fixed[n]), decimal(p,s), struct<a:int,b:string>, array<t>,
// map<k,v>; Iceberg v3's other types by their lower-case type name (timestamp_nano, variant,
// unknown), as Iceberg's converter falls back to.
std::string GlueTypeString(const schema::Type& type);

// The columns for `metadata` (see above). `existing`: the table's current Glue columns (an
// array, or null when the table is new), whose comments are kept.
nlohmann::json GlueColumns(const iceberg::TableMetadata& metadata, const nlohmann::json& existing);

// The columns of a Delta metaData.schemaString. Errors name the field.
Result<nlohmann::json> GlueDeltaColumns(const std::string& schema_string);

}  // namespace floe::catalog
