#include "floe/columnar/parquet_file_writer.h"

#include <arrow/api.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>
#include <parquet/statistics.h>

#include <filesystem>

#include "floe/storage/file_io.h"

namespace floe::columnar {
namespace {

std::shared_ptr<arrow::RecordBatch> SampleBatch() {
  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    EXPECT_TRUE((i % 10 == 0 ? names.AppendNull() : names.Append("n" + std::to_string(i))).ok());
  }
  auto schema = arrow::schema({
      arrow::field("id", arrow::int64(), false, arrow::key_value_metadata({"PARQUET:field_id"}, {"1"})),
      arrow::field("name", arrow::utf8(), true, arrow::key_value_metadata({"PARQUET:field_id"}, {"2"})),
  });
  return arrow::RecordBatch::Make(schema, 100, {ids.Finish().ValueOrDie(), names.Finish().ValueOrDie()});
}

class ParquetFileWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("floe-pq-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ParquetFileWriterTest, WritesRowsStatsAndFieldIds) {
  auto io = storage::FileIO::Open(dir_.string());
  ASSERT_TRUE(io.ok()) << io.status().ToString();
  auto file = io->Create("data/part-0.parquet");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto batch = SampleBatch();
  auto writer = ParquetFileWriter::Open((*file)->stream(), batch->schema());
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  ASSERT_TRUE((*writer)->Write(*batch).ok());
  auto written = (*writer)->Close();
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  // Not visible under its final name until committed.
  EXPECT_FALSE(std::filesystem::exists(dir_ / "data/part-0.parquet"));
  ASSERT_TRUE((*file)->Commit().ok());
  ASSERT_TRUE(std::filesystem::exists(dir_ / "data/part-0.parquet"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_ / "data"), {}), 1);  // no temp file left
  EXPECT_EQ(written->rows, 200);
  EXPECT_EQ(written->bytes, static_cast<std::int64_t>(std::filesystem::file_size(dir_ / "data/part-0.parquet")));
  EXPECT_EQ(io->Uri("data/part-0.parquet"), "file://" + (dir_ / "data/part-0.parquet").string());

  auto input = io->OpenRead("data/part-0.parquet");
  ASSERT_TRUE(input.ok());
  auto reader = parquet::ParquetFileReader::Open(*input);
  const auto md = reader->metadata();
  EXPECT_EQ(md->num_rows(), 200);
  EXPECT_EQ(md->schema()->Column(0)->schema_node()->field_id(), 1);
  EXPECT_EQ(md->schema()->Column(1)->schema_node()->field_id(), 2);
  auto stats = md->RowGroup(0)->ColumnChunk(1)->statistics();
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->null_count(), 20);
  EXPECT_EQ(md->RowGroup(0)->ColumnChunk(0)->compression(), arrow::Compression::ZSTD);
}

TEST_F(ParquetFileWriterTest, AbortLeavesNothingBehind) {
  auto io = storage::FileIO::Open(dir_.string());
  ASSERT_TRUE(io.ok());
  {
    auto file = io->Create("x.parquet");
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->stream()->Write("partial", 7).ok());
    // destroyed without Commit: a crash-equivalent path must not publish a half file
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), {}), 0);
}

}  // namespace
}  // namespace floe::columnar
