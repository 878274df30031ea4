// Schemas and types to and from the spec's JSON (Appendix C).
#include <string>
#include <vector>

#include "floe/schema/field_walk_internal.h"
#include "floe/schema/json.h"
#include "floe/schema/json_wording_internal.h"
#include "floe/schema/type_names_internal.h"

namespace floe::schema {

using nlohmann::json;
namespace ja = json_access;

namespace {

// Real schemas nest a handful of levels; the limit only keeps hostile metadata from
// exhausting the stack of this recursive parser.
constexpr int kMaxNesting = 128;

// "field 'a.b'" or, for a type that is not inside any field, "type".
std::string TypeOrFieldWhere(const std::string& path) { return path.empty() ? "type" : "field '" + path + "'"; }

Result<TypePtr> ParseType(const json& j, const std::string& path, int depth);

Result<int> ParseId(const json& obj, const char* key, const std::string& where) {
  FLOE_ASSIGN_OR_RETURN(int id, ja::RequireInt(obj, key, In(where)));
  if (id < 0) {
    return Status::InvalidArgument(where + ": \"" + key + "\" must not be negative, got " + std::to_string(id));
  }
  return id;
}

// Defaults are any JSON value (Appendix D's single-value form); kept as compact text so
// that they are written back exactly as read.
std::optional<std::string> DefaultText(const json& obj, const char* key) {
  const json* v = ja::Find(obj, key);
  if (!v) return std::nullopt;
  return ja::DumpCompact(*v);
}

Result<NestedField> ParseStructField(const json& j, const std::string& parent, int depth) {
  // Until the name is known, the field is named by where it is.
  const std::string placeholder = parent.empty() ? std::string("a top-level field") : "a field of '" + parent + "'";
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, In(placeholder)));
  NestedField f;
  // The name comes first so that every later message can say which field is wrong.
  FLOE_ASSIGN_OR_RETURN(f.name, ja::RequireString(j, "name", In(placeholder)));
  const std::string path = JoinFieldPath(parent, f.name);
  const std::string where = TypeOrFieldWhere(path);
  FLOE_ASSIGN_OR_RETURN(f.id, ParseId(j, "id", where));
  FLOE_ASSIGN_OR_RETURN(f.required, ja::RequireBool(j, "required", In(where)));
  FLOE_ASSIGN_OR_RETURN(const json* type, ja::Require(j, "type", In(where)));
  FLOE_ASSIGN_OR_RETURN(f.type, ParseType(*type, path, depth + 1));
  FLOE_ASSIGN_OR_RETURN(std::optional<std::string> doc, ja::OptionalString(j, "doc", In(where)));
  f.doc = doc.value_or("");
  f.initial_default_json = DefaultText(j, "initial-default");
  f.write_default_json = DefaultText(j, "write-default");
  return f;
}

Result<std::vector<NestedField>> ParseFields(const json& j, const std::string& path, int depth) {
  FLOE_ASSIGN_OR_RETURN(const json* fields, ja::RequireArray(j, "fields", In(TypeOrFieldWhere(path))));
  std::vector<NestedField> out;
  out.reserve(fields->size());
  for (const json& field : *fields) {
    FLOE_ASSIGN_OR_RETURN(NestedField f, ParseStructField(field, path, depth));
    out.push_back(std::move(f));
  }
  return out;
}

Result<TypePtr> ParseList(const json& j, const std::string& path, int depth) {
  const std::string element_path = JoinFieldPath(path, "element");
  NestedField element;
  FLOE_ASSIGN_OR_RETURN(element.id, ParseId(j, "element-id", TypeOrFieldWhere(path)));
  FLOE_ASSIGN_OR_RETURN(element.required, ja::RequireBool(j, "element-required", In(TypeOrFieldWhere(path))));
  FLOE_ASSIGN_OR_RETURN(const json* type, ja::Require(j, "element", In(TypeOrFieldWhere(path))));
  FLOE_ASSIGN_OR_RETURN(element.type, ParseType(*type, element_path, depth + 1));
  return Type::List(std::move(element));
}

Result<TypePtr> ParseMap(const json& j, const std::string& path, int depth) {
  NestedField key, value;
  FLOE_ASSIGN_OR_RETURN(key.id, ParseId(j, "key-id", TypeOrFieldWhere(path)));
  FLOE_ASSIGN_OR_RETURN(const json* key_type, ja::Require(j, "key", In(TypeOrFieldWhere(path))));
  FLOE_ASSIGN_OR_RETURN(key.type, ParseType(*key_type, JoinFieldPath(path, "key"), depth + 1));
  FLOE_ASSIGN_OR_RETURN(value.id, ParseId(j, "value-id", TypeOrFieldWhere(path)));
  FLOE_ASSIGN_OR_RETURN(value.required, ja::RequireBool(j, "value-required", In(TypeOrFieldWhere(path))));
  FLOE_ASSIGN_OR_RETURN(const json* value_type, ja::Require(j, "value", In(TypeOrFieldWhere(path))));
  FLOE_ASSIGN_OR_RETURN(value.type, ParseType(*value_type, JoinFieldPath(path, "value"), depth + 1));
  return Type::Map(std::move(key), std::move(value));
}

Result<TypePtr> ParseType(const json& j, const std::string& path, int depth) {
  if (depth > kMaxNesting) {
    return Status::InvalidArgument(TypeOrFieldWhere(path) + ": types nest deeper than " + std::to_string(kMaxNesting) + " levels");
  }
  if (j.is_string()) {
    Result<TypePtr> t = ParsePrimitiveTypeString(j.get<std::string>());
    if (!t.ok()) return t.status().WithContext(TypeOrFieldWhere(path));
    return t;
  }
  if (!j.is_object()) {
    return Status::InvalidArgument(TypeOrFieldWhere(path) + ": a type must be a string or an object, got " +
                                   std::string(ja::KindName(j, kJsonWording)));
  }
  FLOE_ASSIGN_OR_RETURN(std::string kind, ja::RequireString(j, "type", In(TypeOrFieldWhere(path))));
  if (kind == "struct") {
    FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, ParseFields(j, path, depth));
    return Type::Struct(std::move(fields));
  }
  if (kind == "list") return ParseList(j, path, depth);
  if (kind == "map") return ParseMap(j, path, depth);
  return Status::InvalidArgument(TypeOrFieldWhere(path) + ": unknown nested type \"" + kind +
                                 "\" (expected \"struct\", \"list\" or \"map\")");
}

Status CheckNested(const std::vector<NestedField>& fields) {
  FLOE_RETURN_IF_ERROR(CheckUniqueNames(fields));
  return CheckUniqueFieldIds(fields);
}

json FieldToJson(const NestedField& f) {
  json out = json::object();
  out["id"] = f.id;
  out["name"] = f.name;
  out["required"] = f.required;
  out["type"] = f.type ? TypeToJson(*f.type) : json("unknown");
  if (!f.doc.empty()) out["doc"] = f.doc;
  // Defaults were stored as JSON text by the parser; anything else is a caller bug, and
  // dropping it beats writing metadata no reader can parse.
  if (f.initial_default_json) {
    json v = json::parse(*f.initial_default_json, nullptr, /*allow_exceptions=*/false);
    if (!v.is_discarded()) out["initial-default"] = std::move(v);
  }
  if (f.write_default_json) {
    json v = json::parse(*f.write_default_json, nullptr, /*allow_exceptions=*/false);
    if (!v.is_discarded()) out["write-default"] = std::move(v);
  }
  return out;
}

json FieldsToJson(const std::vector<NestedField>& fields) {
  json out = json::array();
  for (const auto& f : fields) out.push_back(FieldToJson(f));
  return out;
}

}  // namespace

Result<TypePtr> TypeFromJson(const json& j) {
  FLOE_ASSIGN_OR_RETURN(TypePtr type, ParseType(j, "", 0));
  // For a list or map, fields() holds the element or key and value: the same checks apply.
  if (!type->is_primitive()) FLOE_RETURN_IF_ERROR(CheckNested(type->fields()));
  return type;
}

json TypeToJson(const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct: return json{{"type", "struct"}, {"fields", FieldsToJson(type.fields())}};
    case TypeId::kList:
      return json{{"type", "list"},
                  {"element-id", type.element().id},
                  {"element", type.element().type ? TypeToJson(*type.element().type) : json("unknown")},
                  {"element-required", type.element().required}};
    case TypeId::kMap:
      return json{{"type", "map"},
                  {"key-id", type.key().id},
                  {"key", type.key().type ? TypeToJson(*type.key().type) : json("unknown")},
                  {"value-id", type.value().id},
                  {"value", type.value().type ? TypeToJson(*type.value().type) : json("unknown")},
                  {"value-required", type.value().required}};
    default: return PrimitiveTypeString(type);
  }
}

Result<Schema> SchemaFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, In("schema")));
  FLOE_ASSIGN_OR_RETURN(std::string kind, ja::RequireString(j, "type", In("schema")));
  if (kind != "struct") return Status::InvalidArgument("schema: \"type\" must be \"struct\", got \"" + kind + "\"");
  Schema schema;
  FLOE_ASSIGN_OR_RETURN(std::optional<int> schema_id, ja::OptionalInt(j, "schema-id", In("schema")));
  schema.schema_id = schema_id.value_or(0);  // v1 metadata may omit it; Java defaults to 0 too
  // Checked here too, so that the error names the schema rather than its type.
  FLOE_RETURN_IF_ERROR(ja::RequireArray(j, "fields", In("schema")).status());
  FLOE_ASSIGN_OR_RETURN(schema.fields, ParseFields(j, "", 0));
  FLOE_ASSIGN_OR_RETURN(const json* ids, ja::OptionalArray(j, "identifier-field-ids", In("schema")));
  if (ids) {
    for (const json& id : *ids) {
      FLOE_ASSIGN_OR_RETURN(int v, ja::AsInt(id, "schema: an entry of \"identifier-field-ids\"", kJsonWording));
      schema.identifier_field_ids.push_back(v);
    }
  }
  Status checked = CheckNested(schema.fields);
  if (checked.ok()) checked = CheckIdentifierFields(schema);
  if (!checked.ok()) return checked.WithContext("schema " + std::to_string(schema.schema_id));
  return schema;
}

json SchemaToJson(const Schema& schema) {
  json out{{"type", "struct"}, {"schema-id", schema.schema_id}, {"fields", FieldsToJson(schema.fields)}};
  // Java writes the key only when there are identifier fields; so do we.
  if (!schema.identifier_field_ids.empty()) out["identifier-field-ids"] = schema.identifier_field_ids;
  return out;
}

}  // namespace floe::schema
