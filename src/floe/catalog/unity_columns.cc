#include "floe/catalog/unity_columns.h"

#include <cstdio>
#include <map>

namespace floe::catalog {
namespace {

// Delta's primitive type names → Spark's simpleString and Unity's ColumnTypeName.
struct Primitive {
  const char* text;
  const char* unity;
};
const std::map<std::string, Primitive, std::less<>>& Primitives() {
  static const std::map<std::string, Primitive, std::less<>> kPrimitives = {
      {"boolean", {"boolean", "BOOLEAN"}},   {"byte", {"tinyint", "BYTE"}},
      {"short", {"smallint", "SHORT"}},      {"integer", {"int", "INT"}},
      {"long", {"bigint", "LONG"}},          {"float", {"float", "FLOAT"}},
      {"double", {"double", "DOUBLE"}},      {"string", {"string", "STRING"}},
      {"binary", {"binary", "BINARY"}},      {"date", {"date", "DATE"}},
      {"timestamp", {"timestamp", "TIMESTAMP"}}, {"timestamp_ntz", {"timestamp_ntz", "TIMESTAMP_NTZ"}},
      {"variant", {"variant", "VARIANT"}}};
  return kPrimitives;
}

bool IsDecimal(const std::string& name) { return name.rfind("decimal(", 0) == 0; }

Result<std::string> ComplexTypeText(const nlohmann::json& type) {
  const std::string kind = type.value("type", "");
  std::string text;
  if (kind == "struct") {
    if (!type.contains("fields") || !type["fields"].is_array()) return Status::InvalidArgument("struct without fields");
    for (const auto& field : type["fields"]) {
      if (!field.contains("name") || !field.contains("type")) return Status::InvalidArgument("struct field without name/type");
      auto inner = SparkTypeText(field["type"]);
      if (!inner.ok()) return inner.status().WithContext("field " + field["name"].get<std::string>());
      text += (text.empty() ? "" : ",") + field["name"].get<std::string>() + ":" + *inner;
    }
    return "struct<" + text + ">";
  }
  if (kind == "array") {
    FLOE_ASSIGN_OR_RETURN(auto element, SparkTypeText(type.value("elementType", nlohmann::json())));
    return "array<" + element + ">";
  }
  if (kind == "map") {
    FLOE_ASSIGN_OR_RETURN(auto key, SparkTypeText(type.value("keyType", nlohmann::json())));
    FLOE_ASSIGN_OR_RETURN(auto value, SparkTypeText(type.value("valueType", nlohmann::json())));
    return "map<" + key + "," + value + ">";
  }
  return Status::InvalidArgument("unknown Delta type '" + type.dump() + "'");
}

// "decimal(10,2)" → 10, 2.
bool DecimalDigits(const std::string& name, int& precision, int& scale) {
  return std::sscanf(name.c_str(), "decimal(%d,%d)", &precision, &scale) == 2 ||
         std::sscanf(name.c_str(), "decimal(%d, %d)", &precision, &scale) == 2;
}

Result<std::string> UnityTypeName(const nlohmann::json& type) {
  if (type.is_object()) {
    const std::string kind = type.value("type", "");
    if (kind == "struct") return std::string("STRUCT");
    if (kind == "array") return std::string("ARRAY");
    if (kind == "map") return std::string("MAP");
    return Status::InvalidArgument("unknown Delta type '" + type.dump() + "'");
  }
  const std::string name = type.is_string() ? type.get<std::string>() : "";
  if (IsDecimal(name)) return std::string("DECIMAL");
  auto it = Primitives().find(name);
  if (it == Primitives().end()) return Status::InvalidArgument("unknown Delta type '" + type.dump() + "'");
  return std::string(it->second.unity);
}

}  // namespace

Result<std::string> SparkTypeText(const nlohmann::json& type) {
  if (type.is_object()) return ComplexTypeText(type);
  if (!type.is_string()) return Status::InvalidArgument("unknown Delta type '" + type.dump() + "'");
  const std::string name = type.get<std::string>();
  if (IsDecimal(name)) {
    int precision = 0;
    int scale = 0;
    if (!DecimalDigits(name, precision, scale)) return Status::InvalidArgument("malformed Delta type '" + name + "'");
    return "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  }
  auto it = Primitives().find(name);
  if (it == Primitives().end()) return Status::InvalidArgument("unknown Delta type '" + name + "'");
  return std::string(it->second.text);
}

Result<nlohmann::json> UnityColumns(const std::string& schema_string) {
  auto schema = nlohmann::json::parse(schema_string, nullptr, /*allow_exceptions=*/false);
  if (schema.is_discarded() || !schema.is_object() || !schema.contains("fields") || !schema["fields"].is_array()) {
    return Status::InvalidArgument("Delta schemaString is not a struct type");
  }
  nlohmann::json columns = nlohmann::json::array();
  int position = 0;
  for (const auto& field : schema["fields"]) {
    if (!field.is_object() || !field.contains("name") || !field["name"].is_string() || !field.contains("type")) {
      return Status::InvalidArgument("Delta schemaString has a field without name or type: " + field.dump());
    }
    const std::string name = field["name"].get<std::string>();
    auto text = SparkTypeText(field["type"]);
    if (!text.ok()) return text.status().WithContext("column " + name);
    FLOE_ASSIGN_OR_RETURN(auto type_name, UnityTypeName(field["type"]));
    nlohmann::json column = {{"name", name},
                             {"type_text", *text},
                             {"type_json", field.dump()},
                             {"type_name", type_name},
                             {"position", position++},
                             {"nullable", field.value("nullable", true)}};
    int precision = 0;
    int scale = 0;
    if (type_name == "DECIMAL" && DecimalDigits(field["type"].get<std::string>(), precision, scale)) {
      column["type_precision"] = precision;
      column["type_scale"] = scale;
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace floe::catalog
