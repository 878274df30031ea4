#pragma once
// Iceberg JSON serialization of schemas, partition specs and sort orders
// (https://iceberg.apache.org/spec/#appendix-c-json-serialization). Parsing is strict about
// structure and field ids, tolerant of unknown extra keys (newer writers add some).
#include <nlohmann/json.hpp>

#include "floe/core/result.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"

namespace floe::schema {

Result<TypePtr> TypeFromJson(const nlohmann::json& j);
nlohmann::json TypeToJson(const Type& type);

Result<Schema> SchemaFromJson(const nlohmann::json& j);
nlohmann::json SchemaToJson(const Schema& schema);  // {"type":"struct","schema-id":…,"fields":[…]}

Result<PartitionSpec> PartitionSpecFromJson(const nlohmann::json& j);
nlohmann::json PartitionSpecToJson(const PartitionSpec& spec);

Result<SortOrder> SortOrderFromJson(const nlohmann::json& j);
nlohmann::json SortOrderToJson(const SortOrder& order);

}  // namespace floe::schema
