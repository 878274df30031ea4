#pragma once
// The Iceberg view metadata model: what one view `<NNNNN>-<uuid>.metadata.json` holds.
// Spec: format/view-spec.md of Apache Iceberg (view format version 1).
//
// A view is a query, not data: a list of versions (each a set of representations, one SQL
// text per dialect, with the default catalog/namespace its identifiers resolve against and
// the id of its output schema), the known schemas, the current version, the log of when each
// version became current, and properties. Its files live like a table's metadata files
// (metadata_files.h: `<location>/metadata/NNNNN-<uuid>.metadata.json`, or write.metadata.path)
// and the catalog swaps a pointer to the current one.
//
// A ViewMetadata that came out of ParseViewMetadata or the builders of view_update.h satisfies
// ValidateViewMetadata: the current version exists and so do the schemas of all versions.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/types.h"

namespace floe::iceberg {

inline constexpr int kViewFormatVersion = 1;  // the only view format version there is
// View properties this module interprets (Java's ViewProperties).
inline constexpr std::string_view kPropReplaceDropDialectAllowed = "replace.drop-dialect.allowed";
inline constexpr std::string_view kPropVersionHistorySize = "version.history.num-entries";
inline constexpr int kDefaultVersionHistorySize = 10;

// One representation of a version's query. Only "sql" is defined by the spec; a
// representation of another type is kept whole (`other`) so that it round-trips.
struct ViewRepresentation {
  std::string type = "sql";
  std::string sql;      // type "sql"
  std::string dialect;  // type "sql": "spark", "trino", … (unique per version, case-insensitively)
  nlohmann::json other;  // any other type: the object as read

  bool IsSql() const { return type == "sql"; }
  bool operator==(const ViewRepresentation&) const = default;
};

struct ViewVersion {
  int version_id = 0;
  int schema_id = 0;
  std::int64_t timestamp_ms = 0;
  std::map<std::string, std::string, std::less<>> summary;  // engine-name, engine-version, …
  std::vector<ViewRepresentation> representations;
  std::optional<std::string> default_catalog;  // unset: the catalog that stores the view
  std::vector<std::string> default_namespace;  // may be empty (the empty namespace)

  bool operator==(const ViewVersion&) const = default;
};

struct ViewHistoryEntry {
  std::int64_t timestamp_ms = 0;
  int version_id = 0;
  bool operator==(const ViewHistoryEntry&) const = default;
};

struct ViewMetadata {
  std::string view_uuid;
  int format_version = kViewFormatVersion;
  std::string location;
  std::vector<schema::Schema> schemas;
  int current_version_id = 0;
  std::vector<ViewVersion> versions;
  std::vector<ViewHistoryEntry> version_log;
  std::map<std::string, std::string, std::less<>> properties;

  // Lookups; nullptr when absent (never CurrentVersion/CurrentSchema of valid metadata).
  const ViewVersion* VersionById(int version_id) const;
  const ViewVersion* CurrentVersion() const;
  const schema::Schema* SchemaById(int schema_id) const;
  const schema::Schema* CurrentSchema() const;  // the current version's schema
  std::optional<std::string_view> Property(std::string_view key) const;
};

// Deep equality (schemas field by field, with their ids).
bool operator==(const ViewMetadata& a, const ViewMetadata& b);

// Parses a view metadata.json text. Errors are kInvalidArgument naming the missing or invalid
// key with its path ("versions[1]: missing required key 'schema-id'"); kUnsupported for a
// format version other than 1.
Result<ViewMetadata> ParseViewMetadata(std::string_view json);
std::string SerializeViewMetadata(const ViewMetadata& metadata);

// The JSON level, shared with the REST wire forms (LoadViewResult, CreateViewRequest,
// add-view-version).
Result<ViewMetadata> ViewMetadataFromJson(const nlohmann::json& j);
nlohmann::json ViewMetadataToJson(const ViewMetadata& metadata);
Result<ViewVersion> ViewVersionFromJson(const nlohmann::json& j);
nlohmann::json ViewVersionToJson(const ViewVersion& version);

// Unique schema and version ids, the current version exists, every version's schema exists
// (kInvalidArgument naming the broken reference).
Status ValidateViewMetadata(const ViewMetadata& metadata);

}  // namespace floe::iceberg
