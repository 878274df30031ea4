#include "floe/iceberg/view_metadata.h"

#include <cctype>
#include <set>
#include <utility>

#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/schema/json.h"

namespace floe::iceberg {

namespace {

using nlohmann::json;
namespace ja = json_access;

Result<ViewRepresentation> RepresentationFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "view representation"}));
  ViewRepresentation r;
  FLOE_ASSIGN_OR_RETURN(r.type, ja::RequireString(j, "type", kJsonWording));
  // Java's parser matches the type case-insensitively; what is kept is the canonical "sql".
  std::string lower = r.type;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower != "sql") {
    r.other = j;
    return r;
  }
  r.type = "sql";
  FLOE_ASSIGN_OR_RETURN(r.sql, ja::RequireString(j, "sql", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(r.dialect, ja::RequireString(j, "dialect", kJsonWording));
  return r;
}

json RepresentationToJson(const ViewRepresentation& r) {
  if (!r.IsSql()) return r.other;
  return {{"type", "sql"}, {"sql", r.sql}, {"dialect", r.dialect}};
}

Result<ViewHistoryEntry> HistoryEntryFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "version log entry"}));
  ViewHistoryEntry e;
  FLOE_ASSIGN_OR_RETURN(e.timestamp_ms, ja::RequireInt64(j, "timestamp-ms", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(e.version_id, ja::RequireInt(j, "version-id", kJsonWording));
  return e;
}

}  // namespace

const ViewVersion* ViewMetadata::VersionById(int version_id) const {
  for (const auto& v : versions) {
    if (v.version_id == version_id) return &v;
  }
  return nullptr;
}

const ViewVersion* ViewMetadata::CurrentVersion() const { return VersionById(current_version_id); }

const schema::Schema* ViewMetadata::SchemaById(int schema_id) const {
  for (const auto& s : schemas) {
    if (s.schema_id == schema_id) return &s;
  }
  return nullptr;
}

const schema::Schema* ViewMetadata::CurrentSchema() const {
  const ViewVersion* v = CurrentVersion();
  return v == nullptr ? nullptr : SchemaById(v->schema_id);
}

std::optional<std::string_view> ViewMetadata::Property(std::string_view key) const {
  auto it = properties.find(key);
  if (it == properties.end()) return std::nullopt;
  return std::string_view(it->second);
}

bool operator==(const ViewMetadata& a, const ViewMetadata& b) {
  if (a.schemas.size() != b.schemas.size()) return false;
  for (size_t i = 0; i < a.schemas.size(); ++i) {
    if (!SchemaEqual(a.schemas[i], b.schemas[i])) return false;
  }
  return a.view_uuid == b.view_uuid && a.format_version == b.format_version && a.location == b.location &&
         a.current_version_id == b.current_version_id && a.versions == b.versions &&
         a.version_log == b.version_log && a.properties == b.properties;
}

Result<ViewVersion> ViewVersionFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "view version"}));
  ViewVersion v;
  FLOE_ASSIGN_OR_RETURN(v.version_id, ja::RequireInt(j, "version-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(v.schema_id, ja::RequireInt(j, "schema-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(v.timestamp_ms, ja::RequireInt64(j, "timestamp-ms", kJsonWording));
  FLOE_RETURN_IF_ERROR(ja::Require(j, "summary", kJsonWording).status());
  FLOE_ASSIGN_OR_RETURN(v.summary, ja::OptionalStringMap(j, "summary", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(const json* representations, ja::RequireArray(j, "representations", kJsonWording));
  FLOE_RETURN_IF_ERROR(ParseJsonArray(representations, "representations", v.representations, RepresentationFromJson));
  FLOE_ASSIGN_OR_RETURN(v.default_catalog, ja::OptionalString(j, "default-catalog", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(v.default_namespace, ja::RequireStringList(j, "default-namespace", kJsonWording));
  return v;
}

json ViewVersionToJson(const ViewVersion& v) {
  json representations = json::array();
  for (const auto& r : v.representations) representations.push_back(RepresentationToJson(r));
  json j = {{"version-id", v.version_id},
            {"schema-id", v.schema_id},
            {"timestamp-ms", v.timestamp_ms},
            {"summary", json(v.summary)},
            {"representations", std::move(representations)},
            {"default-namespace", json(v.default_namespace)}};
  if (v.default_catalog) j["default-catalog"] = *v.default_catalog;
  return j;
}

Result<ViewMetadata> ViewMetadataFromJson(const json& j) {
  FLOE_RETURN_IF_ERROR(ja::ExpectObject(j, {kJsonWording, "view metadata"}));
  ViewMetadata m;
  FLOE_ASSIGN_OR_RETURN(m.format_version, ja::RequireInt(j, "format-version", kJsonWording));
  if (m.format_version != kViewFormatVersion) {
    return Status::Unsupported("view format-version " + std::to_string(m.format_version) +
                               " is not supported (the view spec defines version 1)");
  }
  FLOE_ASSIGN_OR_RETURN(m.view_uuid, ja::RequireString(j, "view-uuid", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(m.location, ja::RequireString(j, "location", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(const json* schemas, ja::RequireArray(j, "schemas", kJsonWording));
  FLOE_RETURN_IF_ERROR(ParseJsonArray(schemas, "schemas", m.schemas, schema::SchemaFromJson));
  FLOE_ASSIGN_OR_RETURN(m.current_version_id, ja::RequireInt(j, "current-version-id", kJsonWording));
  FLOE_ASSIGN_OR_RETURN(const json* versions, ja::RequireArray(j, "versions", kJsonWording));
  FLOE_RETURN_IF_ERROR(ParseJsonArray(versions, "versions", m.versions, ViewVersionFromJson));
  FLOE_ASSIGN_OR_RETURN(const json* log, ja::RequireArray(j, "version-log", kJsonWording));
  FLOE_RETURN_IF_ERROR(ParseJsonArray(log, "version-log", m.version_log, HistoryEntryFromJson));
  FLOE_ASSIGN_OR_RETURN(m.properties, ja::OptionalStringMap(j, "properties", kJsonWording));
  FLOE_RETURN_IF_ERROR(ValidateViewMetadata(m));
  return m;
}

json ViewMetadataToJson(const ViewMetadata& m) {
  json schemas = json::array();
  for (const auto& s : m.schemas) schemas.push_back(schema::SchemaToJson(s));
  json versions = json::array();
  for (const auto& v : m.versions) versions.push_back(ViewVersionToJson(v));
  json log = json::array();
  for (const auto& e : m.version_log) log.push_back({{"timestamp-ms", e.timestamp_ms}, {"version-id", e.version_id}});
  return {{"view-uuid", m.view_uuid},
          {"format-version", m.format_version},
          {"location", m.location},
          {"schemas", std::move(schemas)},
          {"current-version-id", m.current_version_id},
          {"versions", std::move(versions)},
          {"version-log", std::move(log)},
          {"properties", json(m.properties)}};
}

Result<ViewMetadata> ParseViewMetadata(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(json j, ParseJsonText(text, "view metadata"));
  return ViewMetadataFromJson(j);
}

std::string SerializeViewMetadata(const ViewMetadata& metadata) { return ViewMetadataToJson(metadata).dump(); }

Status ValidateViewMetadata(const ViewMetadata& m) {
  std::set<int> schema_ids;
  for (const auto& s : m.schemas) {
    if (!schema_ids.insert(s.schema_id).second) {
      return Status::InvalidArgument("schema id " + std::to_string(s.schema_id) + " appears twice in 'schemas'");
    }
  }
  std::set<int> version_ids;
  for (const auto& v : m.versions) {
    if (!version_ids.insert(v.version_id).second) {
      return Status::InvalidArgument("version id " + std::to_string(v.version_id) + " appears twice in 'versions'");
    }
    if (schema_ids.count(v.schema_id) == 0) {
      return Status::InvalidArgument("version " + std::to_string(v.version_id) + " has schema id " +
                                     std::to_string(v.schema_id) + ", which is not in 'schemas'");
    }
  }
  if (version_ids.count(m.current_version_id) == 0) {
    return Status::InvalidArgument("current-version-id " + std::to_string(m.current_version_id) +
                                   " is not in 'versions'");
  }
  return Status::OK();
}

}  // namespace floe::iceberg
