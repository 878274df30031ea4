// ParseSchema: Avro schema JSON -> Node tree, following the "Schema Declaration" and
// "Names" sections of the Avro specification, plus the rules Floe adds because every
// schema ends up as a table (no recursion; decimals must be well formed).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "floe/avro/schema.h"
#include "floe/core/edit_distance.h"
#include "floe/core/json_depth.h"

namespace floe::avro {
namespace {

using Json = nlohmann::json;

// Deeper schemas are surely not meant for tables, and the parser and the decoders
// recurse once per level: bounding it keeps hostile input from exhausting the stack.
constexpr int kMaxDepth = 128;

// Where in the schema a parse step is, for messages.
struct Scope {
  std::string path;  // field path below the root record: "customer.address", "tags[]", "attrs{}"
  std::string ns;    // namespace of the most tightly enclosing named type
  int depth = 0;
  std::string note;  // extra context for this step only, e.g. " (union branch 2)"
};

std::string Where(const Scope& s) {
  std::string out = s.path.empty() ? std::string("schema root") : "field '" + s.path + "'";
  return out + s.note;
}

Status Error(const Scope& s, const std::string& what) { return Status::InvalidArgument(Where(s) + ": " + what); }

std::string JoinPath(const std::string& path, std::string_view suffix) {
  if (path.empty()) return std::string(suffix);
  return path + "." + std::string(suffix);
}

bool IsValidName(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(name[0])) return false;
  return std::all_of(name.begin() + 1, name.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

bool IsValidFullName(std::string_view name) {
  std::size_t start = 0;
  while (true) {
    std::size_t dot = name.find('.', start);
    if (!IsValidName(name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::optional<Type> PrimitiveType(std::string_view name) {
  static const std::map<std::string_view, Type> kPrimitives = {
      {"null", Type::kNull},     {"boolean", Type::kBoolean}, {"int", Type::kInt},     {"long", Type::kLong},
      {"float", Type::kFloat},   {"double", Type::kDouble},   {"bytes", Type::kBytes}, {"string", Type::kString},
  };
  auto it = kPrimitives.find(name);
  if (it == kPrimitives.end()) return std::nullopt;
  return it->second;
}

// JSON integers only (10.0 is not a size), within int64.
std::optional<std::int64_t> AsInt(const Json& j) {
  if (j.is_number_unsigned()) {
    auto v = j.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
  if (j.is_number_integer()) return j.get<std::int64_t>();
  return std::nullopt;
}

std::string Compact(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

const Json* Find(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// The members of `obj` that are not in `reserved`, as compact JSON: see Attributes.
Attributes OtherMembers(const Json& obj, std::initializer_list<std::string_view> reserved) {
  Attributes out;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::find(reserved.begin(), reserved.end(), std::string_view(it.key())) != reserved.end()) continue;
    out.emplace(it.key(), Compact(it.value()));
  }
  return out;
}

// The attributes of a type object, once its logical type (if any) is known: the members
// that define the type are left out, and so is a logical type that was recognized.
Attributes TypeAttributes(const Json& obj, const Node& node) {
  Attributes out = OtherMembers(obj, {"type", "name", "namespace", "aliases", "doc"});
  auto drop = [&](std::initializer_list<const char*> keys) {
    for (const char* k : keys) out.erase(std::string(k));
  };
  switch (node.type) {
    case Type::kRecord: drop({"fields"}); break;
    case Type::kEnum: drop({"symbols", "default"}); break;
    case Type::kFixed: drop({"size"}); break;
    case Type::kArray: drop({"items"}); break;
    case Type::kMap: drop({"values"}); break;
    default: break;
  }
  if (node.logical_type != LogicalType::kNone) drop({"logicalType"});
  if (node.logical_type == LogicalType::kDecimal) drop({"precision", "scale"});
  return out;
}

// The most decimal digits a two's-complement integer of `size` bytes always holds:
// floor(log10(2^(8*size-1) - 1)). (8n-1)*log10(2) is never close to an integer for the
// sizes that matter, so double arithmetic gives the exact floor.
std::int64_t MaxDecimalDigits(std::int64_t size) {
  if (size <= 0) return 0;
  if (size > 1024) return std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int64_t>(std::floor(static_cast<double>(8 * size - 1) * std::log10(2.0)));
}

class SchemaParser {
 public:
  Result<NodePtr> Parse(const Json& j, const Scope& s) {
    if (s.depth > kMaxDepth) return Error(s, "schema nests deeper than " + std::to_string(kMaxDepth) + " levels");
    if (j.is_string()) return Resolve(j.get_ref<const std::string&>(), s);
    if (j.is_array()) return ParseUnion(j, s);
    if (j.is_object()) return ParseObject(j, s);
    return Error(s, "expected a type name, a type object or a union array, got " + Compact(j));
  }

 private:
  // A type given by name: a primitive, or a named type defined earlier in the schema.
  Result<NodePtr> Resolve(const std::string& name, const Scope& s) {
    if (auto primitive = PrimitiveType(name)) {
      auto node = std::make_shared<Node>();
      node->type = *primitive;
      return NodePtr(std::move(node));
    }
    // Spec: a name without a dot is in the enclosing namespace. Like the Java
    // implementation, fall back to the null namespace so that schemas mixing namespaced
    // and un-namespaced types keep working.
    std::vector<std::string> candidates;
    if (name.find('.') == std::string::npos && !s.ns.empty()) candidates.push_back(s.ns + "." + name);
    candidates.push_back(name);
    for (const auto& full : candidates) {
      auto open = std::find(defining_.begin(), defining_.end(), full);
      if (open != defining_.end()) {
        std::string chain;
        for (auto it = open; it != defining_.end(); ++it) chain += *it + " -> ";
        chain += full;
        return Error(s, "type '" + full + "' is recursive (" + chain +
                            "); Floe cannot store recursive schemas in a table");
      }
      auto found = defined_.find(full);
      if (found != defined_.end()) return found->second;
    }
    std::vector<std::string> known = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"};
    for (const auto& [full, node] : defined_) {
      known.push_back(full);
      known.push_back(full.substr(full.rfind('.') + 1));
    }
    std::string message = "unknown type '" + name + "'";
    if (auto near = ClosestMatch(name, known)) message += " (did you mean '" + *near + "'?)";
    return Error(s, message);
  }

  Result<NodePtr> ParseObject(const Json& obj, const Scope& s) {
    const Json* type = Find(obj, "type");
    if (type == nullptr) return Error(s, "type object has no \"type\": " + Compact(obj));
    if (!type->is_string()) {
      return Error(s, "\"type\" must be a string naming the type, got " + Compact(*type));
    }
    const std::string& t = type->get_ref<const std::string&>();
    if (auto primitive = PrimitiveType(t)) {
      auto node = std::make_shared<Node>();
      node->type = *primitive;
      FLOE_RETURN_IF_ERROR(ApplyLogicalType(obj, *node, s));
      node->attributes = TypeAttributes(obj, *node);
      return NodePtr(std::move(node));
    }
    if (t == "record" || t == "error") return ParseNamed(obj, Type::kRecord, s);
    if (t == "enum") return ParseNamed(obj, Type::kEnum, s);
    if (t == "fixed") return ParseNamed(obj, Type::kFixed, s);
    if (t == "array") {
      const Json* items = Find(obj, "items");
      if (items == nullptr) return Error(s, "array has no \"items\"");
      auto node = std::make_shared<Node>();
      node->type = Type::kArray;
      FLOE_ASSIGN_OR_RETURN(node->items, Parse(*items, Scope{s.path + "[]", s.ns, s.depth + 1, ""}));
      node->attributes = TypeAttributes(obj, *node);
      return NodePtr(std::move(node));
    }
    if (t == "map") {
      const Json* values = Find(obj, "values");
      if (values == nullptr) return Error(s, "map has no \"values\"");
      auto node = std::make_shared<Node>();
      node->type = Type::kMap;
      FLOE_ASSIGN_OR_RETURN(node->values, Parse(*values, Scope{s.path + "{}", s.ns, s.depth + 1, ""}));
      node->attributes = TypeAttributes(obj, *node);
      return NodePtr(std::move(node));
    }
    // {"type": "com.acme.Address"}: a reference to a named type, written as an object.
    return Resolve(t, s);
  }

  Result<NodePtr> ParseUnion(const Json& arr, const Scope& s) {
    auto node = std::make_shared<Node>();
    node->type = Type::kUnion;
    // Spec: at most one branch per type, except named types, which must differ by name.
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      Scope branch_scope{s.path, s.ns, s.depth + 1, " (union branch " + std::to_string(i) + ")"};
      if (arr[i].is_array()) return Error(branch_scope, "a union may not contain another union");
      FLOE_ASSIGN_OR_RETURN(NodePtr branch, Parse(arr[i], branch_scope));
      std::string key = branch->is_named() ? branch->full_name : std::string(TypeName(branch->type));
      auto [it, inserted] = seen.emplace(key, i);
      if (!inserted) {
        return Error(s, "union has two branches of type '" + key + "' (branches " + std::to_string(it->second) +
                            " and " + std::to_string(i) + ")");
      }
      node->branches.push_back(std::move(branch));
    }
    return NodePtr(std::move(node));
  }

  // Records, enums and fixed: names, namespaces, aliases, then the type's own attributes.
  Result<NodePtr> ParseNamed(const Json& obj, Type type, const Scope& s) {
    auto node = std::make_shared<Node>();
    node->type = type;
    const Json* name = Find(obj, "name");
    if (name == nullptr || !name->is_string()) {
      return Error(s, std::string(TypeName(type)) + " has no \"name\" string");
    }
    const std::string& n = name->get_ref<const std::string&>();
    std::string ns;
    std::string full;
    if (n.find('.') != std::string::npos) {  // a full name ignores "namespace"
      full = n;
      ns = n.substr(0, n.rfind('.'));
    } else {
      ns = s.ns;
      if (const Json* nsj = Find(obj, "namespace"); nsj != nullptr && !nsj->is_null()) {
        if (!nsj->is_string()) return Error(s, "\"namespace\" of '" + n + "' must be a string");
        ns = nsj->get_ref<const std::string&>();
      }
      full = ns.empty() ? n : ns + "." + n;
    }
    if (!IsValidFullName(full)) {
      return Error(s, "invalid name '" + full + "' (names are [A-Za-z_][A-Za-z0-9_]*, dot-separated)");
    }
    if (PrimitiveType(full.substr(full.rfind('.') + 1))) {
      return Error(s, "'" + full + "' redefines the primitive type name");
    }
    if (defined_.count(full) != 0 || std::find(defining_.begin(), defining_.end(), full) != defining_.end()) {
      return Error(s, "duplicate name: type '" + full + "' is already defined");
    }
    node->full_name = full;
    if (const Json* aliases = Find(obj, "aliases")) {
      FLOE_ASSIGN_OR_RETURN(auto names, StringList(*aliases, s, "aliases of '" + full + "'"));
      for (auto& alias : names) {
        node->aliases.push_back(alias.find('.') != std::string::npos || ns.empty() ? alias : ns + "." + alias);
      }
    }

    Scope inner{s.path, ns, s.depth + 1, ""};
    defining_.push_back(full);  // from here on the name refers to this type (spec), i.e. recursion
    if (type == Type::kRecord) {
      FLOE_RETURN_IF_ERROR(ParseFields(obj, *node, inner));
    } else if (type == Type::kEnum) {
      FLOE_RETURN_IF_ERROR(ParseSymbols(obj, *node, s));
    } else {
      const Json* size = Find(obj, "size");
      std::optional<std::int64_t> v = size == nullptr ? std::nullopt : AsInt(*size);
      if (!v || *v < 0 || *v > std::numeric_limits<std::int32_t>::max()) {
        return Error(s, "fixed '" + full + "' needs a \"size\" that is a non-negative 32-bit integer");
      }
      node->fixed_size = *v;
      FLOE_RETURN_IF_ERROR(ApplyLogicalType(obj, *node, s));
    }
    defining_.pop_back();
    node->attributes = TypeAttributes(obj, *node);
    defined_.emplace(full, node);
    return NodePtr(std::move(node));
  }

  Status ParseFields(const Json& obj, Node& record, const Scope& s) {
    const Json* fields = Find(obj, "fields");
    if (fields == nullptr || !fields->is_array()) {
      return Error(s, "record '" + record.full_name + "' needs a \"fields\" array");
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < fields->size(); ++i) {
      const Json& f = (*fields)[i];
      const Json* name = f.is_object() ? Find(f, "name") : nullptr;
      if (name == nullptr || !name->is_string()) {
        return Error(s, "field #" + std::to_string(i) + " of record '" + record.full_name +
                            "' must be an object with a \"name\" string");
      }
      Field field;
      field.name = name->get_ref<const std::string&>();
      Scope fs{JoinPath(s.path, field.name), s.ns, s.depth + 1, ""};
      if (!IsValidName(field.name)) return Error(fs, "invalid field name (names are [A-Za-z_][A-Za-z0-9_]*)");
      if (!names.insert(field.name).second) {
        return Error(fs, "duplicate field name '" + field.name + "' in record '" + record.full_name + "'");
      }
      const Json* type = Find(f, "type");
      if (type == nullptr) return Error(fs, "field has no \"type\"");
      FLOE_ASSIGN_OR_RETURN(field.node, Parse(*type, fs));
      if (const Json* def = Find(f, "default")) {
        field.has_default = true;
        field.default_json = Compact(*def);
      }
      if (const Json* aliases = Find(f, "aliases")) {
        FLOE_ASSIGN_OR_RETURN(field.aliases, StringList(*aliases, fs, "field aliases"));
      }
      field.attributes = OtherMembers(f, {"name", "type", "default", "aliases", "doc", "order"});
      record.fields.push_back(std::move(field));
    }
    return Status::OK();
  }

  Status ParseSymbols(const Json& obj, Node& node, const Scope& s) {
    const Json* symbols = Find(obj, "symbols");
    if (symbols == nullptr) return Error(s, "enum '" + node.full_name + "' has no \"symbols\"");
    FLOE_ASSIGN_OR_RETURN(node.symbols, StringList(*symbols, s, "symbols of enum '" + node.full_name + "'"));
    std::set<std::string_view> seen;
    for (const auto& sym : node.symbols) {
      if (!IsValidName(sym)) return Error(s, "enum '" + node.full_name + "' has invalid symbol '" + sym + "'");
      if (!seen.insert(sym).second) {
        return Error(s, "enum '" + node.full_name + "' has duplicate symbol '" + sym + "'");
      }
    }
    if (const Json* def = Find(obj, "default")) {
      if (!def->is_string() || seen.count(def->get_ref<const std::string&>()) == 0) {
        return Error(s, "default " + Compact(*def) + " of enum '" + node.full_name + "' is not one of its symbols");
      }
      node.enum_default = def->get_ref<const std::string&>();
    }
    return Status::OK();
  }

  Result<std::vector<std::string>> StringList(const Json& j, const Scope& s, const std::string& what) {
    if (!j.is_array()) return Error(s, what + " must be an array of strings");
    std::vector<std::string> out;
    for (const auto& e : j) {
      if (!e.is_string()) return Error(s, what + " must be an array of strings");
      out.push_back(e.get_ref<const std::string&>());
    }
    return out;
  }

  // Sets node.logical_type when "logicalType" is valid on this base type. The spec says
  // to ignore a logical type on the wrong base type; a decimal on bytes/fixed with bad
  // parameters is rejected instead, because silently storing it as binary would make a
  // column that looks nothing like what the producer meant.
  Status ApplyLogicalType(const Json& obj, Node& node, const Scope& s) {
    const Json* lt = Find(obj, "logicalType");
    if (lt == nullptr || !lt->is_string()) return Status::OK();
    const std::string& name = lt->get_ref<const std::string&>();
    const Type t = node.type;
    auto set_if = [&](bool valid, LogicalType logical) {
      if (valid) node.logical_type = logical;
      return Status::OK();
    };
    if (name == "decimal") {
      if (t != Type::kBytes && t != Type::kFixed) return Status::OK();
      return ApplyDecimal(obj, node, s);
    }
    if (name == "uuid") return set_if(t == Type::kString || (t == Type::kFixed && node.fixed_size == 16), LogicalType::kUuid);
    if (name == "date") return set_if(t == Type::kInt, LogicalType::kDate);
    if (name == "time-millis") return set_if(t == Type::kInt, LogicalType::kTimeMillis);
    if (name == "time-micros") return set_if(t == Type::kLong, LogicalType::kTimeMicros);
    if (name == "timestamp-millis") return set_if(t == Type::kLong, LogicalType::kTimestampMillis);
    if (name == "timestamp-micros") return set_if(t == Type::kLong, LogicalType::kTimestampMicros);
    if (name == "timestamp-nanos") return set_if(t == Type::kLong, LogicalType::kTimestampNanos);
    if (name == "local-timestamp-millis") return set_if(t == Type::kLong, LogicalType::kLocalTimestampMillis);
    if (name == "local-timestamp-micros") return set_if(t == Type::kLong, LogicalType::kLocalTimestampMicros);
    if (name == "local-timestamp-nanos") return set_if(t == Type::kLong, LogicalType::kLocalTimestampNanos);
    if (name == "duration") return set_if(t == Type::kFixed && node.fixed_size == 12, LogicalType::kDuration);
    return Status::OK();  // unknown logical types are ignored too
  }

  Status ApplyDecimal(const Json& obj, Node& node, const Scope& s) {
    const Json* p = Find(obj, "precision");
    std::optional<std::int64_t> precision = p == nullptr ? std::nullopt : AsInt(*p);
    if (!precision) return Error(s, "invalid decimal: \"precision\" must be an integer");
    if (*precision <= 0) return Error(s, "invalid decimal: precision " + std::to_string(*precision) + " must be positive");
    std::int64_t scale = 0;
    if (const Json* sc = Find(obj, "scale")) {
      auto v = AsInt(*sc);
      if (!v) return Error(s, "invalid decimal: \"scale\" must be an integer");
      scale = *v;
    }
    if (scale < 0 || scale > *precision) {
      return Error(s, "invalid decimal: scale " + std::to_string(scale) + " must be between 0 and the precision " +
                          std::to_string(*precision));
    }
    if (node.type == Type::kFixed && *precision > MaxDecimalDigits(node.fixed_size)) {
      return Error(s, "invalid decimal: precision " + std::to_string(*precision) + " does not fit in fixed '" +
                          node.full_name + "' of " + std::to_string(node.fixed_size) + " bytes (at most " +
                          std::to_string(MaxDecimalDigits(node.fixed_size)) + " digits)");
    }
    if (*precision > std::numeric_limits<std::int32_t>::max()) {
      return Error(s, "invalid decimal: precision " + std::to_string(*precision) + " is too large");
    }
    node.logical_type = LogicalType::kDecimal;
    node.precision = static_cast<int>(*precision);
    node.scale = static_cast<int>(scale);
    return Status::OK();
  }

  std::map<std::string, NodePtr> defined_;  // full name -> complete named type
  std::vector<std::string> defining_;       // named types whose definition is open, outermost first
};

}  // namespace

Result<NodePtr> ParseSchema(std::string_view json) {
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(json, "Avro schema"));
  Json j;
  try {
    j = Json::parse(json.begin(), json.end());
  } catch (const Json::exception& e) {
    return Status::InvalidArgument(std::string("Avro schema is not valid JSON: ") + e.what());
  }
  return SchemaParser().Parse(j, Scope{});
}

}  // namespace floe::avro
