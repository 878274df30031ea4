#pragma once
// A Delta table's schema as Unity Catalog's column list (ColumnInfo in Unity's OpenAPI: name,
// type_text, type_json, type_name, type_precision, type_scale, position, nullable). Delta's
// schemaString is Spark's StructType JSON, so each top-level field is already the column's
// type_json; type_text is Spark's simpleString (bigint, struct<a:int>, decimal(10,2), …).
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"

namespace floe::catalog {

// The columns of `schema_string` (a Delta metaData.schemaString), in order. Column mapping
// metadata stays in type_json (readers that map columns need it). Errors name the field.
Result<nlohmann::json> UnityColumns(const std::string& schema_string);

// Spark's simpleString of a Delta/Spark type JSON ("long" → "bigint", struct<a:int,b:string>).
Result<std::string> SparkTypeText(const nlohmann::json& type);

}  // namespace floe::catalog
