#include "floe/schema/json_access.h"

#include <cstdint>
#include <limits>

namespace floe::schema::json_access {

using nlohmann::json;

const json* Find(const json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string Describe(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a non-integer number";
    default: return "an invalid value";
  }
}

namespace {
std::string Quoted(std::string_view key) { return "\"" + std::string(key) + "\""; }
}  // namespace

Result<const json*> Require(const json& obj, std::string_view key, std::string_view where) {
  if (!obj.is_object()) {
    return Status::InvalidArgument(std::string(where) + ": expected an object, got " + Describe(obj));
  }
  const json* v = Find(obj, key);
  if (!v) return Status::InvalidArgument(std::string(where) + ": missing " + Quoted(key));
  return v;
}

Result<int> AsInt(const json& value, std::string_view what) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return static_cast<int>(u);
  } else if (value.is_number_integer()) {
    const auto i = value.get<std::int64_t>();
    if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max()) return static_cast<int>(i);
  } else {
    return Status::InvalidArgument(std::string(what) + " must be an integer, got " + Describe(value));
  }
  return Status::InvalidArgument(std::string(what) + " " + DumpCompact(value) + " is outside the 32-bit integer range");
}

Result<int> RequireInt(const json& obj, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const json* v, Require(obj, key, where));
  return AsInt(*v, std::string(where) + ": " + Quoted(key));
}

Result<bool> RequireBool(const json& obj, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const json* v, Require(obj, key, where));
  if (!v->is_boolean()) {
    return Status::InvalidArgument(std::string(where) + ": " + Quoted(key) + " must be a boolean, got " + Describe(*v));
  }
  return v->get<bool>();
}

Result<std::string> RequireString(const json& obj, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const json* v, Require(obj, key, where));
  if (!v->is_string()) {
    return Status::InvalidArgument(std::string(where) + ": " + Quoted(key) + " must be a string, got " + Describe(*v));
  }
  return v->get<std::string>();
}

Result<std::optional<int>> OptionalInt(const json& obj, std::string_view key, std::string_view where) {
  const json* v = Find(obj, key);
  if (!v) return std::optional<int>();
  FLOE_ASSIGN_OR_RETURN(int i, AsInt(*v, std::string(where) + ": " + Quoted(key)));
  return std::optional<int>(i);
}

Result<std::optional<std::string>> OptionalString(const json& obj, std::string_view key, std::string_view where) {
  const json* v = Find(obj, key);
  if (!v) return std::optional<std::string>();
  if (!v->is_string()) {
    return Status::InvalidArgument(std::string(where) + ": " + Quoted(key) + " must be a string, got " + Describe(*v));
  }
  return std::optional<std::string>(v->get<std::string>());
}

std::string DumpCompact(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace floe::schema::json_access
