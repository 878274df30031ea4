// Floe's Delta tables registered in Glue (glue_delta_registry.h), against a Glue in memory:
// the table input Athena, Spark and crawlers recognise, the database created when missing,
// nothing sent when the columns already match, columns updated with the VersionId read, and a
// name Glue holds for something else left alone.
#include "floe/catalog/glue_delta_registry.h"

#include <gtest/gtest.h>

#include "floe/catalog/glue_columns.h"
#include "memory_glue.h"

namespace floe::catalog {
namespace {

using nlohmann::json;

const std::string kV1 = R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":false,"metadata":{}}]})";
const std::string kV2 = R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":false,"metadata":{}},)"
                        R"({"name":"region","type":"string","nullable":true,"metadata":{}}]})";
const TableIdentifier kItems{{"lake"}, "items_delta"};
const std::string kRoot = "s3://b/wh/lake/items";

TEST(GlueDeltaRegistry, CreatesTheDatabaseAndADeltaTableEnginesRecognise) {
  testing::MemoryGlue glue;
  GlueDeltaRegistry registry(glue.Client());
  ASSERT_TRUE(registry.RegisterDeltaTable(kItems, kRoot, kV1).ok());
  const std::vector<std::string> actions = {"GetTable", "CreateTable", "CreateDatabase", "CreateTable"};
  EXPECT_EQ(glue.Actions(), actions);
  const json& table = glue.tables.at("lake.items_delta");
  EXPECT_EQ(table["TableType"], "EXTERNAL_TABLE");
  EXPECT_EQ(table["Parameters"]["table_type"], "DELTA");
  EXPECT_EQ(table["Parameters"]["spark.sql.sources.provider"], "delta");
  EXPECT_EQ(table["Parameters"]["classification"], "delta");
  EXPECT_EQ(table["Parameters"]["EXTERNAL"], "TRUE");
  EXPECT_EQ(table["StorageDescriptor"]["Location"], kRoot);
  EXPECT_EQ(table["StorageDescriptor"]["SerdeInfo"]["Parameters"]["path"], kRoot);
  EXPECT_EQ(table["StorageDescriptor"]["Columns"], json::array({{{"Name", "id"}, {"Type", "bigint"}}}));
  EXPECT_FALSE(table["StorageDescriptor"].contains("InputFormat"));  // engines without a Delta reader fail
  EXPECT_FALSE(table.contains("PartitionKeys"));
}

TEST(GlueDeltaRegistry, SameColumnsSendNothingNewColumnsUpdateWithTheVersionRead) {
  testing::MemoryGlue glue;
  glue.databases["lake"] = {{"Name", "lake"}};
  GlueDeltaRegistry registry(glue.Client());
  ASSERT_TRUE(registry.RegisterDeltaTable(kItems, kRoot, kV1).ok());
  glue.tables["lake.items_delta"]["Parameters"]["owner_note"] = "kept";
  glue.sent.clear();
  ASSERT_TRUE(registry.RegisterDeltaTable(kItems, kRoot + "/", kV1).ok());  // a trailing '/' is the same place
  EXPECT_EQ(glue.Actions(), std::vector<std::string>{"GetTable"});

  glue.sent.clear();
  ASSERT_TRUE(registry.RegisterDeltaTable(kItems, kRoot, kV2).ok());
  const std::vector<std::string> actions = {"GetTable", "UpdateTable"};
  ASSERT_EQ(glue.Actions(), actions);
  EXPECT_EQ(glue.sent[1].second["VersionId"], "1");
  const json& table = glue.tables.at("lake.items_delta");
  EXPECT_EQ(table["StorageDescriptor"]["Columns"], *GlueDeltaColumns(kV2));
  EXPECT_EQ(table["Parameters"]["owner_note"], "kept");
  EXPECT_EQ(table["Parameters"]["table_type"], "DELTA");
}

TEST(GlueDeltaRegistry, ANameHeldForSomethingElseIsNeverOverwritten) {
  testing::MemoryGlue glue;
  glue.databases["lake"] = {{"Name", "lake"}};
  glue.tables["lake.items_delta"] = {{"Name", "items_delta"},
                                     {"DatabaseName", "lake"},
                                     {"VersionId", "1"},
                                     {"Parameters", {{"table_type", "ICEBERG"}}},
                                     {"StorageDescriptor", {{"Location", kRoot}}}};
  glue.tables["lake.other"] = {{"Name", "other"},
                               {"DatabaseName", "lake"},
                               {"VersionId", "1"},
                               {"Parameters", {{"table_type", "DELTA"}}},
                               {"StorageDescriptor", {{"Location", "s3://someone/else"}}}};
  GlueDeltaRegistry registry(glue.Client());
  const Status iceberg = registry.RegisterDeltaTable(kItems, kRoot, kV1);
  EXPECT_EQ(iceberg.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(iceberg.message().find("Glue already has a table lake.items_delta (ICEBERG at 's3://b/wh/lake/items')"),
            std::string::npos)
      << iceberg.message();
  const Status elsewhere = registry.RegisterDeltaTable({{"lake"}, "other"}, kRoot, kV1);
  EXPECT_EQ(elsewhere.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(elsewhere.message().find("s3://someone/else"), std::string::npos) << elsewhere.message();
  for (const auto& action : glue.Actions()) EXPECT_EQ(action, "GetTable");
}

TEST(GlueDeltaRegistry, NamesBreakingGluesRulesAreRefusedBeforeAnyRequest) {
  testing::MemoryGlue glue;
  GlueDeltaRegistry registry(glue.Client());
  EXPECT_EQ(registry.RegisterDeltaTable({{"Lake"}, "items"}, kRoot, kV1).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.RegisterDeltaTable({{"lake"}, "items"}, kRoot, "not json").code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(glue.sent.empty());
}

}  // namespace
}  // namespace floe::catalog
