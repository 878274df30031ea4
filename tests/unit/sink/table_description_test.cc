// sink::DescribeTable for an Iceberg table in Floe's own catalog (SQLite in memory): the
// schema history, snapshots, the size histogram and partitions that the console's table page
// draws, and which tables it agrees to describe. (Delta and both formats against real tables:
// tests/integration/test_console.py.)
#include "floe/sink/table_description.h"

#include <gtest/gtest.h>

#include "floe/iceberg/fast_append.h"
#include "support/temp_dir.h"

namespace floe::sink {
namespace {

using nlohmann::json;

schema::NestedField Field(int id, std::string name, schema::TypeId type) {
  schema::NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = schema::Type::Primitive(type);
  return f;
}

class TableDescriptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = catalog::IcebergCatalog::Open("sqlite://:memory:", (dir_.path() / "warehouse").string());
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = std::move(catalog).value();
    ASSERT_TRUE(catalog_->CreateNamespace({"lake"}, {}).ok());
    catalog::NewTable table;
    table.id = id_;
    table.schema.fields = {Field(1, "id", schema::TypeId::kLong), Field(2, "region", schema::TypeId::kString)};
    schema::PartitionSpec spec;
    spec.fields.push_back({2, 1000, "region", {}});
    table.spec = spec;
    ASSERT_TRUE(catalog_->CreateTable(table).ok());
    TopicConfig topic;
    topic.name = "orders";
    topic.table = "lake.orders";
    config_.topics.push_back(topic);
    TopicConfig pattern;  // no single table: never listed
    pattern.pattern = "logs-.*";
    config_.topics.push_back(pattern);
  }

  void Append(const std::vector<std::pair<std::string, std::int64_t>>& region_and_bytes) {
    auto table = catalog_->LoadTable(id_);
    ASSERT_TRUE(table.ok());
    iceberg::AppendFiles append;
    for (const auto& [region, bytes] : region_and_bytes) {
      iceberg::DataFile f;
      f.file_path = "file://" + (dir_.path() / ("f" + std::to_string(files_++) + ".parquet")).string();
      f.partition = {schema::Literal(region)};
      f.record_count = bytes / 10;
      f.file_size_in_bytes = bytes;
      append.files.push_back(f);
    }
    auto commit = iceberg::PrepareFastAppend(table->metadata, append);
    ASSERT_TRUE(commit.ok()) << commit.status().ToString();
    ASSERT_TRUE(catalog_->CommitTable({id_, commit->requirements, commit->updates}).ok());
  }

  test_support::TempDir dir_{"floe-table-description"};
  std::unique_ptr<catalog::IcebergCatalog> catalog_;
  catalog::TableIdentifier id_{{"lake"}, "orders"};
  FloeConfig config_;
  int files_ = 0;
};

TEST_F(TableDescriptionTest, ListsTheTablesOfConfiguredTopics) {
  EXPECT_EQ(ListConfiguredTables(config_),
            json::parse(R"({"tables":[{"table":"lake.orders","topic":"orders","formats":["iceberg"]}]})"));
}

TEST_F(TableDescriptionTest, SchemasSnapshotsFilesAndPartitions) {
  Append({{"eu", 1000}, {"eu", 1500}, {"us", 5000}});
  // A new column, then more data written with it.
  auto table = catalog_->LoadTable(id_);
  ASSERT_TRUE(table.ok());
  schema::Schema evolved = *table->metadata.CurrentSchema();
  evolved.fields.push_back(Field(3, "channel", schema::TypeId::kString));
  ASSERT_TRUE(catalog_->CommitTable({id_, {}, {iceberg::AddSchemaUpdate{evolved, {}}, iceberg::SetCurrentSchemaUpdate{}}})
                  .ok());
  Append({{"us", 70000}});

  auto described = DescribeTable(config_, *catalog_, "lake.orders");
  ASSERT_TRUE(described.ok()) << described.status().ToString();
  const json& d = (*described)["iceberg"];
  EXPECT_EQ((*described)["formats"], json({"iceberg"}));
  ASSERT_EQ(d["schemas"].size(), 2u);
  EXPECT_EQ(d["schemas"][1]["fields"].size(), 3u);
  EXPECT_EQ(d["current_schema_id"], d["schemas"][1]["schema-id"]);
  EXPECT_TRUE(d["schemas"][1].contains("since_ms"));  // the second snapshot was written with it
  EXPECT_EQ(d["snapshot_count"], 2);
  ASSERT_EQ(d["snapshots"].size(), 2u);
  EXPECT_EQ(d["snapshots"][0]["added_files"], 3);
  EXPECT_EQ(d["snapshots"][0]["added_records"], 750);
  EXPECT_EQ(d["snapshots"][1]["operation"], "append");
  EXPECT_EQ(d["files"]["count"], 4);
  EXPECT_EQ(d["files"]["bytes"], 77500);
  // Powers of two from the smallest file's (512..1023 B) to the largest's (64..128 KiB), empty
  // buckets kept.
  const json& histogram = d["files"]["size_histogram"];
  ASSERT_EQ(histogram.size(), 8u);
  EXPECT_EQ(histogram[0], json::parse(R"({"min_bytes":512,"max_bytes":1023,"count":1})"));
  EXPECT_EQ(histogram[1]["count"], 1);  // 1500
  EXPECT_EQ(histogram[3]["count"], 1);  // 5000
  EXPECT_EQ(histogram[2]["count"], 0);
  EXPECT_EQ(histogram[7], json::parse(R"({"min_bytes":65536,"max_bytes":131071,"count":1})"));
  EXPECT_EQ(d["partition_fields"], json({"region (identity)"}));
  // Largest first.
  EXPECT_EQ(d["partitions"], json::parse(R"([
    {"values":{"region":"us"},"files":2,"records":7500,"bytes":75000},
    {"values":{"region":"eu"},"files":2,"records":250,"bytes":2500}])"));
}

TEST_F(TableDescriptionTest, OnlyConfiguredTablesThatExist) {
  auto other = DescribeTable(config_, *catalog_, "lake.other");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), StatusCode::kNotFound);
  EXPECT_NE(other.status().message().find("lake.other"), std::string::npos);
  config_.topics[0].table = "lake.not_yet";  // configured, not created: the catalog's NotFound
  auto missing = DescribeTable(config_, *catalog_, "lake.not_yet");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace floe::sink
