// ReadCommitHistory over hand-written logs in the shape Spark and delta-rs write them: one
// summary per JSON commit, the schema only where a metaData action sets one.
#include "floe/delta/history.h"

#include <gtest/gtest.h>

#include "delta_test_util.h"

namespace floe::delta {
namespace {

using testing::TempTable;

std::string MetaData(const std::string& fields) {
  const std::string schema = R"({\"type\":\"struct\",\"fields\":[)" + fields + "]}";
  return R"({"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":")" + schema +
         R"(","partitionColumns":[],"configuration":{},"createdTime":1}})";
}
const std::string kId = R"({\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}})";
const std::string kName = R"({\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}})";

std::string Add(const std::string& path, int records) {
  return R"({"add":{"path":")" + path + R"(","partitionValues":{},"size":100,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":)" +
         std::to_string(records) + R"(}"}})";
}

class HistoryTest : public TempTable {};

TEST_F(HistoryTest, OneSummaryPerCommitWithTheSchemasItSet) {
  WriteLog("00000000000000000000.json",
           R"({"commitInfo":{"timestamp":1000,"operation":"CREATE TABLE"}})" "\n"
           R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})" "\n" +
               MetaData(kId) + "\n");
  WriteLog("00000000000000000001.json",
           R"({"commitInfo":{"timestamp":2000,"operation":"WRITE"}})" "\n" + Add("a.parquet", 5) + "\n" +
               Add("b.parquet", 7) + "\n");
  WriteLog("00000000000000000002.json",
           R"({"commitInfo":{"timestamp":3000,"operation":"CHANGE COLUMN"}})" "\n" + MetaData(kId + "," + kName) +
               "\n" R"({"remove":{"path":"a.parquet","deletionTimestamp":3000,"dataChange":true}})" "\n");
  auto history = ReadCommitHistory(*io_, 100);
  ASSERT_TRUE(history.ok()) << history.status().ToString();
  ASSERT_EQ(history->size(), 3u);
  const auto& h = *history;
  EXPECT_EQ(h[0].version, 0);
  EXPECT_EQ(h[0].timestamp_ms, 1000);
  EXPECT_EQ(h[0].operation, "CREATE TABLE");
  ASSERT_TRUE(h[0].schema.has_value());
  EXPECT_EQ(h[0].schema->fields.size(), 1u);
  EXPECT_EQ(h[1].added_files, 2);
  EXPECT_EQ(h[1].added_records, 12);
  EXPECT_FALSE(h[1].schema.has_value());
  EXPECT_EQ(h[2].removed_files, 1);
  ASSERT_TRUE(h[2].schema.has_value());
  EXPECT_EQ(h[2].schema->fields.size(), 2u);

  // Only the newest commits when asked for fewer.
  auto newest = ReadCommitHistory(*io_, 2);
  ASSERT_TRUE(newest.ok());
  ASSERT_EQ(newest->size(), 2u);
  EXPECT_EQ((*newest)[0].version, 1);
}

TEST_F(HistoryTest, NoLogIsAnEmptyHistoryAndABadLineAnError) {
  auto none = ReadCommitHistory(*io_, 10);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  WriteLog("00000000000000000000.json", "not json\n");
  auto bad = ReadCommitHistory(*io_, 10);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("00000000000000000000.json"), std::string::npos);
}

}  // namespace
}  // namespace floe::delta
