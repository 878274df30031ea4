// UnityDeltaRegistry against answers shaped as the open-source Unity Catalog server (v0.7.0-SNAPSHOT,
// built from source) gives them: DELETE /tables/{name} answers 200 with the text "200 OK"
// (text/plain), type_text comes back lower-cased, storage_location comes back normalized.
#include "floe/catalog/unity_delta_registry.h"

#include <cctype>
#include <deque>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "floe/catalog/unity_columns.h"

namespace floe::catalog {
namespace {

using rest::HttpRequest;
using rest::HttpResponse;

struct Step {
  std::string method;
  std::string path;  // after /api/2.1/unity-catalog
  HttpResponse response;
};

class ScriptedUnity final : public rest::HttpTransport {
 public:
  ScriptedUnity(std::deque<Step>* steps, std::vector<HttpRequest>* sent) : steps_(steps), sent_(sent) {}

  HttpResponse Send(const HttpRequest& request) override {
    std::lock_guard lock(mu_);
    sent_->push_back(request);
    if (steps_->empty()) return {500, "unexpected request " + request.method + " " + request.url, "", false};
    Step step = steps_->front();
    steps_->pop_front();
    const std::string url = "http://uc:8080/api/2.1/unity-catalog" + step.path;
    if (step.method != request.method || url != request.url) {
      ADD_FAILURE() << "expected " << step.method << " " << url << ", got " << request.method << " " << request.url;
    }
    return step.response;
  }

 private:
  std::mutex mu_;
  std::deque<Step>* steps_;
  std::vector<HttpRequest>* sent_;
};

const std::string kSchemaV1 = R"json({"type":"struct","fields":[
  {"name":"id","type":"long","nullable":true,"metadata":{}},
  {"name":"rec","type":{"type":"struct","fields":[{"name":"customerId","type":"long","nullable":true,"metadata":{}}]},
   "nullable":true,"metadata":{}}]})json";
const std::string kSchemaV2 = R"json({"type":"struct","fields":[
  {"name":"id","type":"long","nullable":true,"metadata":{}},
  {"name":"rec","type":{"type":"struct","fields":[{"name":"customerId","type":"long","nullable":true,"metadata":{}}]},
   "nullable":true,"metadata":{}},
  {"name":"region","type":"string","nullable":true,"metadata":{}}]})json";

// What the open-source server answers for a table Floe created with kSchemaV1 at `location`.
std::string LiveTableInfo(const std::string& location) {
  nlohmann::json columns = *UnityColumns(kSchemaV1);
  for (auto& c : columns) {
    std::string text = c["type_text"];
    for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    c["type_text"] = text;
    c["type_precision"] = nullptr;
    c["partition_index"] = nullptr;
  }
  return nlohmann::json{{"name", "items"}, {"catalog_name", "main"}, {"schema_name", "lake"},
                        {"table_type", "EXTERNAL"}, {"data_source_format", "DELTA"}, {"columns", columns},
                        {"storage_location", location}, {"properties", {{"floe.managed", "true"}}},
                        {"table_id", "9cda0dca-c9a3-4a20-a400-d70b8eecc46b"}}
      .dump();
}

const HttpResponse kOk{200, R"({"name":"x"})", "", false};

TEST(UnityDeltaRegistry, ReRegistersWhenTheOpenSourceServerAnswersDeleteWithPlainText) {
  std::deque<Step> steps = {
      {"GET", "/catalogs/main", kOk},
      {"GET", "/schemas/main.lake", kOk},
      {"GET", "/tables/main.lake.items", {200, LiveTableInfo("file:///wh/lake/items"), "", false}},
      {"GET", "/permissions/table/main.lake.items", {200, R"({"privilege_assignments":[]})", "", false}},
      {"DELETE", "/tables/main.lake.items", {200, "200 OK", "", false}},
      {"POST", "/tables", kOk},
  };
  std::vector<HttpRequest> sent;
  UnityDeltaRegistry registry(
      std::make_unique<UnityClient>("http://uc:8080", "", std::make_unique<ScriptedUnity>(&steps, &sent)), "main");
  Status status = registry.RegisterDeltaTable({{"lake"}, "items"}, "/wh/lake/items", kSchemaV2);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_TRUE(steps.empty());
  ASSERT_EQ(sent.size(), 6u);
  auto body = nlohmann::json::parse(sent.back().body);
  EXPECT_EQ(body["columns"].size(), 3u);
  EXPECT_EQ(body["storage_location"], "file:///wh/lake/items");
}

TEST(UnityDeltaRegistry, ReRegisteringCarriesTheTablesGrantsOver) {
  // Dropping a table drops its grants (seen on the open-source server): they are read before
  // and granted again after, principal by principal.
  const std::string grants = R"({"privilege_assignments":[
      {"principal":"reader@example.com","privileges":["SELECT"]},
      {"principal":"etl","privileges":["SELECT","MODIFY"]}]})";
  std::deque<Step> steps = {
      {"GET", "/catalogs/main", kOk},
      {"GET", "/schemas/main.lake", kOk},
      {"GET", "/tables/main.lake.items", {200, LiveTableInfo("file:///wh/lake/items"), "", false}},
      {"GET", "/permissions/table/main.lake.items", {200, grants, "", false}},
      {"DELETE", "/tables/main.lake.items", {200, "200 OK", "", false}},
      {"POST", "/tables", kOk},
      {"PATCH", "/permissions/table/main.lake.items", {200, grants, "", false}},
  };
  std::vector<HttpRequest> sent;
  UnityDeltaRegistry registry(
      std::make_unique<UnityClient>("http://uc:8080", "", std::make_unique<ScriptedUnity>(&steps, &sent)), "main");
  Status status = registry.RegisterDeltaTable({{"lake"}, "items"}, "/wh/lake/items", kSchemaV2);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_TRUE(steps.empty());
  ASSERT_EQ(sent.size(), 7u);
  EXPECT_EQ(nlohmann::json::parse(sent.back().body),
            nlohmann::json::parse(R"({"changes":[{"principal":"reader@example.com","add":["SELECT"],"remove":[]},
                                                  {"principal":"etl","add":["SELECT","MODIFY"],"remove":[]}]})"));
}

TEST(UnityDeltaRegistry, UnreadableGrantsDoNotStopTheNewColumns) {
  std::deque<Step> steps = {
      {"GET", "/catalogs/main", kOk},
      {"GET", "/schemas/main.lake", kOk},
      {"GET", "/tables/main.lake.items", {200, LiveTableInfo("file:///wh/lake/items"), "", false}},
      {"GET", "/permissions/table/main.lake.items",
       {403, R"({"error_code":"PERMISSION_DENIED","message":"no MANAGE"})", "", false}},
      {"DELETE", "/tables/main.lake.items", {200, "200 OK", "", false}},
      {"POST", "/tables", kOk},
  };
  std::vector<HttpRequest> sent;
  UnityDeltaRegistry registry(
      std::make_unique<UnityClient>("http://uc:8080", "", std::make_unique<ScriptedUnity>(&steps, &sent)), "main");
  Status status = registry.RegisterDeltaTable({{"lake"}, "items"}, "/wh/lake/items", kSchemaV2);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_TRUE(steps.empty());
}

TEST(UnityDeltaRegistry, LocationsInTheSchemesUnityTakes) {
  EXPECT_EQ(UnityStorageLocation("/wh/lake/items"), "file:///wh/lake/items");
  EXPECT_EQ(UnityStorageLocation("s3a://lake/wh/items"), "s3://lake/wh/items");
  EXPECT_EQ(UnityStorageLocation("az://lake/wh/items", "acme"), "abfss://lake@acme.dfs.core.windows.net/wh/items");
  EXPECT_EQ(UnityStorageLocation("abfss://lake@acme.dfs.core.windows.net/wh", "acme"),
            "abfss://lake@acme.dfs.core.windows.net/wh");
  EXPECT_EQ(UnityStorageLocation("gs://lake/wh"), "gs://lake/wh");
}

TEST(UnityDeltaRegistry, LowerCasedTypeTextAndNormalizedLocationAreTheSameTable) {
  // The server lower-cases struct<customerId:bigint> and keeps file:///wh//lake/items/ as
  // file:///wh/lake/items: neither is a change, so nothing is dropped or created.
  std::deque<Step> steps = {
      {"GET", "/catalogs/main", kOk},
      {"GET", "/schemas/main.lake", kOk},
      {"GET", "/tables/main.lake.items", {200, LiveTableInfo("file:///wh/lake/items"), "", false}},
  };
  std::vector<HttpRequest> sent;
  UnityDeltaRegistry registry(
      std::make_unique<UnityClient>("http://uc:8080", "", std::make_unique<ScriptedUnity>(&steps, &sent)), "main");
  Status status = registry.RegisterDeltaTable({{"lake"}, "items"}, "file:///wh//lake/items/", kSchemaV1);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_TRUE(steps.empty());
  EXPECT_EQ(sent.size(), 3u);
}

TEST(UnityDeltaRegistry, AnotherLocationIsStillRefused) {
  std::deque<Step> steps = {
      {"GET", "/catalogs/main", kOk},
      {"GET", "/schemas/main.lake", kOk},
      {"GET", "/tables/main.lake.items", {200, LiveTableInfo("file:///wh/lake/items2"), "", false}},
  };
  std::vector<HttpRequest> sent;
  UnityDeltaRegistry registry(
      std::make_unique<UnityClient>("http://uc:8080", "", std::make_unique<ScriptedUnity>(&steps, &sent)), "main");
  Status status = registry.RegisterDeltaTable({{"lake"}, "items"}, "file:///wh/lake/items", kSchemaV1);
  EXPECT_EQ(status.code(), StatusCode::kAlreadyExists) << status.ToString();
}

}  // namespace
}  // namespace floe::catalog
