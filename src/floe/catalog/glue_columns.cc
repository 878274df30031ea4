#include "floe/catalog/glue_columns.h"

#include <map>
#include <set>

#include "floe/catalog/unity_columns.h"

namespace floe::catalog {
namespace {

using nlohmann::json;

// Iceberg's GlueCatalog's column parameter names (IcebergToGlueConverter).
constexpr const char* kFieldId = "iceberg.field.id";
constexpr const char* kFieldOptional = "iceberg.field.optional";
constexpr const char* kFieldCurrent = "iceberg.field.current";

std::string Bool(bool value) { return value ? "true" : "false"; }

// Name -> comment of the Glue columns that have one.
std::map<std::string, std::string> ExistingComments(const json& existing) {
  std::map<std::string, std::string> out;
  if (!existing.is_array()) return out;
  for (const auto& column : existing) {
    if (!column.is_object() || !column.contains("Name") || !column["Name"].is_string()) continue;
    if (column.contains("Comment") && column["Comment"].is_string()) {
      out[column["Name"].get<std::string>()] = column["Comment"].get<std::string>();
    }
  }
  return out;
}

}  // namespace

std::string GlueTypeString(const schema::Type& type) {
  using schema::TypeId;
  switch (type.id()) {
    case TypeId::kBoolean: return "boolean";
    case TypeId::kInt: return "int";
    case TypeId::kLong: return "bigint";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDate: return "date";
    case TypeId::kTime:
    case TypeId::kString:
    case TypeId::kUuid: return "string";
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: return "timestamp";
    case TypeId::kFixed:
    case TypeId::kBinary: return "binary";
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")";
    case TypeId::kStruct: {
      std::string fields;
      for (const auto& f : type.fields()) fields += (fields.empty() ? "" : ",") + f.name + ":" + GlueTypeString(*f.type);
      return "struct<" + fields + ">";
    }
    case TypeId::kList: return "array<" + GlueTypeString(*type.element().type) + ">";
    case TypeId::kMap: return "map<" + GlueTypeString(*type.key().type) + "," + GlueTypeString(*type.value().type) + ">";
    // Iceberg's fallback: the type id's name in lower case (Java's TIMESTAMP_NANO covers both
    // nanosecond timestamps).
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return "timestamp_nano";
    case TypeId::kVariant: return "variant";
    case TypeId::kUnknown: return "unknown";
  }
  return "unknown";
}

json GlueColumns(const iceberg::TableMetadata& metadata, const json& existing) {
  const auto comments = ExistingComments(existing);
  json columns = json::array();
  std::set<std::string> listed;
  auto add = [&](const schema::NestedField& field, bool current) {
    if (!listed.insert(field.name).second) return;
    json column = {{"Name", field.name},
                   {"Type", GlueTypeString(*field.type)},
                   {"Parameters",
                    {{kFieldId, std::to_string(field.id)},
                     {kFieldOptional, Bool(!field.required)},
                     {kFieldCurrent, Bool(current)}}}};
    if (!field.doc.empty()) {
      column["Comment"] = field.doc;
    } else if (auto it = comments.find(field.name); it != comments.end()) {
      column["Comment"] = it->second;
    }
    columns.push_back(std::move(column));
  };
  if (const schema::Schema* current = metadata.CurrentSchema()) {
    for (const auto& field : current->fields) add(field, true);
  }
  for (const auto& schema : metadata.schemas) {
    if (schema.schema_id == metadata.current_schema_id) continue;
    for (const auto& field : schema.fields) add(field, false);
  }
  return columns;
}

Result<json> GlueDeltaColumns(const std::string& schema_string) {
  // Unity's columns carry the same reading of the log: Spark's type text and the field itself.
  FLOE_ASSIGN_OR_RETURN(auto unity, UnityColumns(schema_string));
  json columns = json::array();
  for (const auto& u : unity) {
    json column = {{"Name", u["name"]}, {"Type", u["type_text"]}};
    const json field = json::parse(u["type_json"].get<std::string>());
    if (field.contains("metadata") && field["metadata"].is_object() && field["metadata"].contains("comment") &&
        field["metadata"]["comment"].is_string()) {
      column["Comment"] = field["metadata"]["comment"];
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace floe::catalog
