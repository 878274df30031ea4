#include "floe/delta/schema_json_internal.h"

#include <nlohmann/json.hpp>

#include <regex>

#include "floe/core/json_depth.h"
#include "floe/schema/arrow_schema.h"

namespace floe::delta {
namespace {

using Json = nlohmann::json;

Result<Json> TypeToJson(const schema::Type& type, const std::string& path, const std::string& physical,
                        bool mapping, Json& nested_ids);

Result<Json> FieldToJson(const schema::NestedField& field, const std::string& parent, bool mapping) {
  const std::string path = parent.empty() ? field.name : parent + "." + field.name;
  Json nested_ids = Json::object();
  FLOE_ASSIGN_OR_RETURN(Json type, TypeToJson(*field.type, path, field.name, mapping, nested_ids));
  Json metadata = Json::object();
  if (mapping) {
    metadata[kColumnMappingId] = field.id;
    metadata[kPhysicalName] = field.name;
    if (!nested_ids.empty()) metadata[kNestedIds] = nested_ids;
  }
  if (!field.doc.empty()) metadata["comment"] = field.doc;
  return Json{{"name", field.name}, {"type", std::move(type)}, {"nullable", !field.required}, {"metadata", metadata}};
}

// `physical` is the nested-ids key prefix: the physical name of the enclosing struct field
// followed by ".element"/".key"/".value" steps.
Result<Json> TypeToJson(const schema::Type& type, const std::string& path, const std::string& physical,
                        bool mapping, Json& nested_ids) {
  using schema::TypeId;
  switch (type.id()) {
    case TypeId::kBoolean: return Json("boolean");
    case TypeId::kInt: return Json("integer");
    case TypeId::kLong: return Json("long");
    case TypeId::kFloat: return Json("float");
    case TypeId::kDouble: return Json("double");
    case TypeId::kDate: return Json("date");
    case TypeId::kString: return Json("string");
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary: return Json("binary");
    case TypeId::kTimestampTz: return Json("timestamp");
    case TypeId::kTimestamp: return Json("timestamp_ntz");
    case TypeId::kDecimal:
      return Json("decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) + ")");
    case TypeId::kStruct: {
      Json fields = Json::array();
      for (const auto& f : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(Json j, FieldToJson(f, path, mapping));
        fields.push_back(std::move(j));
      }
      return Json{{"type", "struct"}, {"fields", std::move(fields)}};
    }
    case TypeId::kList: {
      const auto& e = type.element();
      if (mapping) nested_ids[physical + ".element"] = e.id;
      FLOE_ASSIGN_OR_RETURN(Json element, TypeToJson(*e.type, path + ".element", physical + ".element", mapping,
                                                     nested_ids));
      return Json{{"type", "array"}, {"elementType", std::move(element)}, {"containsNull", !e.required}};
    }
    case TypeId::kMap: {
      if (mapping) {
        nested_ids[physical + ".key"] = type.key().id;
        nested_ids[physical + ".value"] = type.value().id;
      }
      FLOE_ASSIGN_OR_RETURN(Json key, TypeToJson(*type.key().type, path + ".key", physical + ".key", mapping,
                                                 nested_ids));
      FLOE_ASSIGN_OR_RETURN(Json value, TypeToJson(*type.value().type, path + ".value", physical + ".value",
                                                   mapping, nested_ids));
      return Json{{"type", "map"}, {"keyType", std::move(key)}, {"valueType", std::move(value)},
                  {"valueContainsNull", !type.value().required}};
    }
    default:
      return Status::Unsupported("column '" + path + "': type " + type.ToString() + " has no Delta Lake equivalent");
  }
}

// --- Parsing ---------------------------------------------------------------------------------

// containsNull, valueContainsNull, nullable: true when absent; anything but a boolean is
// refused (nlohmann's value() would throw on it).
Result<bool> OptionalBool(const Json& j, const char* key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_boolean()) return Status::InvalidArgument("column '" + path + "': " + key + " is not a boolean");
  return it->get<bool>();
}

struct Parser {
  bool saw_id = false;

  Result<schema::TypePtr> ParseType(const Json& j, const std::string& path, const std::string& physical,
                                    const Json* nested_ids) {
    using schema::Type;
    using schema::TypeId;
    if (j.is_string()) {
      const std::string t = j.get<std::string>();
      if (t == "boolean") return Type::Primitive(TypeId::kBoolean);
      if (t == "byte" || t == "short" || t == "integer") return Type::Primitive(TypeId::kInt);
      if (t == "long") return Type::Primitive(TypeId::kLong);
      if (t == "float") return Type::Primitive(TypeId::kFloat);
      if (t == "double") return Type::Primitive(TypeId::kDouble);
      if (t == "date") return Type::Primitive(TypeId::kDate);
      if (t == "string") return Type::Primitive(TypeId::kString);
      if (t == "binary") return Type::Primitive(TypeId::kBinary);
      if (t == "timestamp") return Type::Primitive(TypeId::kTimestampTz);
      if (t == "timestamp_ntz") return Type::Primitive(TypeId::kTimestamp);
      if (t == "decimal") return Type::Decimal(10, 0);
      static const std::regex kDecimal(R"(decimal\(\s*(\d+)\s*,\s*(\d+)\s*\))");
      std::smatch m;
      if (std::regex_match(t, m, kDecimal)) {
        const int p = std::stoi(m[1]), s = std::stoi(m[2]);
        if (p < 1 || p > 38 || s > p) return Status::InvalidArgument("column '" + path + "': bad type " + t);
        return Type::Decimal(p, s);
      }
      return Status::Unsupported("column '" + path + "': Delta type '" + t + "' is not supported");
    }
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) {
      return Status::InvalidArgument("column '" + path + "': type must be a string or an object");
    }
    const std::string kind = j["type"].get<std::string>();
    auto nested_id = [&](const std::string& key) {
      if (nested_ids && nested_ids->contains(key) && (*nested_ids)[key].is_number_integer()) {
        saw_id = true;
        return (*nested_ids)[key].get<int>();
      }
      return 0;
    };
    if (kind == "struct") {
      FLOE_ASSIGN_OR_RETURN(auto fields, ParseFields(j, path));
      return Type::Struct(std::move(fields));
    }
    if (kind == "array") {
      if (!j.contains("elementType")) return Status::InvalidArgument("column '" + path + "': array without elementType");
      schema::NestedField e;
      e.name = "element";
      e.id = nested_id(physical + ".element");
      FLOE_ASSIGN_OR_RETURN(const bool contains_null, OptionalBool(j, "containsNull", path));
      e.required = !contains_null;
      FLOE_ASSIGN_OR_RETURN(e.type, ParseType(j["elementType"], path + ".element", physical + ".element", nested_ids));
      return Type::List(std::move(e));
    }
    if (kind == "map") {
      if (!j.contains("keyType") || !j.contains("valueType")) {
        return Status::InvalidArgument("column '" + path + "': map without keyType/valueType");
      }
      schema::NestedField k, v;
      k.name = "key";
      k.required = true;
      k.id = nested_id(physical + ".key");
      FLOE_ASSIGN_OR_RETURN(k.type, ParseType(j["keyType"], path + ".key", physical + ".key", nested_ids));
      v.name = "value";
      v.id = nested_id(physical + ".value");
      FLOE_ASSIGN_OR_RETURN(const bool value_contains_null, OptionalBool(j, "valueContainsNull", path));
      v.required = !value_contains_null;
      FLOE_ASSIGN_OR_RETURN(v.type, ParseType(j["valueType"], path + ".value", physical + ".value", nested_ids));
      return Type::Map(std::move(k), std::move(v));
    }
    return Status::Unsupported("column '" + path + "': Delta type '" + kind + "' is not supported");
  }

  Result<std::vector<schema::NestedField>> ParseFields(const Json& j, const std::string& parent) {
    if (!j.contains("fields") || !j["fields"].is_array()) {
      return Status::InvalidArgument((parent.empty() ? std::string("schema") : "column '" + parent + "'") +
                                     ": struct without a fields array");
    }
    std::vector<schema::NestedField> out;
    for (const auto& f : j["fields"]) {
      if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("type")) {
        return Status::InvalidArgument("schema: a field under '" + parent + "' has no name or type");
      }
      schema::NestedField field;
      field.name = f["name"].get<std::string>();
      const std::string path = parent.empty() ? field.name : parent + "." + field.name;
      FLOE_ASSIGN_OR_RETURN(const bool nullable, OptionalBool(f, "nullable", path));
      field.required = !nullable;
      const Json* metadata = f.contains("metadata") && f["metadata"].is_object() ? &f["metadata"] : nullptr;
      std::string physical = field.name;
      const Json* nested_ids = nullptr;
      if (metadata) {
        if (metadata->contains(kColumnMappingId) && (*metadata)[kColumnMappingId].is_number_integer()) {
          field.id = (*metadata)[kColumnMappingId].get<int>();
          saw_id = true;
        }
        if (metadata->contains(kPhysicalName) && (*metadata)[kPhysicalName].is_string()) {
          physical = (*metadata)[kPhysicalName].get<std::string>();
        }
        if (metadata->contains(kNestedIds) && (*metadata)[kNestedIds].is_object()) nested_ids = &(*metadata)[kNestedIds];
        if (metadata->contains("comment") && (*metadata)["comment"].is_string()) {
          field.doc = (*metadata)["comment"].get<std::string>();
        }
      }
      FLOE_ASSIGN_OR_RETURN(field.type, ParseType(f["type"], path, physical, nested_ids));
      out.push_back(std::move(field));
    }
    return out;
  }
};

// Ids Delta does not record (list elements and map entries of tables written by others)
// are assigned after the highest one, depth-first, so a reload gives the same ids.
schema::TypePtr FillIds(const schema::TypePtr& type, int& next);

schema::NestedField FillField(const schema::NestedField& f, int& next) {
  schema::NestedField out = f;
  if (out.id == 0) out.id = next++;
  out.type = FillIds(f.type, next);
  return out;
}

schema::TypePtr FillIds(const schema::TypePtr& ptr, int& next) {
  const schema::Type& type = *ptr;
  switch (type.id()) {
    case schema::TypeId::kStruct: {
      std::vector<schema::NestedField> fields;
      for (const auto& f : type.fields()) fields.push_back(FillField(f, next));
      return schema::Type::Struct(std::move(fields));
    }
    case schema::TypeId::kList: return schema::Type::List(FillField(type.element(), next));
    case schema::TypeId::kMap: {
      auto k = FillField(type.key(), next);
      return schema::Type::Map(std::move(k), FillField(type.value(), next));
    }
    default: return ptr;
  }
}

}  // namespace

Result<std::string> ToSchemaString(const schema::Schema& schema, bool column_mapping) {
  Json fields = Json::array();
  for (const auto& f : schema.fields) {
    FLOE_ASSIGN_OR_RETURN(Json j, FieldToJson(f, "", column_mapping));
    fields.push_back(std::move(j));
  }
  return Json{{"type", "struct"}, {"fields", std::move(fields)}}.dump();
}

Result<schema::Schema> ParseSchemaString(const std::string& text) {
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(text, "schemaString"));
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidArgument("schemaString is not a JSON object");
  Parser parser;
  schema::Schema out;
  FLOE_ASSIGN_OR_RETURN(out.fields, parser.ParseFields(j, ""));
  if (!parser.saw_id) return schema::AssignFreshIds(out);
  int next = out.HighestFieldId() + 1;
  out.fields = FillIds(out.AsStruct(), next)->fields();
  return out;
}

}  // namespace floe::delta
