#include "floe/catalog/unity_delta_registry.h"

#include <spdlog/spdlog.h>

#include "floe/catalog/unity_columns.h"
#include "floe/core/ascii.h"

namespace floe::catalog {
namespace {

std::string WithoutTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// A location as Unity keeps it: the open-source server normalizes storage_location (trailing
// slashes dropped, runs of '/' in the path collapsed: file:///a//b/ -> file:///a/b).
std::string ComparableLocation(const std::string& location) {
  const std::size_t scheme_end = location.find("://");
  const std::size_t path_start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  std::string out = location.substr(0, path_start);
  for (std::size_t i = path_start; i < location.size(); ++i) {
    if (location[i] == '/' && i > path_start && location[i - 1] == '/') continue;
    out += location[i];
  }
  return WithoutTrailingSlash(out);
}

// The parts of a column that a reader sees; Unity may add its own fields to what it returns.
// type_text is compared without case: the open-source server lower-cases it on create
// (struct<customerId:bigint> comes back as struct<customerid:bigint>), and Spark's field names
// are case-insensitive anyway.
bool SameUnityColumns(const nlohmann::json& registered, const nlohmann::json& wanted) {
  if (!registered.is_array() || registered.size() != wanted.size()) return false;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    for (const char* key : {"name", "type_name", "nullable"}) {
      if (registered[i].value(key, nlohmann::json()) != wanted[i][key]) return false;
    }
    const nlohmann::json text = registered[i].value("type_text", nlohmann::json());
    if (!text.is_string() || AsciiLower(text.get<std::string>()) != AsciiLower(wanted[i]["type_text"].get<std::string>())) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string UnityStorageLocation(const std::string& location, const std::string& azure_account) {
  if (!location.empty() && location.front() == '/') return "file://" + location;
  // Unity takes file, s3, gs, abfs and abfss locations only (the open-source server refuses
  // others with "Unsupported URI scheme"): Hadoop's s3a:// is s3://, Arrow's az://container/path
  // is the ADLS Gen2 URI of the configured account.
  if (location.rfind("s3a://", 0) == 0) return "s3://" + location.substr(6);
  if (location.rfind("az://", 0) == 0 && !azure_account.empty()) {
    const std::string rest = location.substr(5);
    const std::size_t slash = rest.find('/');
    const std::string container = rest.substr(0, slash);
    const std::string path = slash == std::string::npos ? "" : rest.substr(slash);
    return "abfss://" + container + "@" + azure_account + ".dfs.core.windows.net" + path;
  }
  return location;
}

UnityDeltaRegistry::UnityDeltaRegistry(std::unique_ptr<UnityClient> client, std::string unity_catalog,
                                       std::string azure_account)
    : client_(std::move(client)), catalog_(std::move(unity_catalog)), azure_account_(std::move(azure_account)) {}

Status UnityDeltaRegistry::EnsureSchema(const std::string& schema) {
  std::lock_guard lock(mu_);
  if (schemas_ready_.count(schema) != 0) return Status::OK();
  if (schemas_ready_.empty()) FLOE_RETURN_IF_ERROR(client_->EnsureCatalog(catalog_));
  FLOE_RETURN_IF_ERROR(client_->EnsureSchema(catalog_, schema));
  schemas_ready_.insert(schema);
  return Status::OK();
}

Status UnityDeltaRegistry::RegisterDeltaTable(const TableIdentifier& id, const std::string& location,
                                              const std::string& schema_string) {
  if (id.ns.size() != 1) {
    return Status::InvalidArgument("Unity Catalog names a table catalog.schema.table: '" +
                                   TableIdentifierToString(id) + "' needs exactly one namespace level");
  }
  const std::string full_name = catalog_ + "." + id.ns[0] + "." + id.name;
  auto columns = UnityColumns(schema_string);
  if (!columns.ok()) return columns.status().WithContext("registering " + full_name + " in Unity Catalog");
  const std::string storage_location = UnityStorageLocation(location, azure_account_);
  FLOE_RETURN_IF_ERROR(EnsureSchema(id.ns[0]));

  const nlohmann::json create = {{"name", id.name},
                                 {"catalog_name", catalog_},
                                 {"schema_name", id.ns[0]},
                                 {"table_type", "EXTERNAL"},
                                 {"data_source_format", "DELTA"},
                                 {"columns", *columns},
                                 {"storage_location", storage_location},
                                 {"comment", "Kafka topic materialized by Floe"},
                                 {"properties", {{"floe.managed", "true"}}}};
  // Two attempts: a peer worker may register the table between our read and our create.
  for (int attempt = 1;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto existing, client_->GetTable(full_name));
    if (!existing) {
      Status created = client_->CreateTable(create);
      if (created.code() == StatusCode::kAlreadyExists && attempt == 1) continue;
      if (created.ok()) spdlog::info("Unity Catalog: registered {} (Delta, {})", full_name, storage_location);
      return created;
    }
    const std::string registered_at = WithoutTrailingSlash(existing->value("storage_location", ""));
    if (ComparableLocation(registered_at) != ComparableLocation(storage_location) ||
        existing->value("data_source_format", "") != "DELTA") {
      return Status::AlreadyExists("Unity Catalog already has a table " + full_name + " (" +
                                   existing->value("data_source_format", "?") + " at '" + registered_at +
                                   "'), not Floe's Delta table at '" + storage_location +
                                   "': drop it or choose another table name");
    }
    if (SameUnityColumns(existing->value("columns", nlohmann::json::array()), *columns)) return Status::OK();
    // The schema evolved: re-register (external table: the files and the Delta log stay).
    // Dropping the table drops its grants too, so they are read first and granted again.
    auto grants = client_->GetTableGrants(full_name);
    if (!grants.ok()) {
      spdlog::warn("Unity Catalog: cannot read the grants on {} ({}); re-registering it for its new columns "
                   "loses them: grant them again",
                   full_name, grants.status().message());
    }
    Status dropped = client_->DeleteTable(full_name);
    if (!dropped.ok() && dropped.code() != StatusCode::kNotFound) return dropped;
    Status created = client_->CreateTable(create);
    if (created.code() == StatusCode::kAlreadyExists && attempt == 1) continue;
    if (!created.ok()) return created;
    spdlog::info("Unity Catalog: {} now has the table's new columns", full_name);
    if (grants.ok() && !grants->empty()) {
      Status granted = client_->AddTableGrants(full_name, *grants);
      if (!granted.ok()) {
        spdlog::warn("Unity Catalog: {} was re-registered but its grants could not be restored ({}): {}", full_name,
                     granted.message(), grants->dump());
      }
    }
    return Status::OK();
  }
}

}  // namespace floe::catalog
