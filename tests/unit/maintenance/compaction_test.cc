// maintenance::CompactTable against Floe's own catalog (SQLite in memory) and a local
// warehouse: the plan, the rows it keeps, and what happens when another writer commits
// between the plan and the commit. Readers other than Floe check the same in
// tests/integration/test_iceberg_compaction.py.
#include "floe/maintenance/compaction.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <random>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/iceberg/table_scan.h"
#include "floe/maintenance/bin_pack_internal.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"
#include "iceberg_test_table.h"

namespace floe::maintenance {
namespace {

namespace fs = std::filesystem;
using testing::Range;

class Compaction : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("floe-compaction-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
            std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    auto catalog = catalog::IcebergCatalog::Open("sqlite://:memory:", (dir_ / "warehouse").string());
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = std::move(catalog).value();
    ASSERT_TRUE(catalog_->CreateNamespace({"lake"}, {}).ok());
    catalog::NewTable table;
    table.id = id_;
    auto schema = schema::FromArrowSchema(*arrow::schema({arrow::field("id", arrow::int64(), false)}));
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    table.schema = *schema;
    auto created = catalog_->CreateTable(table);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // One fast append of a file with ids [first, first + rows), with the pipeline's offsets.
  Status Append(std::int64_t first, std::int64_t rows) {
    FLOE_ASSIGN_OR_RETURN(auto table, catalog_->LoadTable(id_));
    const schema::Schema& schema = *table.metadata.CurrentSchema();
    FLOE_ASSIGN_OR_RETURN(auto arrow_schema, schema::ToArrowSchema(schema));
    arrow::Int64Builder ids;
    for (std::int64_t i = first; i < first + rows; ++i) FLOE_RETURN_IF_ARROW_ERROR(ids.Append(i));
    FLOE_ASSIGN_OR_RETURN_ARROW(auto column, ids.Finish());
    auto batch = arrow::RecordBatch::Make(arrow_schema, rows, {column});
    FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(table.metadata.location));
    const std::string relative = "data/" + NewUuid() + ".parquet";
    FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative));
    FLOE_ASSIGN_OR_RETURN(auto writer, columnar::ParquetFileWriter::Open(file->stream(), arrow_schema));
    FLOE_RETURN_IF_ERROR(writer->Write(*batch));
    FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
    FLOE_RETURN_IF_ERROR(file->Commit());
    iceberg::AppendFiles append;
    append.files.emplace_back();
    append.files.back().file_path = io.Uri(relative);
    append.files.back().file_size_in_bytes = written.bytes;
    FLOE_RETURN_IF_ERROR(iceberg::AddParquetMetrics(*written.metadata, schema, append.files.back()));
    append.summary["floe.offsets"] = R"({"t":{"0":)" + std::to_string(first + rows) + "}}";
    FLOE_ASSIGN_OR_RETURN(auto commit, iceberg::PrepareFastAppend(table.metadata, append));
    return catalog_->CommitTable({id_, commit.requirements, commit.updates}).status();
  }

  std::vector<iceberg::DataFile> Live() {
    auto table = catalog_->LoadTable(id_);
    EXPECT_TRUE(table.ok());
    auto live = iceberg::LiveDataFiles(table->metadata);
    EXPECT_TRUE(live.ok()) << live.status().ToString();
    return live.ok() ? *live : std::vector<iceberg::DataFile>{};
  }

  // Every id of the live files, sorted (as written, when `as_written`).
  std::vector<std::int64_t> Ids(bool as_written = false) {
    std::vector<std::int64_t> out;
    for (const auto& f : Live()) {
      auto input = arrow::io::ReadableFile::Open(f.file_path.substr(f.file_path.find("://") + 3));
      EXPECT_TRUE(input.ok()) << f.file_path;
      auto reader = parquet::arrow::OpenFile(*input, arrow::default_memory_pool());
      EXPECT_TRUE(reader.ok());
      auto table = (*reader)->ReadTable();
      EXPECT_TRUE(table.ok());
      for (const auto& chunk : (*table)->column(0)->chunks()) {
        const auto& ids = static_cast<const arrow::Int64Array&>(*chunk);
        for (std::int64_t i = 0; i < ids.length(); ++i) out.push_back(ids.Value(i));
      }
    }
    if (!as_written) std::sort(out.begin(), out.end());
    return out;
  }

  std::map<std::string, std::string, std::less<>> CurrentSummary() {
    auto table = catalog_->LoadTable(id_);
    return table->metadata.CurrentSnapshot()->summary;
  }

  fs::path dir_;
  std::unique_ptr<catalog::IcebergCatalog> catalog_;
  const catalog::TableIdentifier id_{{"lake"}, "events"};
};

CompactionOptions Target(std::int64_t rows) {
  CompactionOptions options;
  options.target_rows = rows;
  return options;
}

TEST_F(Compaction, MergesSmallFilesKeepingRowsAndOffsets) {
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto before = CurrentSummary();
  auto report = CompactTable(*catalog_, id_, Target(1000));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->files_before, 5u);
  EXPECT_EQ(report->rewritten_files, 5u);
  EXPECT_EQ(report->added_files, 1u);
  EXPECT_EQ(report->files_after, 1u);
  EXPECT_EQ(report->attempts, 1);
  auto table = catalog_->LoadTable(id_);
  EXPECT_EQ(report->snapshot_id, table->metadata.current_snapshot_id);
  EXPECT_EQ(report->metadata_location, table->metadata_location);

  const auto live = Live();
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].record_count, 50);
  EXPECT_FALSE(live[0].lower_bounds.empty());  // metrics, for pruning
  EXPECT_EQ(Ids(), Range(50));
  const auto after = CurrentSummary();
  EXPECT_EQ(after.at("operation"), "replace");
  EXPECT_EQ(after.at("floe.offsets"), before.at("floe.offsets"));
}

TEST(FilesToMergeNow, TakesTheSmallestSizeTier) {
  CompactionOptions o;  // size_ratio 3
  // Equal files all merge; listing order is kept.
  EXPECT_EQ(FilesToMergeNow({10, 10, 10, 10}, o), (std::vector<std::size_t>{0, 1, 2, 3}));
  // A file much larger than the small ones waits until enough bytes gathered beside it.
  EXPECT_EQ(FilesToMergeNow({1000, 10, 10, 10}, o), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(FilesToMergeNow({80, 10, 10, 10}, o), (std::vector<std::size_t>{0, 1, 2, 3}));  // 80 <= 3 x 30
  EXPECT_EQ(FilesToMergeNow({100, 10, 10, 10}, o), (std::vector<std::size_t>{1, 2, 3}));   // 100 > 3 x 30
  // Tiers: 10 joins 5, 40 joins 15, 200 does not join 55.
  EXPECT_EQ(FilesToMergeNow({200, 40, 5, 10}, o), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(FilesToMergeNow({7}, o), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(FilesToMergeNow({}, o).empty());
  o.size_ratio = 0;  // every small file
  EXPECT_EQ(FilesToMergeNow({1000, 10, 10}, o), (std::vector<std::size_t>{0, 1, 2}));
}

TEST_F(Compaction, LeavesALargerFileUntilEnoughSmallOnesGathered) {
  // Small at a 100,000-row target, but its bytes are far more than three times the others'.
  ASSERT_TRUE(Append(0, 20000).ok());
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(Append(20000 + k * 5, 5).ok());
  auto report = CompactTable(*catalog_, id_, Target(100000));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->rewritten_files, 3u);  // the three 5-row files
  EXPECT_EQ(report->files_after, 2u);
  EXPECT_EQ(Ids(), Range(20015));
  CompactionOptions all = Target(100000);
  all.size_ratio = 0;
  report = CompactTable(*catalog_, id_, all);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->rewritten_files, 2u);
  EXPECT_EQ(report->files_after, 1u);
  EXPECT_EQ(Ids(), Range(20015));
}

// A table with a default sort order: each merged file holds its rows in that order and says so.
TEST_F(Compaction, MergedFilesFollowTheTablesSortOrder) {
  schema::SortOrder order;
  order.order_id = 1;
  order.fields.push_back({schema::Transform{}, 1, schema::SortDirection::kDesc, schema::NullOrder::kNullsLast});
  auto loaded = catalog_->LoadTable(id_);
  ASSERT_TRUE(loaded.ok());
  auto sorted = catalog_->CommitTable({id_,
                                       {iceberg::AssertTableUuid{loaded->metadata.table_uuid}},
                                       {iceberg::AddSortOrderUpdate{order}, iceberg::SetDefaultSortOrderUpdate{}}});
  ASSERT_TRUE(sorted.ok()) << sorted.status().ToString();
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  auto report = CompactTable(*catalog_, id_, Target(1000));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const auto live = Live();
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].sort_order_id, 1);
  std::vector<std::int64_t> descending = Range(30);
  std::reverse(descending.begin(), descending.end());
  EXPECT_EQ(Ids(/*as_written=*/true), descending);
}

TEST_F(Compaction, SplitsMergedRowsAtTheTarget) {
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  auto report = CompactTable(*catalog_, id_, Target(20));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->added_files, 3u);
  std::vector<std::int64_t> counts;
  for (const auto& f : Live()) counts.push_back(f.record_count);
  std::sort(counts.begin(), counts.end());
  EXPECT_EQ(counts, (std::vector<std::int64_t>{10, 20, 20}));
  EXPECT_EQ(Ids(), Range(50));
}

TEST_F(Compaction, LeavesATableWithNothingToMergeAlone) {
  ASSERT_TRUE(Append(0, 10).ok());
  ASSERT_TRUE(Append(10, 30).ok());  // not small at target 30
  auto table = catalog_->LoadTable(id_);
  auto report = CompactTable(*catalog_, id_, Target(30));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->files_before, 2u);
  EXPECT_EQ(report->files_after, 2u);
  EXPECT_EQ(report->rewritten_files, 0u);
  EXPECT_EQ(report->attempts, 0);
  EXPECT_EQ(report->snapshot_id, table->metadata.current_snapshot_id);
  EXPECT_EQ(catalog_->LoadTable(id_)->metadata_location, table->metadata_location);
}

TEST_F(Compaction, AnEmptyTableHasNoSnapshotToReport) {
  auto report = CompactTable(*catalog_, id_);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->files_before, 0u);
  EXPECT_FALSE(report->snapshot_id.has_value());
}

TEST_F(Compaction, ACommitInBetweenIsRetriedOnFreshMetadata) {
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  CompactionOptions options = Target(1000);
  options.before_first_commit = [this] { return Append(100, 5); };
  auto report = CompactTable(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->attempts, 2);
  EXPECT_EQ(report->rewritten_files, 3u);
  EXPECT_EQ(report->files_after, 2u);  // the merged file and the append, which was not planned
  auto expected = Range(30);
  for (int i = 100; i < 105; ++i) expected.push_back(i);
  EXPECT_EQ(Ids(), expected);
  EXPECT_EQ(CurrentSummary().at("floe.offsets"), R"({"t":{"0":105}})");  // the append's, carried over
}

TEST_F(Compaction, APlanWhoseFilesAreGoneEndsInConflict) {
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  Result<CompactionReport> other = Status::Internal("not run");
  CompactionOptions options = Target(1000);
  options.before_first_commit = [&] {
    other = CompactTable(*catalog_, id_, Target(1000));  // wins the race
    return Status::OK();
  };
  auto report = CompactTable(*catalog_, id_, options);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), StatusCode::kConflict);
  EXPECT_NE(report.status().message().find("not live"), std::string::npos) << report.status().message();
  EXPECT_NE(report.status().message().find("lake.events"), std::string::npos) << report.status().message();
  EXPECT_EQ(catalog_->LoadTable(id_)->metadata.current_snapshot_id, other->snapshot_id);
  EXPECT_EQ(Ids(), Range(30));
}

TEST_F(Compaction, ByteTargetDecidesWhatIsSmallAndDryRunOnlyPlans) {
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto files = Live();
  std::int64_t bytes = 0;
  for (const auto& f : files) bytes += f.file_size_in_bytes;
  CompactionOptions options;
  options.target_file_size = files[0].file_size_in_bytes;  // the smallest size: no file is below it
  for (const auto& f : files) options.target_file_size = std::min(options.target_file_size, f.file_size_in_bytes);
  auto none = CompactTable(*catalog_, id_, options);
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->rewritten_files, 0u);

  options.target_file_size = bytes * 100;  // rows alone would never stop the merge
  options.dry_run = true;
  auto plan = CompactTable(*catalog_, id_, options);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->rewritten_files, 4u);
  EXPECT_EQ(plan->added_files, 1u);
  EXPECT_EQ(plan->removed.size(), 4u);
  EXPECT_EQ(plan->bytes_rewritten, bytes);
  EXPECT_EQ(plan->attempts, 0);
  EXPECT_EQ(Live().size(), 4u);  // nothing written or committed

  options.dry_run = false;
  auto done = CompactTable(*catalog_, id_, options);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->removed.size(), 4u);
  ASSERT_EQ(done->added.size(), 1u);
  EXPECT_EQ(done->added[0].record_count, 40);
  EXPECT_EQ(Live()[0].file_path, done->added[0].file_path);
  EXPECT_EQ(done->bytes_rewritten, bytes);
  EXPECT_EQ(Ids(), Range(40));
}

TEST_F(Compaction, RejectsBadOptions) {
  EXPECT_EQ(CompactTable(*catalog_, id_, Target(-1)).status().code(), StatusCode::kInvalidArgument);
  CompactionOptions no_bytes;
  no_bytes.target_file_size = 0;
  EXPECT_EQ(CompactTable(*catalog_, id_, no_bytes).status().code(), StatusCode::kInvalidArgument);
  CompactionOptions no_attempts;
  no_attempts.max_commit_attempts = 0;
  EXPECT_EQ(CompactTable(*catalog_, id_, no_attempts).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CompactTable(*catalog_, {{"lake"}, "missing"}).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace floe::maintenance
