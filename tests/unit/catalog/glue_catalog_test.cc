// The Glue catalog against a scripted transport: the requests it builds (target, signing scope,
// the table input Iceberg's GlueCatalog writes), how Glue's exceptions become Status codes, and
// the compare-and-swap, including the race moto cannot show (it ignores UpdateTable's VersionId).
#include <gtest/gtest.h>

#include <deque>
#include <nlohmann/json.hpp>

#include "floe/catalog/glue_catalog.h"
#include "floe/catalog/glue_client.h"
#include "floe/core/config.h"

namespace floe::catalog {
namespace {

using nlohmann::json;

struct Sent {
  std::string target;
  json body;
};

// Answers requests in order from `answers`; remembers what was sent.
struct FakeGlue {
  std::deque<storage::ObjectPutAnswer> answers;
  std::vector<Sent> sent;
  std::vector<std::chrono::milliseconds> waits;  // the client's waits between retries

  GlueClient Client(std::string catalog_id = "") {
    return GlueClient(
        "http://127.0.0.1:5000/", "eu-west-1", std::move(catalog_id),
        [] { return Result<storage::AwsCredentials>(storage::AwsCredentials{"AKID", "SECRET", ""}); },
        [this](const storage::ObjectPut& put, const std::string& body, const std::string&) -> Result<storage::ObjectPutAnswer> {
          std::string target;
          for (const auto& h : put.headers) {
            if (h.rfind("X-Amz-Target: ", 0) == 0) target = h.substr(14);
          }
          sent.push_back({target, json::parse(body)});
          if (answers.empty()) return Status::Internal("no scripted answer for " + target);
          auto answer = answers.front();
          answers.pop_front();
          return answer;
        },
        [this](std::chrono::milliseconds wait) { waits.push_back(wait); });
  }
  void Ok(const json& body) { answers.push_back({200, body.dump()}); }
  void Error(long code, const std::string& type, const std::string& message = "detail") {
    answers.push_back({code, json{{"__type", type}, {"Message", message}}.dump()});
  }
};

json IcebergTable(const std::string& location, const std::string& version = "7") {
  return {{"Table",
           {{"Name", "orders"},
            {"DatabaseName", "lake"},
            {"CreateTime", 1700000000.0},
            {"VersionId", version},
            {"TableType", "EXTERNAL_TABLE"},
            {"StorageDescriptor", {{"Location", "s3://b/wh/lake/orders"}}},
            {"Parameters", {{"table_type", "ICEBERG"}, {"metadata_location", location}, {"owner_note", "kept"}}}}}};
}

const TableIdentifier kOrders{{"lake"}, "orders"};

TEST(GlueRequest, TargetContentTypeSigningAndToken) {
  const auto put = GlueRequest("", "eu-west-1", "GetTable", {"AKID", "SECRET", "TOKEN"});
  EXPECT_EQ(put.url, "https://glue.eu-west-1.amazonaws.com/");
  EXPECT_EQ(put.method, "POST");
  EXPECT_EQ(put.aws_sigv4, "aws:amz:eu-west-1:glue");
  EXPECT_EQ(put.user, "AKID");
  EXPECT_EQ(put.password, "SECRET");
  const std::vector<std::string> headers = {"X-Amz-Target: AWSGlue.GetTable", "Content-Type: application/x-amz-json-1.1",
                                            "x-amz-security-token: TOKEN"};
  EXPECT_EQ(put.headers, headers);
  EXPECT_EQ(GlueRequest("http://127.0.0.1:5000//", "us-east-1", "GetTable", {"A", "S", ""}).url, "http://127.0.0.1:5000/");
  EXPECT_EQ(GlueRequest("", "us-east-1", "GetTable", {"A", "S", ""}).headers.size(), 2u);  // no token header
}

TEST(GlueErrors, ExceptionsBecomeStatusCodes) {
  auto status = [](long code, const std::string& type) {
    return GlueErrorStatus(code, json{{"__type", type}, {"Message", "m"}}.dump(), "Glue GetTable lake.orders");
  };
  EXPECT_EQ(status(400, "EntityNotFoundException").code(), StatusCode::kNotFound);
  EXPECT_EQ(status(400, "AlreadyExistsException").code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(status(400, "ConcurrentModificationException").code(), StatusCode::kConflict);
  EXPECT_EQ(status(400, "ThrottlingException").code(), StatusCode::kUnavailable);
  EXPECT_EQ(status(500, "InternalServiceException").code(), StatusCode::kUnavailable);
  EXPECT_EQ(GlueErrorStatus(503, "", "x").code(), StatusCode::kUnavailable);
  EXPECT_EQ(status(400, "InvalidInputException").code(), StatusCode::kInvalidArgument);
  const Status denied = status(400, "AccessDeniedException");
  EXPECT_EQ(denied.code(), StatusCode::kIoError);
  EXPECT_NE(denied.message().find("IAM policy"), std::string::npos) << denied.message();
  EXPECT_EQ(status(400, "EntityNotFoundException").message(),
            "Glue GetTable lake.orders: HTTP 400 EntityNotFoundException: m");
}

TEST(GlueErrors, TypeWithNamespaceOrSuffix) {
  EXPECT_EQ(GlueErrorType(R"({"__type":"com.amazonaws.glue#EntityNotFoundException"})"), "EntityNotFoundException");
  EXPECT_EQ(GlueErrorType(R"({"__type":"ThrottlingException:http://internal.amazon.com/"})"), "ThrottlingException");
  EXPECT_EQ(GlueErrorType("<html>bad gateway</html>"), "");
  const std::string xml =
      "<ErrorResponse><Errors><Error><Code>AccessDenied</Code><Message>not authorized to perform: glue:UpdateTable"
      "</Message></Error></Errors></ErrorResponse>";
  EXPECT_EQ(GlueErrorType(xml), "AccessDenied");
  const Status denied = GlueErrorStatus(403, xml, "Glue UpdateTable lake.orders");
  EXPECT_EQ(denied.code(), StatusCode::kIoError);
  EXPECT_NE(denied.message().find("AccessDenied: not authorized to perform: glue:UpdateTable (the IAM policy"),
            std::string::npos)
      << denied.message();
}

TEST(GlueCatalog, CreateTableRegistersAsIcebergsGlueCatalogDoes) {
  FakeGlue glue;
  glue.Ok(json::object());
  auto catalog = MakeGlueCatalog(glue.Client("123456789012"));
  ASSERT_TRUE(catalog->CreateTable(kOrders, "s3://b/wh/lake/orders/metadata/00000-a.metadata.json").ok());
  ASSERT_EQ(glue.sent.size(), 1u);
  EXPECT_EQ(glue.sent[0].target, "AWSGlue.CreateTable");
  const json& body = glue.sent[0].body;
  EXPECT_EQ(body["CatalogId"], "123456789012");
  EXPECT_EQ(body["DatabaseName"], "lake");
  EXPECT_EQ(body["TableInput"]["Name"], "orders");
  EXPECT_EQ(body["TableInput"]["TableType"], "EXTERNAL_TABLE");
  EXPECT_EQ(body["TableInput"]["Parameters"]["table_type"], "ICEBERG");
  EXPECT_EQ(body["TableInput"]["Parameters"]["metadata_location"], "s3://b/wh/lake/orders/metadata/00000-a.metadata.json");
  EXPECT_EQ(body["TableInput"]["StorageDescriptor"]["Location"], "s3://b/wh/lake/orders");
}

TEST(GlueCatalog, CreateTableErrorsInIcebergsWording) {
  FakeGlue glue;
  glue.Error(400, "AlreadyExistsException");
  glue.Error(400, "EntityNotFoundException", "Database lake not found");
  auto catalog = MakeGlueCatalog(glue.Client());
  const Status exists = catalog->CreateTable(kOrders, "s3://b/t/metadata/0.metadata.json");
  EXPECT_EQ(exists.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(exists.message().rfind("Table already exists: lake.orders", 0), 0u) << exists.message();
  const Status no_db = catalog->CreateTable(kOrders, "s3://b/t/metadata/0.metadata.json");
  EXPECT_EQ(no_db.code(), StatusCode::kNotFound);
  EXPECT_EQ(no_db.message().rfind("Namespace does not exist: lake", 0), 0u) << no_db.message();
}

TEST(GlueCatalog, LoadTable) {
  FakeGlue glue;
  glue.Ok(IcebergTable("s3://b/m/1.metadata.json"));
  glue.Error(400, "EntityNotFoundException");
  json hive = IcebergTable("x");
  hive["Table"]["Parameters"] = {{"table_type", "HIVE"}};
  glue.Ok(hive);
  auto catalog = MakeGlueCatalog(glue.Client());
  auto loaded = catalog->LoadTable(kOrders);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->metadata_location, "s3://b/m/1.metadata.json");
  auto missing = catalog->LoadTable(kOrders);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message().rfind("Table does not exist: lake.orders", 0), 0u);
  EXPECT_EQ(catalog->LoadTable(kOrders).status().code(), StatusCode::kInvalidArgument);  // not an Iceberg table
}

TEST(GlueCatalog, SwapSendsTheVersionReadAndKeepsEverythingElse) {
  FakeGlue glue;
  glue.Ok(IcebergTable("s3://b/m/1.metadata.json", "7"));
  glue.Ok(json::object());
  auto catalog = MakeGlueCatalog(glue.Client());
  ASSERT_TRUE(catalog->SwapMetadataLocation(kOrders, "s3://b/m/1.metadata.json", "s3://b/m/2.metadata.json").ok());
  ASSERT_EQ(glue.sent.size(), 2u);
  EXPECT_EQ(glue.sent[0].target, "AWSGlue.GetTable");
  EXPECT_EQ(glue.sent[1].target, "AWSGlue.UpdateTable");
  const json& body = glue.sent[1].body;
  EXPECT_EQ(body["VersionId"], "7");
  EXPECT_EQ(body["DatabaseName"], "lake");
  const json& input = body["TableInput"];
  EXPECT_EQ(input["Parameters"]["metadata_location"], "s3://b/m/2.metadata.json");
  EXPECT_EQ(input["Parameters"]["previous_metadata_location"], "s3://b/m/1.metadata.json");
  EXPECT_EQ(input["Parameters"]["owner_note"], "kept");
  EXPECT_EQ(input["Parameters"]["table_type"], "ICEBERG");
  EXPECT_EQ(input["StorageDescriptor"]["Location"], "s3://b/wh/lake/orders");
  EXPECT_EQ(input["TableType"], "EXTERNAL_TABLE");
  // Read-only fields of GetTable's answer are not table input (Glue refuses them).
  EXPECT_FALSE(input.contains("CreateTime"));
  EXPECT_FALSE(input.contains("DatabaseName"));
  EXPECT_FALSE(input.contains("VersionId"));
}

TEST(GlueCatalog, SwapFromAStaleLocationIsAConflictWithoutWriting) {
  FakeGlue glue;
  glue.Ok(IcebergTable("s3://b/m/2.metadata.json"));
  auto catalog = MakeGlueCatalog(glue.Client());
  const Status st = catalog->SwapMetadataLocation(kOrders, "s3://b/m/1.metadata.json", "s3://b/m/3.metadata.json");
  EXPECT_EQ(st.code(), StatusCode::kConflict);
  EXPECT_EQ(st.message().rfind("Commit failed: lake.orders", 0), 0u) << st.message();
  EXPECT_EQ(glue.sent.size(), 1u);  // no UpdateTable
}

TEST(GlueCatalog, SwapThatLosesGluesVersionRaceIsAConflict) {
  // Both writers read version 7 with location 1; the other one's UpdateTable landed first, so
  // Glue refuses this one's VersionId 7.
  FakeGlue glue;
  glue.Ok(IcebergTable("s3://b/m/1.metadata.json", "7"));
  glue.Error(400, "ConcurrentModificationException", "Update table failed due to concurrent modifications.");
  auto catalog = MakeGlueCatalog(glue.Client());
  const Status st = catalog->SwapMetadataLocation(kOrders, "s3://b/m/1.metadata.json", "s3://b/m/2.metadata.json");
  EXPECT_EQ(st.code(), StatusCode::kConflict);
  EXPECT_EQ(st.message().rfind("Commit failed: lake.orders", 0), 0u) << st.message();
}

TEST(GlueClient, ThrottlingIsSentAgainWithGrowingWaitsThenUnavailable) {
  FakeGlue glue;
  for (int i = 0; i < kGlueMaxAttempts; ++i) glue.Error(400, "ThrottlingException", "Rate exceeded");
  auto catalog = MakeGlueCatalog(glue.Client());
  EXPECT_EQ(catalog->LoadTable(kOrders).status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(glue.sent.size(), static_cast<std::size_t>(kGlueMaxAttempts));
  ASSERT_EQ(glue.waits.size(), static_cast<std::size_t>(kGlueMaxAttempts - 1));
  // 200, 400, 800 ms, each jittered down to no less than half.
  for (std::size_t i = 0; i < glue.waits.size(); ++i) {
    const auto full = kGlueFirstRetryWait * (1 << i);
    EXPECT_GE(glue.waits[i], full / 2) << i;
    EXPECT_LE(glue.waits[i], full) << i;
  }
}

TEST(GlueClient, AThrottledWriteIsSentAgainAndSucceeds) {
  // Throttling means Glue did nothing: even UpdateTable may go again.
  FakeGlue glue;
  glue.Ok(IcebergTable("s3://b/m/1.metadata.json", "7"));
  glue.Error(400, "ThrottlingException", "Rate exceeded");
  glue.answers.push_back({429, ""});
  glue.Ok(json::object());
  auto catalog = MakeGlueCatalog(glue.Client());
  ASSERT_TRUE(catalog->SwapMetadataLocation(kOrders, "s3://b/m/1.metadata.json", "s3://b/m/2.metadata.json").ok());
  ASSERT_EQ(glue.sent.size(), 4u);
  EXPECT_EQ(glue.sent[3].target, "AWSGlue.UpdateTable");
  EXPECT_EQ(glue.sent[3].body, glue.sent[1].body);  // the same request, the same VersionId
  EXPECT_EQ(glue.waits.size(), 2u);
}

TEST(GlueClient, ServerErrorsRetryReadsButNotWritesWhoseOutcomeIsUnknown) {
  FakeGlue glue;
  glue.Error(500, "InternalServiceException");
  glue.Ok(IcebergTable("s3://b/m/1.metadata.json", "7"));  // GetTable, second attempt
  glue.Error(500, "InternalServiceException");              // UpdateTable: may have landed
  auto catalog = MakeGlueCatalog(glue.Client());
  const Status st = catalog->SwapMetadataLocation(kOrders, "s3://b/m/1.metadata.json", "s3://b/m/2.metadata.json");
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  ASSERT_EQ(glue.sent.size(), 3u);
  EXPECT_EQ(glue.sent[1].target, "AWSGlue.GetTable");
  EXPECT_EQ(glue.sent[2].target, "AWSGlue.UpdateTable");
  EXPECT_EQ(glue.waits.size(), 1u);
}

TEST(GlueClient, OtherErrorsAreNotRetried) {
  FakeGlue glue;
  glue.Error(400, "EntityNotFoundException");
  glue.Error(400, "AccessDeniedException");
  auto catalog = MakeGlueCatalog(glue.Client());
  EXPECT_EQ(catalog->LoadTable(kOrders).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(catalog->LoadTable(kOrders).status().code(), StatusCode::kIoError);
  EXPECT_EQ(glue.sent.size(), 2u);
  EXPECT_TRUE(glue.waits.empty());
}

TEST(GlueCatalog, ListNamespacesFollowsPagesAndStopsOnARepeatedToken) {
  FakeGlue glue;
  glue.Ok({{"DatabaseList", {{{"Name", "b"}}}}, {"NextToken", "p2"}});
  glue.Ok({{"DatabaseList", {{{"Name", "a"}}}}});
  glue.Ok({{"DatabaseList", json::array()}, {"NextToken", "loop"}});
  glue.Ok({{"DatabaseList", json::array()}, {"NextToken", "loop"}});
  auto catalog = MakeGlueCatalog(glue.Client());
  auto namespaces = catalog->ListNamespaces({});
  ASSERT_TRUE(namespaces.ok()) << namespaces.status().ToString();
  const std::vector<Namespace> expected = {{"a"}, {"b"}};
  EXPECT_EQ(*namespaces, expected);
  EXPECT_EQ(glue.sent[1].body["NextToken"], "p2");
  const auto looping = catalog->ListNamespaces({});
  EXPECT_EQ(looping.status().code(), StatusCode::kIoError);
  EXPECT_NE(looping.status().message().find("NextToken 'loop' twice"), std::string::npos) << looping.status().message();
}

TEST(GlueCatalog, ListTablesFollowsPagesAndKeepsIcebergTables) {
  FakeGlue glue;
  json hive = IcebergTable("x")["Table"];
  hive["Name"] = "legacy";
  hive["Parameters"] = {{"table_type", "HIVE"}};
  json b = IcebergTable("x")["Table"];
  b["Name"] = "b";
  b["Parameters"]["table_type"] = "iceberg";  // case-insensitive, as Iceberg compares it
  glue.Ok({{"TableList", {b, hive}}, {"NextToken", "page2"}});
  glue.Ok({{"TableList", {IcebergTable("y")["Table"]}}});
  auto catalog = MakeGlueCatalog(glue.Client());
  auto tables = catalog->ListTables({"lake"});
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  const std::vector<TableIdentifier> expected = {{{"lake"}, "b"}, {{"lake"}, "orders"}};
  EXPECT_EQ(*tables, expected);
  EXPECT_EQ(glue.sent[1].body["NextToken"], "page2");
}

TEST(GlueCatalog, NamespaceOperations) {
  FakeGlue glue;
  glue.Ok(json::object());                                                    // CreateDatabase
  glue.Error(400, "EntityNotFoundException");                                 // GetDatabase
  glue.Ok({{"Database", {{"Name", "lake"}, {"LocationUri", "s3://b/lake"},  // GetDatabase
                         {"Parameters", {{"owner", "ops"}}}}}});
  glue.Ok({{"TableList", {IcebergTable("x")["Table"]}}});                    // GetTables for drop
  auto catalog = MakeGlueCatalog(glue.Client());
  ASSERT_TRUE(catalog->CreateNamespace({"lake"}, {{"owner", "ops"}, {"location", "s3://b/lake"}}).ok());
  EXPECT_EQ(glue.sent[0].body["DatabaseInput"]["Parameters"]["owner"], "ops");
  EXPECT_EQ(glue.sent[0].body["DatabaseInput"]["LocationUri"], "s3://b/lake");
  const auto missing = catalog->LoadNamespaceProperties({"lake"});
  EXPECT_EQ(missing.status().message().rfind("Namespace does not exist: lake", 0), 0u);
  const auto props = catalog->LoadNamespaceProperties({"lake"});
  ASSERT_TRUE(props.ok());
  const Properties expected = {{"owner", "ops"}, {"location", "s3://b/lake"}};
  EXPECT_EQ(*props, expected);
  EXPECT_EQ(catalog->DropNamespace({"lake"}).code(), StatusCode::kConflict);  // not empty
}

TEST(GlueNames, LowerCaseLettersDigitsUnderscoresOneLevel) {
  EXPECT_TRUE(ValidateGlueTableIdentifier({{"lake_1"}, "orders_v2"}).ok());
  EXPECT_EQ(ValidateGlueTableIdentifier({{"Lake"}, "orders"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateGlueTableIdentifier({{"lake"}, "Orders"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateGlueTableIdentifier({{"lake"}, "orders-v2"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateGlueNamespace({"a", "b"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateGlueNamespace({std::string(253, 'a')}).code(), StatusCode::kInvalidArgument);
  FakeGlue glue;  // refused before any request
  EXPECT_EQ(MakeGlueCatalog(glue.Client())->LoadTable({{"Lake"}, "t"}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(glue.sent.empty());
}

TEST(GlueNames, TableLocationOfMetadata) {
  EXPECT_EQ(TableLocationOfMetadata("s3://b/wh/lake/orders/metadata/00001-x.metadata.json"), "s3://b/wh/lake/orders");
  EXPECT_EQ(TableLocationOfMetadata("s3://b/elsewhere/00001-x.metadata.json"), "");
}

TEST(GlueConfig, ParsesTheCatalogSection) {
  const std::string base = "warehouse: s3://b/wh\n";
  auto config = ParseConfig(base + R"(catalog:
  type: glue
  region: eu-west-1
  catalog_id: "123456789012"
  endpoint: http://127.0.0.1:5000
  credentials: static
  access_key_id: AKID
  secret_access_key: SECRET
)", "floe.yaml", ConfigUse::kCatalogServe);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->catalog.type, CatalogType::kGlue);
  EXPECT_EQ(config->catalog.glue.region, "eu-west-1");
  EXPECT_EQ(config->catalog.glue.catalog_id, "123456789012");
  EXPECT_EQ(config->catalog.glue.endpoint, "http://127.0.0.1:5000");
  EXPECT_EQ(config->catalog.glue.access_key_id, "AKID");

  auto refused = [&](const std::string& catalog) {
    auto c = ParseConfig(base + catalog, "floe.yaml", ConfigUse::kCatalogServe);
    return c.ok() ? std::string() : c.status().message();
  };
  EXPECT_NE(refused("catalog: {type: builtin, region: eu-west-1}\n").find("catalog.region: only with type: glue"),
            std::string::npos);
  EXPECT_NE(refused("catalog: {type: glue, uri: 'sqlite:///x.db'}\n").find("catalog.uri: not used with type: glue"),
            std::string::npos);
  EXPECT_NE(refused("catalog: {type: glue, credentials: static}\n").find("catalog.access_key_id: required"),
            std::string::npos);
  EXPECT_NE(refused("catalog: {type: glue, access_key_id: x}\n").find("only with credentials: static"),
            std::string::npos);
  EXPECT_NE(refused("catalog: {type: glue, endpoint: 127.0.0.1:5000}\n").find("must start with http"),
            std::string::npos);
}

TEST(GlueConfig, TableNamesBreakingGluesRulesAreRefusedUpFront) {
  const std::string head = "kafka: {bootstrap_servers: 'k:9092'}\nwarehouse: s3://b/wh\ncatalog: {type: glue}\n";
  auto ok = ParseConfig(head + "topics: [{name: Orders.V1, value: string}, {name: x, table: lake.orders, value: string}]\n",
                        "floe.yaml");
  EXPECT_TRUE(ok.ok()) << ok.status().message();  // the default name is sanitized: kafka.orders_v1
  auto bad = ParseConfig(head + "topics: [{name: x, table: Lake.orders, value: string}, {name: y, table: a.b.c, value: string}]\n",
                         "floe.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("topics[0].table: 'Lake.orders'"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("topics[1].table: 'a.b.c'"), std::string::npos) << bad.status().message();
}

TEST(GlueConfig, BothFormatsRegisterTheDeltaTableWithASuffixThatMustFitAndNotCollide) {
  const std::string head = "kafka: {bootstrap_servers: 'k:9092'}\nwarehouse: s3://b/wh\ncatalog: {type: glue}\n"
                           "defaults: {formats: [iceberg, delta]}\n";
  auto ok = ParseConfig(head + "topics: [{name: a, table: lake.orders, value: string}, "
                               "{name: b, table: lake.orders_v2, value: string, formats: [delta]}]\n",
                        "floe.yaml");
  EXPECT_TRUE(ok.ok()) << ok.status().message();
  const std::string long_name(250, 'x');
  auto too_long = ParseConfig(head + "topics: [{name: a, table: lake." + long_name + ", value: string}]\n", "floe.yaml");
  ASSERT_FALSE(too_long.ok());
  EXPECT_NE(too_long.status().message().find("longer than Glue's 255 characters (use a table name of at most 249)"),
            std::string::npos)
      << too_long.status().message();
  // Topic b's Iceberg table would take the name topic a's Delta table is registered under.
  auto clash = ParseConfig(head + "topics: [{name: a, table: lake.orders, value: string}, "
                                  "{name: b, table: lake.orders_delta, value: string, formats: [iceberg]}]\n",
                           "floe.yaml");
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.status().message().find("topics[1].table: Glue name 'lake.orders_delta' would be both a Delta "
                                          "table (topics[0]) and an Iceberg table (this topic)"),
            std::string::npos)
      << clash.status().message();
}

}  // namespace
}  // namespace floe::catalog
