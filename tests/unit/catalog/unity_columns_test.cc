#include "floe/catalog/unity_columns.h"

#include <gtest/gtest.h>

#include "floe/catalog/unity_client.h"

namespace floe::catalog {
namespace {

TEST(UnityColumns, EachTopLevelFieldWithSparkTypeTextAndItsOwnJson) {
  const std::string schema = R"json({"type":"struct","fields":[
    {"name":"id","type":"long","nullable":false,"metadata":{"delta.columnMapping.id":1}},
    {"name":"price","type":"decimal(10,2)","nullable":true,"metadata":{}},
    {"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},
    {"name":"attrs","type":{"type":"map","keyType":"string","valueType":"integer","valueContainsNull":true},"nullable":true,"metadata":{}},
    {"name":"kafka","type":{"type":"struct","fields":[
        {"name":"offset","type":"long","nullable":false,"metadata":{}},
        {"name":"ts","type":"timestamp","nullable":true,"metadata":{}}]},"nullable":false,"metadata":{}},
    {"name":"local","type":"timestamp_ntz","nullable":true,"metadata":{}}]})json";
  auto columns = UnityColumns(schema);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ASSERT_EQ(columns->size(), 6u);
  const auto& c = *columns;
  EXPECT_EQ(c[0]["name"], "id");
  EXPECT_EQ(c[0]["type_text"], "bigint");
  EXPECT_EQ(c[0]["type_name"], "LONG");
  EXPECT_EQ(c[0]["nullable"], false);
  EXPECT_EQ(c[0]["position"], 0);
  EXPECT_EQ(nlohmann::json::parse(c[0]["type_json"].get<std::string>())["metadata"]["delta.columnMapping.id"], 1);
  EXPECT_EQ(c[1]["type_text"], "decimal(10,2)");
  EXPECT_EQ(c[1]["type_name"], "DECIMAL");
  EXPECT_EQ(c[1]["type_precision"], 10);
  EXPECT_EQ(c[1]["type_scale"], 2);
  EXPECT_EQ(c[2]["type_text"], "array<string>");
  EXPECT_EQ(c[2]["type_name"], "ARRAY");
  EXPECT_EQ(c[3]["type_text"], "map<string,int>");
  EXPECT_EQ(c[3]["type_name"], "MAP");
  EXPECT_EQ(c[4]["type_text"], "struct<offset:bigint,ts:timestamp>");
  EXPECT_EQ(c[4]["type_name"], "STRUCT");
  EXPECT_EQ(c[5]["type_text"], "timestamp_ntz");
  EXPECT_EQ(c[5]["position"], 5);
}

TEST(UnityColumns, UnknownTypesAndBrokenSchemasNameTheColumn) {
  auto unknown = UnityColumns(R"({"type":"struct","fields":[{"name":"when","type":"interval","nullable":true}]})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("column when"), std::string::npos) << unknown.status().ToString();
  EXPECT_FALSE(UnityColumns("not json").ok());
  EXPECT_FALSE(UnityColumns(R"({"type":"struct"})").ok());
}

TEST(UnityErrors, StatusCodesFollowHttpAndKeepUnitysMessage) {
  auto missing = UnityErrorStatus(404, R"({"error_code":"TABLE_DOES_NOT_EXIST","message":"Table not found: a.b.c"})",
                                  "table a.b.c");
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("TABLE_DOES_NOT_EXIST: Table not found: a.b.c"), std::string::npos);
  EXPECT_EQ(UnityErrorStatus(409, "{}", "x").code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(UnityErrorStatus(503, "busy", "x").code(), StatusCode::kUnavailable);
  EXPECT_EQ(UnityErrorStatus(429, "", "x").code(), StatusCode::kUnavailable);
  auto denied = UnityErrorStatus(403, R"({"error_code":"PERMISSION_DENIED","message":"no"})", "creating table a.b.c");
  EXPECT_NE(denied.message().find("catalog.token"), std::string::npos);
}

}  // namespace
}  // namespace floe::catalog
