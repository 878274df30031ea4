#pragma once
// A Glue Data Catalog in memory behind GlueClient's transport, for unit tests of what Floe's
// Glue code does over several requests: databases and tables with Glue's answers for the
// actions Floe sends (GetDatabase, CreateDatabase, GetTable, GetTables, CreateTable,
// UpdateTable with its VersionId check). The integration tests run against moto's Glue.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/catalog/glue_client.h"

namespace floe::catalog::testing {

class MemoryGlue {
 public:
  GlueClient Client() {
    return GlueClient(
        "http://127.0.0.1:5000", "eu-west-1", "",
        [] { return Result<storage::AwsCredentials>(storage::AwsCredentials{"AKID", "SECRET", ""}); },
        [this](const storage::ObjectPut& put, const std::string& body, const std::string&) -> Result<storage::ObjectPutAnswer> {
          std::string action;
          for (const auto& h : put.headers) {
            if (h.rfind("X-Amz-Target: AWSGlue.", 0) == 0) action = h.substr(22);
          }
          const auto request = nlohmann::json::parse(body);
          sent.emplace_back(action, request);
          return Handle(action, request);
        },
        [](std::chrono::milliseconds) {});
  }

  // Actions in the order they were sent, with their bodies.
  std::vector<std::pair<std::string, nlohmann::json>> sent;
  std::map<std::string, nlohmann::json> databases;  // name -> Database
  std::map<std::string, nlohmann::json> tables;     // "<database>.<name>" -> Table

  std::vector<std::string> Actions() const {
    std::vector<std::string> out;
    for (const auto& [action, body] : sent) out.push_back(action);
    return out;
  }

 private:
  static storage::ObjectPutAnswer Ok(const nlohmann::json& body) { return {200, body.dump()}; }
  static storage::ObjectPutAnswer Error(const std::string& type) {
    return {400, nlohmann::json{{"__type", type}, {"Message", type}}.dump()};
  }

  storage::ObjectPutAnswer Handle(const std::string& action, const nlohmann::json& r) {
    if (action == "GetDatabase") {
      auto it = databases.find(r["Name"]);
      return it == databases.end() ? Error("EntityNotFoundException") : Ok({{"Database", it->second}});
    }
    if (action == "CreateDatabase") {
      const std::string name = r["DatabaseInput"]["Name"];
      if (databases.count(name)) return Error("AlreadyExistsException");
      databases[name] = r["DatabaseInput"];
      return Ok(nlohmann::json::object());
    }
    const std::string database = r.value("DatabaseName", "");
    if (action == "GetTables") {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& [key, table] : tables) {
        if (table["DatabaseName"] == database) list.push_back(table);
      }
      return Ok({{"TableList", list}});
    }
    const std::string key =
        database + "." + (r.contains("TableInput") ? r["TableInput"]["Name"].get<std::string>() : r.value("Name", ""));
    if (action == "GetTable") {
      auto it = tables.find(key);
      return it == tables.end() ? Error("EntityNotFoundException") : Ok({{"Table", it->second}});
    }
    if (action == "CreateTable" || action == "UpdateTable") {
      if (!databases.count(database)) return Error("EntityNotFoundException");
      auto it = tables.find(key);
      if (action == "CreateTable" && it != tables.end()) return Error("AlreadyExistsException");
      if (action == "UpdateTable" && it == tables.end()) return Error("EntityNotFoundException");
      int version = 1;
      if (it != tables.end()) {
        if (r.contains("VersionId") && r["VersionId"] != it->second["VersionId"]) {
          return Error("ConcurrentModificationException");
        }
        version = std::stoi(it->second["VersionId"].get<std::string>()) + 1;
      }
      nlohmann::json table = r["TableInput"];
      table["DatabaseName"] = database;
      table["VersionId"] = std::to_string(version);
      tables[key] = table;
      return Ok(nlohmann::json::object());
    }
    return Error("InvalidInputException");
  }
};

}  // namespace floe::catalog::testing
