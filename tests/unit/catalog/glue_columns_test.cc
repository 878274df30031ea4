// Glue's column list: the type strings and column parameters of Apache Iceberg's GlueCatalog
// (IcebergToGlueConverter), Delta's columns, and the Iceberg catalog over Glue writing them in
// the same UpdateTable that moves metadata_location when the schema evolves.
#include "floe/catalog/glue_columns.h"

#include <gtest/gtest.h>

#include "floe/catalog/glue_catalog.h"
#include "floe/catalog/iceberg_catalog.h"
#include "memory_glue.h"
#include "support/temp_dir.h"

namespace floe::catalog {
namespace {

using nlohmann::json;
using schema::NestedField;
using schema::Type;
using schema::TypeId;

NestedField Field(int id, std::string name, schema::TypePtr type, bool required = false, std::string doc = "") {
  return NestedField{id, std::move(name), required, std::move(type), std::move(doc), std::nullopt, std::nullopt};
}
schema::TypePtr P(TypeId id) { return Type::Primitive(id); }

TEST(GlueTypeString, PrimitivesAsHiveTypes) {
  const std::vector<std::pair<TypeId, std::string>> cases = {
      {TypeId::kBoolean, "boolean"},  {TypeId::kInt, "int"},          {TypeId::kLong, "bigint"},
      {TypeId::kFloat, "float"},      {TypeId::kDouble, "double"},    {TypeId::kDate, "date"},
      {TypeId::kTime, "string"},      {TypeId::kString, "string"},    {TypeId::kUuid, "string"},
      {TypeId::kTimestamp, "timestamp"}, {TypeId::kTimestampTz, "timestamp"}, {TypeId::kBinary, "binary"},
      {TypeId::kTimestampNs, "timestamp_nano"}, {TypeId::kTimestampTzNs, "timestamp_nano"},
      {TypeId::kVariant, "variant"},  {TypeId::kUnknown, "unknown"}};
  for (const auto& [id, text] : cases) EXPECT_EQ(GlueTypeString(*P(id)), text) << static_cast<int>(id);
  EXPECT_EQ(GlueTypeString(*Type::Fixed(16)), "binary");
  EXPECT_EQ(GlueTypeString(*Type::Decimal(9, 2)), "decimal(9,2)");
  EXPECT_EQ(GlueTypeString(*Type::Decimal(38, 0)), "decimal(38,0)");
}

TEST(GlueTypeString, NestedTypesSpellTheirFields) {
  auto point = Type::Struct({Field(3, "x", P(TypeId::kDouble), true), Field(4, "y", P(TypeId::kDouble))});
  EXPECT_EQ(GlueTypeString(*point), "struct<x:double,y:double>");
  auto tags = Type::List(Field(5, "element", P(TypeId::kString)));
  EXPECT_EQ(GlueTypeString(*tags), "array<string>");
  auto attrs = Type::Map(Field(6, "key", P(TypeId::kString), true), Field(7, "value", Type::Decimal(10, 2)));
  EXPECT_EQ(GlueTypeString(*attrs), "map<string,decimal(10,2)>");
  auto deep = Type::Struct({Field(8, "points", Type::List(Field(9, "element", point))),
                            Field(10, "by_name", Type::Map(Field(11, "key", P(TypeId::kString), true),
                                                           Field(12, "value", tags)))});
  EXPECT_EQ(GlueTypeString(*deep),
            "struct<points:array<struct<x:double,y:double>>,by_name:map<string,array<string>>>");
}

// Two schemas: 0 (id, name, legacy) and the current 1 (id, name now documented, region):
// `legacy` was dropped and stays listed as not current, after the current columns.
iceberg::TableMetadata Evolved() {
  iceberg::TableMetadata m;
  m.location = "s3://b/wh/lake/orders";
  schema::Schema v0;
  v0.schema_id = 0;
  v0.fields = {Field(1, "id", P(TypeId::kLong), true), Field(2, "name", P(TypeId::kString)),
               Field(3, "legacy", Type::Struct({Field(4, "z", P(TypeId::kInt))}))};
  schema::Schema v1;
  v1.schema_id = 1;
  v1.fields = {Field(1, "id", P(TypeId::kLong), true), Field(2, "name", P(TypeId::kString), false, "who ordered"),
               Field(5, "region", P(TypeId::kString))};
  m.schemas = {v0, v1};
  m.current_schema_id = 1;
  return m;
}

json Column(const std::string& name, const std::string& type, int id, bool optional, bool current) {
  return {{"Name", name},
          {"Type", type},
          {"Parameters",
           {{"iceberg.field.id", std::to_string(id)},
            {"iceberg.field.optional", optional ? "true" : "false"},
            {"iceberg.field.current", current ? "true" : "false"}}}};
}

TEST(GlueColumns, CurrentColumnsThenDroppedOnesAsIcebergsGlueCatalogWritesThem) {
  json expected = json::array({Column("id", "bigint", 1, false, true), Column("name", "string", 2, true, true),
                               Column("region", "string", 5, true, true),
                               Column("legacy", "struct<z:int>", 3, true, false)});
  expected[1]["Comment"] = "who ordered";
  EXPECT_EQ(GlueColumns(Evolved(), json()), expected);
}

TEST(GlueColumns, ACommentWrittenInGlueIsKeptUnlessTheFieldHasADoc) {
  const json existing = json::array({{{"Name", "region"}, {"Type", "string"}, {"Comment", "set in the console"}},
                                     {{"Name", "name"}, {"Type", "string"}, {"Comment", "overridden by the doc"}},
                                     {{"Name", "id"}, {"Type", "bigint"}}});
  const json columns = GlueColumns(Evolved(), existing);
  EXPECT_EQ(columns[0].count("Comment"), 0u);
  EXPECT_EQ(columns[1]["Comment"], "who ordered");
  EXPECT_EQ(columns[2]["Comment"], "set in the console");
}

TEST(GlueDeltaColumns, TheLogsFieldsAsHiveTypes) {
  const std::string schema_string = R"json({"type":"struct","fields":[
    {"name":"id","type":"long","nullable":false,"metadata":{}},
    {"name":"price","type":"decimal(10,2)","nullable":true,"metadata":{"comment":"in EUR"}},
    {"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},
    {"name":"attrs","type":{"type":"map","keyType":"string","valueType":"integer","valueContainsNull":true},
     "nullable":true,"metadata":{}},
    {"name":"_kafka","type":{"type":"struct","fields":[{"name":"offset","type":"long","nullable":false,"metadata":{}},
     {"name":"timestamp","type":"timestamp","nullable":true,"metadata":{}}]},"nullable":false,"metadata":{}}]})json";
  auto columns = GlueDeltaColumns(schema_string);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  const json expected = json::array({{{"Name", "id"}, {"Type", "bigint"}},
                                     {{"Name", "price"}, {"Type", "decimal(10,2)"}, {"Comment", "in EUR"}},
                                     {{"Name", "tags"}, {"Type", "array<string>"}},
                                     {{"Name", "attrs"}, {"Type", "map<string,int>"}},
                                     {{"Name", "_kafka"}, {"Type", "struct<offset:bigint,timestamp:timestamp>"}}});
  EXPECT_EQ(*columns, expected);
  EXPECT_EQ(GlueDeltaColumns("[]").status().code(), StatusCode::kInvalidArgument);
  auto unknown = GlueDeltaColumns(R"({"type":"struct","fields":[{"name":"g","type":"geometry"}]})");
  EXPECT_NE(unknown.status().message().find("column g"), std::string::npos) << unknown.status().message();
}

class IcebergOverGlue : public ::testing::Test {
 protected:
  IcebergOverGlue() { glue_.databases["lake"] = {{"Name", "lake"}}; }

  std::unique_ptr<IcebergCatalog> Open() {
    auto catalog = IcebergCatalog::Over(MakeGlueCatalog(glue_.Client()), dir_.path().string());
    EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
    return std::move(*catalog);
  }

  test_support::TempDir dir_{"floe-glue-columns"};
  testing::MemoryGlue glue_;
  const TableIdentifier orders_{{"lake"}, "orders"};
};

TEST_F(IcebergOverGlue, CreateWritesTheColumnsAndLocation) {
  auto catalog = Open();
  schema::Schema s;
  s.fields = {Field(1, "id", P(TypeId::kLong), true), Field(2, "name", P(TypeId::kString))};
  auto created = catalog->CreateTable({orders_, s, std::nullopt, std::nullopt, "", {{"comment", "orders topic"}}});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const json& table = glue_.tables.at("lake.orders");
  EXPECT_EQ(table["Parameters"]["metadata_location"], created->metadata_location);
  EXPECT_EQ(table["StorageDescriptor"]["Location"], created->metadata.location);
  EXPECT_EQ(table["StorageDescriptor"]["Columns"],
            json::array({Column("id", "bigint", 1, false, true), Column("name", "string", 2, true, true)}));
  EXPECT_EQ(table["Description"], "orders topic");
}

TEST_F(IcebergOverGlue, EvolutionMovesTheColumnsInTheSameUpdateTableAsTheLocation) {
  auto catalog = Open();
  schema::Schema s;
  s.fields = {Field(1, "id", P(TypeId::kLong), true), Field(2, "name", P(TypeId::kString))};
  auto created = catalog->CreateTable({orders_, s, std::nullopt, std::nullopt, "", {}});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  glue_.tables["lake.orders"]["StorageDescriptor"]["SerdeInfo"] = {{"Name", "set by someone else"}};

  schema::Schema v1;
  v1.schema_id = 1;
  v1.fields = {Field(1, "id", P(TypeId::kLong), true), Field(3, "region", P(TypeId::kString))};
  TableChange change{orders_, {}, {iceberg::AddSchemaUpdate{v1, std::nullopt}, iceberg::SetCurrentSchemaUpdate{}}};
  glue_.sent.clear();
  auto committed = catalog->CommitTable(change);
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();

  // One UpdateTable carries the new pointer and the new columns.
  const auto actions = glue_.Actions();
  ASSERT_EQ(actions.back(), "UpdateTable");
  EXPECT_EQ(std::count(actions.begin(), actions.end(), std::string("UpdateTable")), 1);
  const json& input = glue_.sent.back().second["TableInput"];
  EXPECT_EQ(input["Parameters"]["metadata_location"], committed->metadata_location);
  EXPECT_EQ(input["Parameters"]["previous_metadata_location"], created->metadata_location);
  EXPECT_EQ(input["StorageDescriptor"]["Columns"],
            json::array({Column("id", "bigint", 1, false, true), Column("region", "string", 3, true, true),
                         Column("name", "string", 2, true, false)}));
  EXPECT_EQ(input["StorageDescriptor"]["Location"], created->metadata.location);
  EXPECT_EQ(input["StorageDescriptor"]["SerdeInfo"]["Name"], "set by someone else");  // others' fields kept
}

}  // namespace
}  // namespace floe::catalog
