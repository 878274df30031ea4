#include "floe/registry/schema_response_internal.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>

#include "floe/core/json_depth.h"

namespace floe::registry {
namespace {

using nlohmann::json;

// Registry text quoted in errors: never throws on bytes that are not UTF-8.
std::string Quote(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 200); }

// A JSON integer that fits `T`, else nullopt (nlohmann's get<T> would wrap it around).
template <typename T>
std::optional<T> FittingInteger(const json& j) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
    return static_cast<T>(v);
  }
  if (j.is_number_integer()) {
    const auto v = j.get<std::int64_t>();
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return std::nullopt;
    return static_cast<T>(v);
  }
  return std::nullopt;
}

Result<SchemaType> ParseSchemaType(const json& j) {
  // Confluent omits schemaType for Avro.
  if (!j.contains("schemaType") || j["schemaType"].is_null()) return SchemaType::kAvro;
  if (!j["schemaType"].is_string()) return Status::InvalidArgument("schemaType is not a string");
  const auto& t = j["schemaType"].get_ref<const std::string&>();
  if (t == "AVRO") return SchemaType::kAvro;
  if (t == "PROTOBUF") return SchemaType::kProtobuf;
  if (t == "JSON") return SchemaType::kJson;
  return Status::Unsupported("schema type '" + Quote(j["schemaType"]) + "' is not supported");
}

}  // namespace

std::string RegistryMessage(const std::string& body) {
  if (!CheckJsonDepth(body, "").ok()) return body.substr(0, 200);
  auto j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("message") && j["message"].is_string()) {
    return j["message"].get<std::string>();
  }
  return body.substr(0, 200);
}

Result<RegisteredSchema> ParseSchemaResponse(const std::string& body, std::int32_t id) {
  FLOE_RETURN_IF_ERROR(CheckJsonDepth(body, "schema registry answer"));
  auto j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string()) {
    return Status::InvalidArgument("schema registry answered with an unexpected body: " + body.substr(0, 200));
  }
  RegisteredSchema s;
  s.id = id;
  if (j.contains("id")) {
    if (auto body_id = FittingInteger<std::int32_t>(j["id"]); body_id && *body_id >= 0) s.id = *body_id;
  }
  FLOE_ASSIGN_OR_RETURN(s.type, ParseSchemaType(j));
  s.schema = j["schema"].get<std::string>();
  if (j.contains("references") && !j["references"].is_null()) {
    if (!j["references"].is_array()) {
      return Status::InvalidArgument("schema registry returned references that are not an array: " +
                                     Quote(j["references"]));
    }
    for (const auto& r : j["references"]) {
      std::optional<int> version;
      if (r.is_object() && r.contains("version")) version = FittingInteger<int>(r["version"]);
      if (!r.is_object() || !r.contains("name") || !r.contains("subject") || !version || !r["name"].is_string() ||
          !r["subject"].is_string()) {
        return Status::InvalidArgument("schema registry returned a malformed reference: " + Quote(r));
      }
      s.references.push_back({r["name"].get<std::string>(), r["subject"].get<std::string>(), *version});
    }
  }
  return s;
}

}  // namespace floe::registry
