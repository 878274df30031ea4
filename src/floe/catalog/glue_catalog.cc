#include "floe/catalog/glue_catalog.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <regex>
#include <set>

#include "floe/catalog/glue_columns.h"
#include "floe/catalog/glue_json_internal.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::catalog {
namespace {

using nlohmann::json;
using glue_internal::Member;
using glue_internal::Reworded;
using glue_internal::StringField;

// What Iceberg's GlueTableOperations writes and reads (BaseMetastoreTableOperations' names).
constexpr const char* kTableType = "table_type";
constexpr const char* kIceberg = "ICEBERG";
constexpr const char* kMetadataLocation = "metadata_location";
constexpr const char* kPreviousMetadataLocation = "previous_metadata_location";

// What Iceberg's GlueCatalog sets from the metadata (setTableInputInformation): the storage
// descriptor's location and columns, and the description from the "comment" property. Other
// storage descriptor fields someone else set (SerDe, formats) are kept.
void DescribeFromMetadata(json& input, const iceberg::TableMetadata& metadata) {
  json descriptor = Member(input, "StorageDescriptor", json::object());
  if (!descriptor.is_object()) descriptor = json::object();
  descriptor["Columns"] = GlueColumns(metadata, Member(descriptor, "Columns", json()));
  descriptor["Location"] = metadata.location;
  input["StorageDescriptor"] = std::move(descriptor);
  if (auto comment = metadata.Property("comment")) input["Description"] = std::string(*comment);
}

// Pages of a Glue listing: calls `page(token)` from the first page ("") until Glue answers
// without a NextToken. A token Glue already gave is an error, not an endless loop.
template <typename Page>
Status ForEachPage(const std::string& what, Page&& page) {
  std::set<std::string> seen;
  std::string token;
  do {
    FLOE_ASSIGN_OR_RETURN(token, page(token));
    if (!token.empty() && !seen.insert(token).second) {
      return Status::IoError(what + ": Glue returned the NextToken '" + token + "' twice");
    }
  } while (!token.empty());
  return Status::OK();
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
    FLOE_RETURN_IF_ERROR(ForEachPage("Glue GetDatabases", [&](const std::string& token) -> Result<std::string> {
      json request = json::object();
      if (!token.empty()) request["NextToken"] = token;
      FLOE_ASSIGN_OR_RETURN(auto answer, client_.Call("GetDatabases", request, "Glue GetDatabases"));
      for (const auto& db : Member(answer, "DatabaseList", json::array())) out.push_back({StringField(db, "Name")});
      return StringField(answer, "NextToken");
    }));
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
    return Create(id, metadata_location, nullptr);
  }

  Status CreateTableWithMetadata(const TableIdentifier& id, const std::string& metadata_location,
                                 const iceberg::TableMetadata& metadata) override {
    return Create(id, metadata_location, &metadata);
  }

  Result<TableRecord> LoadTable(const TableIdentifier& id) override {
    FLOE_ASSIGN_OR_RETURN(auto table, GetIcebergTable(id));
    const json& params = table["Parameters"];
    return TableRecord{id, StringField(params, kMetadataLocation), StringField(params, kPreviousMetadataLocation)};
  }

  Status SwapMetadataLocation(const TableIdentifier& id, const std::string& expected, const std::string& next) override {
    return Swap({id, expected, next});
  }

  // Glue has no transaction over several tables: the swaps run one after the other, and a
  // failure leaves the earlier ones in place (each is still a correct compare-and-swap).
  Status SwapMetadataLocations(const std::vector<SwapRequest>& swaps) override {
    for (const auto& s : swaps) FLOE_RETURN_IF_ERROR(Swap(s));
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

  Status Create(const TableIdentifier& id, const std::string& metadata_location, const iceberg::TableMetadata* metadata) {
    FLOE_RETURN_IF_ERROR(ValidateGlueTableIdentifier(id));
    FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(metadata_location));
    json input = {{"Name", id.name},
                  {"TableType", "EXTERNAL_TABLE"},
                  {"Parameters", {{kTableType, kIceberg}, {kMetadataLocation, metadata_location}}}};
    if (metadata) {
      DescribeFromMetadata(input, *metadata);
    } else if (auto location = TableLocationOfMetadata(metadata_location); !location.empty()) {
      input["StorageDescriptor"] = {{"Location", location}};
    }
    auto answer = client_.Call("CreateTable", {{"DatabaseName", id.ns[0]}, {"TableInput", input}},
                               "Glue CreateTable " + Name(id));
    if (!answer.ok() && answer.status().code() == StatusCode::kNotFound) {
      return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + id.ns[0]);
    }
    return Reworded(answer.status(), StatusCode::kAlreadyExists, "Table already exists: " + Name(id));
  }

  Status Swap(const SwapRequest& swap) {
    const TableIdentifier& id = swap.id;
    const std::string& expected = swap.expected;
    const std::string& next = swap.next;
    FLOE_RETURN_IF_ERROR(ValidateMetadataLocation(next));
    FLOE_ASSIGN_OR_RETURN(auto table, GetIcebergTable(id));
    const std::string current = StringField(table["Parameters"], kMetadataLocation);
    if (current != expected) {
      return Status::Conflict("Commit failed: " + Name(id) + "'s metadata location is " + current +
                              ", not the expected " + expected + " (another writer committed)");
    }
    json input = glue_internal::TableInputOf(table);
    input["Parameters"][kMetadataLocation] = next;
    input["Parameters"][kPreviousMetadataLocation] = expected;
    if (swap.metadata) DescribeFromMetadata(input, *swap.metadata);
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
    FLOE_RETURN_IF_ERROR(ForEachPage("Glue GetTables " + ns[0], [&](const std::string& token) -> Result<std::string> {
      json request = {{"DatabaseName", ns[0]}};
      if (!token.empty()) request["NextToken"] = token;
      auto answer = client_.Call("GetTables", request, "Glue GetTables " + ns[0]);
      if (!answer.ok()) return Reworded(answer.status(), StatusCode::kNotFound, "Namespace does not exist: " + ns[0]);
      for (const auto& t : Member(*answer, "TableList", json::array())) {
        if (!iceberg_only || IsIcebergTable(t)) out.push_back({ns, StringField(t, "Name")});
      }
      return StringField(*answer, "NextToken");
    }));
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
  FLOE_ASSIGN_OR_RETURN(auto client, OpenGlueClient(config));
  spdlog::info("Glue catalog: region {}, endpoint {}, catalog id {}", client.region(),
               config.endpoint.empty() ? "AWS" : config.endpoint,
               config.catalog_id.empty() ? "the caller's account" : config.catalog_id);
  return MakeGlueCatalog(std::move(client));
}

}  // namespace floe::catalog
