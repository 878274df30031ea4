#include "floe/catalog/glue_delta_registry.h"

#include <spdlog/spdlog.h>

#include "floe/catalog/glue_catalog.h"
#include "floe/catalog/glue_columns.h"
#include "floe/catalog/glue_json_internal.h"
#include "floe/core/ascii.h"

namespace floe::catalog {
namespace {

using glue_internal::Member;
using glue_internal::StringField;
using glue_internal::WithoutTrailingSlash;
using nlohmann::json;

// What marks a Glue table as a Delta table, for Athena, Spark and crawlers (see the header).
const json& DeltaParameters() {
  static const json kParameters = {{"table_type", "DELTA"},
                                   {"spark.sql.sources.provider", "delta"},
                                   {"classification", "delta"},
                                   {"EXTERNAL", "TRUE"}};
  return kParameters;
}

bool IsDeltaTable(const json& table) {
  const json parameters = Member(table, "Parameters", json::object());
  return AsciiLower(StringField(parameters, "table_type")) == "delta" ||
         AsciiLower(StringField(parameters, "spark.sql.sources.provider")) == "delta";
}

// The parts of a column a reader sees; Glue may return others (Parameters).
bool SameGlueColumns(const json& registered, const json& wanted) {
  if (!registered.is_array() || registered.size() != wanted.size()) return false;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    for (const char* key : {"Name", "Type", "Comment"}) {
      if (StringField(registered[i], key) != StringField(wanted[i], key)) return false;
    }
  }
  return true;
}

json DeltaTableInput(const std::string& name, const std::string& location, const json& columns) {
  return {{"Name", name},
          {"Description", "Kafka topic materialized by Floe (Delta Lake)"},
          {"TableType", "EXTERNAL_TABLE"},
          {"Parameters", DeltaParameters()},
          {"StorageDescriptor",
           {{"Location", location}, {"Columns", columns}, {"SerdeInfo", {{"Parameters", {{"path", location}}}}}}}};
}

}  // namespace

GlueDeltaRegistry::GlueDeltaRegistry(GlueClient client) : client_(std::move(client)) {}

Status GlueDeltaRegistry::RegisterDeltaTable(const TableIdentifier& id, const std::string& location,
                                             const std::string& schema_string) {
  FLOE_RETURN_IF_ERROR(ValidateGlueTableIdentifier(id));
  auto columns = GlueDeltaColumns(schema_string);
  if (!columns.ok()) return columns.status().WithContext("registering " + TableIdentifierToString(id) + " in Glue");
  // Two attempts: a peer worker may create or update the table between our read and our write.
  Status registered = RegisterOnce(id, location, *columns);
  if (registered.code() == StatusCode::kConflict) registered = RegisterOnce(id, location, *columns);
  return registered;
}

Status GlueDeltaRegistry::RegisterOnce(const TableIdentifier& id, const std::string& location, const json& columns) {
  const std::string name = TableIdentifierToString(id);
  const std::string& database = id.ns[0];
  auto got = client_.Call("GetTable", {{"DatabaseName", database}, {"Name", id.name}}, "Glue GetTable " + name);
  if (!got.ok() && got.status().code() != StatusCode::kNotFound) return got.status();
  if (!got.ok()) {
    const json create = {{"DatabaseName", database}, {"TableInput", DeltaTableInput(id.name, location, columns)}};
    auto created = client_.Call("CreateTable", create, "Glue CreateTable " + name);
    if (!created.ok() && created.status().code() == StatusCode::kNotFound) {  // no database yet
      FLOE_RETURN_IF_ERROR(CreateDatabase(database));
      created = client_.Call("CreateTable", create, "Glue CreateTable " + name);
    }
    if (created.ok()) {
      spdlog::info("Glue: registered Delta table {} at {}", name, location);
      return Status::OK();
    }
    if (created.status().code() == StatusCode::kAlreadyExists) {
      return Status::Conflict("Glue table " + name + " was created by another writer: " + created.status().message());
    }
    return created.status();
  }

  const json table = Member(*got, "Table", json::object());
  const json descriptor = Member(table, "StorageDescriptor", json::object());
  const std::string registered_at = WithoutTrailingSlash(StringField(descriptor, "Location"));
  if (!IsDeltaTable(table) || registered_at != WithoutTrailingSlash(location)) {
    std::string kind = StringField(Member(table, "Parameters", json::object()), "table_type");
    if (kind.empty()) kind = StringField(table, "TableType");
    return Status::AlreadyExists("Glue already has a table " + name + " (" + (kind.empty() ? "?" : kind) + " at '" +
                                 registered_at + "'), not Floe's Delta table at '" + location +
                                 "': drop it or choose another table name");
  }
  if (SameGlueColumns(Member(descriptor, "Columns", json::array()), columns)) return Status::OK();

  // The schema evolved: new columns, everything else as it is (others' parameters included).
  json input = glue_internal::TableInputOf(table);
  input["StorageDescriptor"]["Columns"] = columns;
  for (const auto& [key, value] : DeltaParameters().items()) input["Parameters"][key] = value;
  json request = {{"DatabaseName", database}, {"TableInput", input}};
  if (auto version = StringField(table, "VersionId"); !version.empty()) request["VersionId"] = version;
  auto updated = client_.Call("UpdateTable", request, "Glue UpdateTable " + name);
  if (updated.ok()) spdlog::info("Glue: Delta table {} now has the log's {} columns", name, columns.size());
  return updated.status();
}

Status GlueDeltaRegistry::CreateDatabase(const std::string& database) {
  auto created = client_.Call("CreateDatabase", {{"DatabaseInput", {{"Name", database}}}}, "Glue CreateDatabase " + database);
  if (created.ok() || created.status().code() == StatusCode::kAlreadyExists) return Status::OK();
  return created.status();
}

}  // namespace floe::catalog
