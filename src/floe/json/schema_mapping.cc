#include "floe/json/schema_mapping.h"

#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "floe/json/schema_refs_internal.h"

namespace floe::json {
namespace {

using internal::Child;
using internal::SchemaDoc;
using internal::Where;
using Json = internal::SchemaJson;
using Doc = SchemaDoc;

constexpr const char* kConnectDecimal = "org.apache.kafka.connect.data.Decimal";
constexpr const char* kConnectTimestamp = "org.apache.kafka.connect.data.Timestamp";
constexpr const char* kConnectDate = "org.apache.kafka.connect.data.Date";
constexpr const char* kConnectTime = "org.apache.kafka.connect.data.Time";
constexpr int kMaxDecimalPrecision = 38;   // decimal128, and the most Iceberg stores
constexpr int kDefaultDecimalPrecision = 38;  // Connect's Decimal need not declare one

struct Mapped {
  JsonType type;
  bool nullable = false;
};

// An integer-valued keyword written as a number or, like Connect's parameters, as a string.
std::optional<int> IntParameter(const Json& v) {
  if (v.is_number_integer()) {
    const auto n = v.get<std::int64_t>();
    if (n >= -1000 && n <= 1000) return static_cast<int>(n);  // beyond any precision or scale
    return std::nullopt;
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    int out = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc() && end == s.data() + s.size()) return out;
  }
  return std::nullopt;
}

std::string StringKeyword(const Json& s, const char* key) {
  auto it = s.find(key);
  return it != s.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool IsNullSchema(const Json& s) {
  if (!s.is_object()) return false;
  auto t = s.find("type");
  if (t != s.end()) return (t->is_string() && *t == "null") || (t->is_array() && t->size() == 1 && (*t)[0] == "null");
  auto c = s.find("const");
  return c != s.end() && c->is_null() && s.size() == 1;
}

class Mapper {
 public:
  explicit Mapper(const RefResolver& resolver) : docs_(resolver) {}

  Result<Mapped> Map(const Doc& doc, const Json& s, const std::string& ptr) {
    if (s.is_boolean()) {
      if (!s.get<bool>()) return Status::InvalidArgument(Where(doc, ptr) + ": the schema `false` accepts no value");
      return Mapped{Scalar(Kind::kJsonText), true};
    }
    if (!s.is_object()) return Status::InvalidArgument(Where(doc, ptr) + ": a schema must be an object or a boolean");
    if (auto ref = s.find("$ref"); ref != s.end()) return MapRef(doc, *ref, Child(ptr, "$ref"));
    if (auto pp = s.find("patternProperties"); pp != s.end() && !(pp->is_object() && pp->empty())) {
      return Status::Unsupported(Where(doc, Child(ptr, "patternProperties")) +
                                 ": patternProperties cannot be mapped to columns (use properties or an "
                                 "additionalProperties schema)");
    }
    if (auto all = s.find("allOf"); all != s.end()) {
      if (!all->is_array() || all->size() != 1) {
        return Status::Unsupported(Where(doc, Child(ptr, "allOf")) +
                                   ": allOf is mapped only with a single schema (merging schemas is not supported)");
      }
      return Map(doc, (*all)[0], Child(ptr, "allOf") + "/0");
    }
    for (const char* combinator : {"oneOf", "anyOf"}) {
      if (auto it = s.find(combinator); it != s.end()) return MapBranches(doc, *it, Child(ptr, combinator));
    }
    // An enum or const of strings is a string column; any other is only validation of a
    // value whose `type` says what the column is.
    if (auto e = s.find("enum"); e != s.end() && !s.contains("type")) return MapEnum(doc, *e, Child(ptr, "enum"));
    if (auto c = s.find("const"); c != s.end() && !s.contains("type")) {
      if (c->is_string()) return Mapped{Scalar(Kind::kString), false};
      return Status::Unsupported(Where(doc, Child(ptr, "const")) + ": only a string const maps to a column without a type");
    }
    if (++mapped_nodes_ > kMaxSchemaNodes) {
      return Status::Unsupported(Where(doc, ptr) + ": the schema expands to more than " +
                                 std::to_string(kMaxSchemaNodes) + " nodes through its $refs");
    }
    return MapTyped(doc, s, ptr);
  }

 private:
  Result<Mapped> MapRef(const Doc& doc, const Json& ref, const std::string& ptr) {
    if (!ref.is_string()) return Status::InvalidArgument(Where(doc, ptr) + ": $ref must be a string");
    const std::string text = ref.get<std::string>();
    FLOE_ASSIGN_OR_RETURN(auto target, docs_.Resolve(doc, text, Where(doc, ptr)));
    const std::string key = Where(*target.doc, target.pointer);
    if (!active_.insert(key).second) {
      return Status::Unsupported(Where(doc, ptr) + ": $ref '" + text + "' refers back to " + key +
                                 ", which encloses it: recursive schemas have no finite column type");
    }
    auto mapped = Map(*target.doc, *target.schema, target.pointer);
    active_.erase(key);
    return mapped;
  }

  Result<Mapped> MapBranches(const Doc& doc, const Json& branches, const std::string& ptr) {
    if (!branches.is_array() || branches.empty()) {
      return Status::InvalidArgument(Where(doc, ptr) + ": must be a non-empty array of schemas");
    }
    bool nullable = false;
    std::optional<Mapped> only;
    for (std::size_t i = 0; i < branches.size(); ++i) {
      if (IsNullSchema(branches[i])) {
        nullable = true;
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(Mapped m, Map(doc, branches[i], ptr + "/" + std::to_string(i)));
      if (only && !(only->type == m.type)) {
        return Status::Unsupported(Where(doc, ptr) + ": branches of different types (" + ToString(only->type) +
                                   ", " + ToString(m.type) +
                                   "); a column has one type, so only null plus one other branch is mapped");
      }
      nullable = nullable || m.nullable;
      only = std::move(m);
    }
    if (!only) return Status::InvalidArgument(Where(doc, ptr) + ": only null is allowed, and tables have no null type");
    only->nullable = nullable;
    return *std::move(only);
  }

  static Result<Mapped> MapEnum(const Doc& doc, const Json& values, const std::string& ptr) {
    if (!values.is_array() || values.empty()) return Status::InvalidArgument(Where(doc, ptr) + ": must be a non-empty array");
    bool nullable = false;
    bool any_string = false;
    for (const auto& v : values) {
      if (v.is_null()) {
        nullable = true;
      } else if (v.is_string()) {
        any_string = true;
      } else {
        return Status::Unsupported(Where(doc, ptr) + ": only an enum of strings maps to a column without a type, found " +
                                   v.dump());
      }
    }
    if (!any_string) return Status::InvalidArgument(Where(doc, ptr) + ": only null is allowed, and tables have no null type");
    return Mapped{Scalar(Kind::kString), nullable};
  }

  // The JSON types the schema allows (`type`, or implied by object/array keywords).
  static Result<std::set<std::string>> Types(const Doc& doc, const Json& s, const std::string& ptr, bool& nullable) {
    std::set<std::string> types;
    auto t = s.find("type");
    if (t == s.end()) {
      if (s.contains("properties") || s.contains("additionalProperties")) types.insert("object");
      if (s.contains("items") || s.contains("prefixItems")) types.insert("array");
      return types;
    }
    std::vector<Json> names = t->is_array() ? t->get<std::vector<Json>>() : std::vector<Json>{*t};
    for (const auto& n : names) {
      if (!n.is_string()) return Status::InvalidArgument(Where(doc, Child(ptr, "type")) + ": type names must be strings");
      if (n == "null") nullable = true;
      else types.insert(n.get<std::string>());
    }
    if (types.empty()) {
      return Status::InvalidArgument(Where(doc, Child(ptr, "type")) + ": only null is allowed, and tables have no null type");
    }
    // Every integer is a number: the wider one holds both.
    if (types == std::set<std::string>{"integer", "number"}) types = {"number"};
    return types;
  }

  Result<Mapped> MapTyped(const Doc& doc, const Json& s, const std::string& ptr) {
    bool nullable = false;
    FLOE_ASSIGN_OR_RETURN(auto types, Types(doc, s, ptr, nullable));
    if (types.empty()) return Mapped{Scalar(Kind::kJsonText), true};  // says nothing: any JSON
    if (types.size() > 1) {
      std::string list;
      for (const auto& t : types) list += (list.empty() ? "" : ", ") + t;
      return Status::Unsupported(Where(doc, Child(ptr, "type")) + ": several types (" + list +
                                 "); a column has one type, so only null plus one other type is mapped");
    }
    const std::string& type = *types.begin();
    FLOE_ASSIGN_OR_RETURN(JsonType mapped, MapType(doc, s, ptr, type));
    const bool any_json = mapped.kind == Kind::kJsonText;  // JSON text holds null too
    return Mapped{std::move(mapped), nullable || any_json};
  }

  Result<JsonType> MapType(const Doc& doc, const Json& s, const std::string& ptr, const std::string& type) {
    if (type == "boolean") return Scalar(Kind::kBoolean);
    if (type == "integer" || type == "number") return MapNumber(doc, s, ptr, type == "integer");
    if (type == "string") return MapString(doc, s, ptr);
    if (type == "object") return MapObject(doc, s, ptr);
    if (type == "array") return MapArray(doc, s, ptr);
    return Status::InvalidArgument(Where(doc, Child(ptr, "type")) + ": unknown type '" + type + "'");
  }

  static Result<JsonType> MapDecimal(const Doc& doc, const Json& s, const std::string& ptr, Kind kind) {
    int precision = kDefaultDecimalPrecision;
    int scale = 0;
    if (auto params = s.find("connect.parameters"); params != s.end() && params->is_object()) {
      if (auto p = params->find("connect.decimal.precision"); p != params->end()) {
        auto v = IntParameter(*p);
        if (!v) return Status::InvalidArgument(Where(doc, ptr) + ": connect.decimal.precision is not an integer");
        precision = *v;
      }
      if (auto sc = params->find("scale"); sc != params->end()) {
        auto v = IntParameter(*sc);
        if (!v) return Status::InvalidArgument(Where(doc, ptr) + ": the decimal scale is not an integer");
        scale = *v;
      }
    }
    if (precision < 1 || precision > kMaxDecimalPrecision) {
      return Status::Unsupported(Where(doc, ptr) + ": decimal precision " + std::to_string(precision) +
                                 " is outside 1.." + std::to_string(kMaxDecimalPrecision));
    }
    if (scale < 0 || scale > precision) {
      return Status::Unsupported(Where(doc, ptr) + ": decimal scale " + std::to_string(scale) + " is outside 0.." +
                                 std::to_string(precision));
    }
    JsonType t = Scalar(kind);
    t.precision = precision;
    t.scale = scale;
    return t;
  }

  static bool IsDecimal(const Json& s) {
    if (StringKeyword(s, "title") == kConnectDecimal) return true;
    auto params = s.find("connect.parameters");
    return params != s.end() && params->is_object() && params->contains("scale");
  }

  static Result<JsonType> MapNumber(const Doc& doc, const Json& s, const std::string& ptr, bool integer) {
    const std::string title = StringKeyword(s, "title");
    if (title == kConnectTimestamp) return Scalar(Kind::kTimestampMillis);
    if (title == kConnectDate) return Scalar(Kind::kDateDays);
    if (title == kConnectTime) return Scalar(Kind::kTimeMillis);
    if (IsDecimal(s)) return MapDecimal(doc, s, ptr, Kind::kDecimal);
    const std::string connect = StringKeyword(s, "connect.type");
    static const std::map<std::string, int> kIntBits = {{"int8", 8}, {"int16", 16}, {"int32", 32}, {"int64", 64}};
    if (auto it = kIntBits.find(connect); it != kIntBits.end()) {
      JsonType t = Scalar(Kind::kInteger);
      t.bits = it->second;
      return t;
    }
    if (connect == "float32") return Scalar(Kind::kFloat32);
    if (connect.empty() || connect == "float64") return Scalar(integer ? Kind::kInteger : Kind::kFloat64);
    return Status::Unsupported(Where(doc, Child(ptr, "connect.type")) + ": '" + connect + "' on a numeric schema");
  }

  static Result<JsonType> MapString(const Doc& doc, const Json& s, const std::string& ptr) {
    if (IsDecimal(s)) return MapDecimal(doc, s, ptr, Kind::kDecimalBytes);
    if (StringKeyword(s, "connect.type") == "bytes" || StringKeyword(s, "contentEncoding") == "base64") {
      return Scalar(Kind::kBytes);
    }
    const std::string format = StringKeyword(s, "format");
    if (format == "date-time") return Scalar(Kind::kTimestamp);
    if (format == "date") return Scalar(Kind::kDate);
    if (format == "time") return Scalar(Kind::kTime);
    return Scalar(Kind::kString);  // uuid too: kept as written, as for Avro
  }

  Result<JsonType> MapObject(const Doc& doc, const Json& s, const std::string& ptr) {
    auto props = s.find("properties");
    if (props != s.end() && !props->is_object()) {
      return Status::InvalidArgument(Where(doc, Child(ptr, "properties")) + ": must be an object");
    }
    if (props == s.end() || props->empty()) {
      auto extra = s.find("additionalProperties");
      if (extra != s.end() && extra->is_object()) {
        FLOE_ASSIGN_OR_RETURN(Mapped value, Map(doc, *extra, Child(ptr, "additionalProperties")));
        return json::Map(std::move(value.type), value.nullable);
      }
      return Scalar(Kind::kJsonText);  // a free-form object: kept as JSON text
    }
    std::set<std::string> required;
    if (auto r = s.find("required"); r != s.end() && r->is_array()) {
      for (const auto& name : *r) {
        if (name.is_string()) required.insert(name.get<std::string>());
      }
    }
    std::vector<JsonField> fields;
    for (const auto& [name, sub] : props->items()) {
      FLOE_ASSIGN_OR_RETURN(Mapped m, Map(doc, sub, Child(Child(ptr, "properties"), name)));
      fields.push_back(JsonField{name, std::move(m.type), m.nullable || !required.contains(name)});
    }
    return Object(std::move(fields));
  }

  Result<JsonType> MapArray(const Doc& doc, const Json& s, const std::string& ptr) {
    if (s.contains("prefixItems")) {
      return Status::Unsupported(Where(doc, Child(ptr, "prefixItems")) + ": tuples cannot be mapped to a list column");
    }
    auto items = s.find("items");
    if (items == s.end()) return Array(Scalar(Kind::kJsonText), true);
    if (items->is_array()) {
      return Status::Unsupported(Where(doc, Child(ptr, "items")) + ": tuples cannot be mapped to a list column");
    }
    FLOE_ASSIGN_OR_RETURN(Mapped element, Map(doc, *items, Child(ptr, "items")));
    return Array(std::move(element.type), element.nullable);
  }

  internal::SchemaDocs docs_;
  std::set<std::string> active_;  // the $ref targets being expanded: a repeat is a cycle
  // $refs can make a small schema expand exponentially (each definition using the next
  // twice): a bound on the work, far above any real schema.
  static constexpr int kMaxSchemaNodes = 10000;
  int mapped_nodes_ = 0;
};

}  // namespace

Result<JsonField> MapJsonSchema(std::string_view schema_text, const RefResolver& resolver) {
  FLOE_ASSIGN_OR_RETURN(Json root, internal::ParseSchema(schema_text, "the JSON schema"));
  const Doc doc{"", std::move(root)};
  Mapper mapper(resolver);
  FLOE_ASSIGN_OR_RETURN(Mapped m, mapper.Map(doc, doc.root, ""));
  return JsonField{"", std::move(m.type), m.nullable};
}

}  // namespace floe::json
