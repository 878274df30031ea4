#include "floe/catalog/glue_catalog.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <regex>

#include "floe/storage/aws_credentials.h"

namespace floe::catalog {
namespace {

using nlohmann::json;

// What Iceberg's GlueTableOperations writes and reads (BaseMetastoreTableOperations' names).
constexpr const char* kTableType = "table_type";
constexpr const char* kIceberg = "ICEBERG";
constexpr const char* kMetadataLocation = "metadata_location";
constexpr const char* kPreviousMetadataLocation = "previous_metadata_location";

// The fields of a GetTable answer that UpdateTable's TableInput takes back. UpdateTable replaces
// the whole definition, so everything others set (Athena's parameters, columns, partition keys)
// is carried over; the rest (CreateTime, VersionId, DatabaseName, …) is not input and Glue
// refuses it.
constexpr const char* kTableInputFields[] = {"Name",          "Description",   "Owner",     "Retention",
                                             "StorageDescriptor", "PartitionKeys", "TableType", "Parameters",
                                             "TargetTable",   "ViewOriginalText", "ViewExpandedText"};

// Keeps the code, puts Iceberg's own wording first and Glue's detail after it.
Status Reworded(const Status& st, StatusCode code, const std::string& text) {
  if (st.code() != code) return st;
  return Status(code, text + " (" + st.message() + ")");
}

std::string StringField(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

// A copy of object[key], or `fallback` when it is missing: nlohmann's value() with a temporary
// default can hand back a reference to that temporary.
json Member(const json& object, const char* key, json fallback) {
  if (object.is_object() && object.contains(key)) return object[key];
  return fallback;
}

bool IsIcebergTable(const json& table) {
  if (!table.contains("Parameters") || !table["Parameters"].is_object()) return false;
  std::string type = StringField(table["Parameters"], kTableType);
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::toupper(c); });
  return type == kIceberg;
}

class GlueCatalog final : public Catalog {
 public:
  explicit GlueCatalog(GlueClient client) : client_(std::move(client)) {}

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override {
    FLOE_RETURN_IF_ERROR(ValidateGlueNamespace(ns));
    json input = {{"Name", ns[0]}, {"Parameters", json::object()}};
    for (const auto& [key, value] : properties) {
      if (key == "location") input["LocationUri"] = value;
      else if (key == "comment") input["Description"] = value;
      else input["Parameters"][key] = value;
    }
    auto answer = client_.Call("CreateDatabase", {{"DatabaseInput", input}}, "Glue CreateDatabase " + ns[0]);
    return Reworded(answer.status(), StatusCode::kAlreadyExists, "Namespace already exists: " + ns[0]);
  }

  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override {
    std::vector<Namespace> out;
    if (!parent.empty()) {  // Glue databases have no children; the parent must still exist
      FLOE_RETURN_IF_ERROR(GetDatabase(parent).status());
      return out;
    }
    std::string token;
    do {
      json request = json::object();
      if (!token.empty()) request["NextToken"] = token;
      FLOE_ASSIGN_OR_RETURN(auto answer, client_.Call("GetDatabases", request, "Glue GetDatabases"));
      for (const auto& db : Member(answer, "DatabaseList", json::array())) out.push_back({StringField(db, "Name")});
      token = StringField(answer, "NextToken");
    } while (!token.empty());
    std::sort(out.begin(), out.end());
    return out;
  }

  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override {
    FLOE_ASSIGN_OR_RETURN(auto db, GetDatabase(ns));
    Properties out;
    const json parameters = Member(db, "Parameters", json::object());
    for (const auto& [key, value] : parameters.items()) {
      if (value.is_string()) out[key] = value.get<std::string>();
    }
    if (auto v = StringField(db, "LocationUri"); !v.empty()) out["location"] = v;
    if (auto v = StringField(db, "Description"); !v.empty()) out["comment"] = v;
    return out;
  }

  // Read, change, write back: Glue's UpdateDatabase has no version check, so a concurrent
  // update of the same database's properties by someone else can be lost (as with Iceberg's
  // GlueCatalog).
  Status UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                   const Properties& updates) override {
    for (const auto& key : removals) {
      if (updates.count(key)) return Status::InvalidArgument("property '" + key + "' is both removed and set");
    }
    FLOE_ASSIGN_OR_RETURN(auto properties, LoadNamespaceProperties(ns));
    for (const auto& key : removals) properties.erase(key);
    for (const auto& [key, value] : updates) properties[key] = value;
    json input = {{"Name", ns[0]}, {"Parameters", json::object()}};
    for (const auto& [key, value] : properties) {
      if (key == "location") input["LocationUri"] = value;
      else if (key == "comment") input["Description"] = value;
      else input["Parameters"][key] = value;
    }
    auto answer = client_.Call("UpdateDatabase", {{"Name", ns[0]}, {"DatabaseInput", input}},
                               "Glue UpdateDatabase " + ns[0]);
    return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + ns[0]);
  }

  Status DropNamespace(const Namespace& ns) override {
    FLOE_ASSIGN_OR_RETURN(auto tables, GetTables(ns, /*iceberg_only=*/false));
    if (!tables.empty()) {
      return Status::Conflict("Namespace is not empty: " + ns[0] + " has " + std::to_string(tables.size()) +
                              " table(s) in Glue");
    }
    auto answer = client_.Call("DeleteDatabase", {{"Name", ns[0]}}, "Glue DeleteDatabase " + ns[0]);
    return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + ns[0]);
  }

  // Iceberg tables only, as Iceberg's GlueCatalog lists them (Glue databases also hold Hive
  // and Delta tables).
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override {
    return GetTables(ns, /*iceberg_only=*/true);
  }

  Status CreateTable(const TableIdentifier& id, const std::string& metadata_location) override {
    FLOE_RETURN_IF_ERROR(ValidateGlueTableIdentifier(id));
    FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(metadata_location));
    json input = {{"Name", id.name},
                  {"TableType", "EXTERNAL_TABLE"},
                  {"Parameters", {{kTableType, kIceberg}, {kMetadataLocation, metadata_location}}}};
    if (auto location = TableLocationOfMetadata(metadata_location); !location.empty()) {
      input["StorageDescriptor"] = {{"Location", location}};
    }
    auto answer = client_.Call("CreateTable", {{"DatabaseName", id.ns[0]}, {"TableInput", input}},
                               "Glue CreateTable " + Name(id));
    if (!answer.ok() && answer.status().code() == StatusCode::kNotFound) {
      return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + id.ns[0]);
    }
    return Reworded(answer.status(), StatusCode::kAlreadyExists, "Table already exists: " + Name(id));
  }

  Result<TableRecord> LoadTable(const TableIdentifier& id) override {
    FLOE_ASSIGN_OR_RETURN(auto table, GetIcebergTable(id));
    const json& params = table["Parameters"];
    return TableRecord{id, StringField(params, kMetadataLocation), StringField(params, kPreviousMetadataLocation)};
  }

  Status SwapMetadataLocation(const TableIdentifier& id, const std::string& expected, const std::string& next) override {
    FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(next));
    FLOE_ASSIGN_OR_RETURN(auto table, GetIcebergTable(id));
    const std::string current = StringField(table["Parameters"], kMetadataLocation);
    if (current != expected) {
      return Status::Conflict("Commit failed: " + Name(id) + "'s metadata location is " + current +
                              ", not the expected " + expected + " (another writer committed)");
    }
    json input = json::object();
    for (const char* field : kTableInputFields) {
      if (table.contains(field)) input[field] = table[field];
    }
    input["Parameters"][kMetadataLocation] = next;
    input["Parameters"][kPreviousMetadataLocation] = expected;
    json request = {{"DatabaseName", id.ns[0]}, {"TableInput", input}};
    // Glue's optimistic lock: refused with ConcurrentModificationException (kConflict) if the
    // table changed since the GetTable above, so the location check and the write are one step.
    if (auto version = StringField(table, "VersionId"); !version.empty()) request["VersionId"] = version;
    auto answer = client_.Call("UpdateTable", request, "Glue UpdateTable " + Name(id));
    if (!answer.ok() && answer.status().code() == StatusCode::kConflict) {
      return Status::Conflict("Commit failed: " + Name(id) + " was changed by another writer since it was read (" +
                              answer.status().message() + ")");
    }
    return Reworded(answer.status(), StatusCode::kNotFound, "Table does not exist: " + Name(id));
  }

  // Glue has no transaction over several tables: the swaps run one after the other, and a
  // failure leaves the earlier ones in place (each is still a correct compare-and-swap).
  Status SwapMetadataLocations(const std::vector<SwapRequest>& swaps) override {
    for (const auto& s : swaps) FLOE_RETURN_IF_ERROR(SwapMetadataLocation(s.id, s.expected, s.next));
    return Status::OK();
  }

  Status DropTable(const TableIdentifier& id) override {
    FLOE_RETURN_IF_ERROR(ValidateGlueTableIdentifier(id));
    auto answer = client_.Call("DeleteTable", {{"DatabaseName", id.ns[0]}, {"Name", id.name}},
                               "Glue DeleteTable " + Name(id));
    return Reworded(answer.status(), StatusCode::kNotFound, "Table does not exist: " + Name(id));
  }

  Status RenameTable(const TableIdentifier& from, const TableIdentifier&) override {
    return Status::Unsupported("renaming " + Name(from) + ": Glue has no rename and Floe does not emulate it yet");
  }

 private:
  static std::string Name(const TableIdentifier& id) { return TableIdentifierToString(id); }

  Result<json> GetDatabase(const Namespace& ns) {
    FLOE_RETURN_IF_ERROR(ValidateGlueNamespace(ns));
    auto answer = client_.Call("GetDatabase", {{"Name", ns[0]}}, "Glue GetDatabase " + ns[0]);
    if (!answer.ok()) return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + ns[0]);
    return Member(*answer, "Database", json::object());
  }

  Result<json> GetIcebergTable(const TableIdentifier& id) {
    FLOE_RETURN_IF_ERROR(ValidateGlueTableIdentifier(id));
    auto answer = client_.Call("GetTable", {{"DatabaseName", id.ns[0]}, {"Name", id.name}}, "Glue GetTable " + Name(id));
    if (!answer.ok()) return Reworded(answer.status(), StatusCode::kNotFound, "Table does not exist: " + Name(id));
    json table = Member(*answer, "Table", json::object());
    if (!IsIcebergTable(table)) {
      return Status::InvalidArgument("Glue table " + Name(id) + " is not an Iceberg table (Parameters.table_type is '" +
                                     StringField(Member(table, "Parameters", json::object()), kTableType) + "')");
    }
    return table;
  }

  Result<std::vector<TableIdentifier>> GetTables(const Namespace& ns, bool iceberg_only) {
    FLOE_RETURN_IF_ERROR(ValidateGlueNamespace(ns));
    std::vector<TableIdentifier> out;
    std::string token;
    do {
      json request = {{"DatabaseName", ns[0]}};
      if (!token.empty()) request["NextToken"] = token;
      auto answer = client_.Call("GetTables", request, "Glue GetTables " + ns[0]);
      if (!answer.ok()) return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + ns[0]);
      for (const auto& t : Member(*answer, "TableList", json::array())) {
        if (!iceberg_only || IsIcebergTable(t)) out.push_back({ns, StringField(t, "Name")});
      }
      token = StringField(*answer, "NextToken");
    } while (!token.empty());
    std::sort(out.begin(), out.end());
    return out;
  }

  GlueClient client_;
};

}  // namespace

Status ValidateGlueNamespace(const Namespace& ns) {
  static const std::regex kDatabase("[a-z0-9_]{1,252}");
  if (ns.size() != 1) {
    return Status::InvalidArgument("Glue namespace '" + NamespaceToString(ns) +
                                   "': Glue databases have exactly one level");
  }
  if (!std::regex_match(ns[0], kDatabase)) {
    return Status::InvalidArgument("Glue database name '" + ns[0] +
                                   "': use 1 to 252 lower-case letters, digits and underscores");
  }
  return Status::OK();
}

Status ValidateGlueTableIdentifier(const TableIdentifier& id) {
  static const std::regex kTable("[a-z0-9_]{1,255}");
  FLOE_RETURN_IF_ERROR(ValidateGlueNamespace(id.ns));
  if (!std::regex_match(id.name, kTable)) {
    return Status::InvalidArgument("Glue table name '" + id.name +
                                   "': use 1 to 255 lower-case letters, digits and underscores");
  }
  return Status::OK();
}

std::string TableLocationOfMetadata(const std::string& metadata_location) {
  const auto slash = metadata_location.rfind('/');
  if (slash == std::string::npos) return "";
  const std::string dir = metadata_location.substr(0, slash);
  constexpr std::string_view kMetadataDir = "/metadata";
  if (dir.size() <= kMetadataDir.size() || dir.compare(dir.size() - kMetadataDir.size(), kMetadataDir.size(), kMetadataDir) != 0) {
    return "";
  }
  return dir.substr(0, dir.size() - kMetadataDir.size());
}

std::unique_ptr<Catalog> MakeGlueCatalog(GlueClient client) { return std::make_unique<GlueCatalog>(std::move(client)); }

Result<std::unique_ptr<Catalog>> OpenGlueCatalog(const GlueCatalogConfig& config) {
  S3StorageConfig chain;  // the credential fields are storage.s3's
  chain.region = config.region;
  chain.credentials = config.credentials;
  chain.access_key_id = config.access_key_id;
  chain.secret_access_key = config.secret_access_key;
  chain.session_token = config.session_token;
  chain.role_arn = config.role_arn;
  chain.external_id = config.external_id;
  auto source = storage::AwsCredentialSource::Make(chain);
  if (!source.ok()) return source.status().WithContext("catalog (type glue)");
  std::shared_ptr<storage::AwsCredentialSource> credentials = *source;
  if (credentials->region().empty()) {
    return Status::InvalidArgument("catalog.region: no region configured and none found in the AWS chain (AWS_REGION)");
  }
  spdlog::info("Glue catalog: region {}, endpoint {}, catalog id {}", credentials->region(),
               config.endpoint.empty() ? "AWS" : config.endpoint,
               config.catalog_id.empty() ? "the caller's account" : config.catalog_id);
  GlueClient client(config.endpoint, credentials->region(), config.catalog_id,
                    [credentials] { return credentials->Current(); });
  return MakeGlueCatalog(std::move(client));
}

}  // namespace floe::catalog
