// maintenance::ExpireSnapshots against Floe's own catalog and a local warehouse: which
// snapshots go (age, min_snapshots, refs, the chain to the newest floe.offsets), which files
// are deleted (only those no kept snapshot reaches), dry runs, and a commit racing the expiry.
#include "floe/maintenance/expire_snapshots.h"

#include <gtest/gtest.h>

#include <set>

#include "iceberg_test_table.h"

namespace floe::maintenance {
namespace {

using testing::IcebergTestTable;
using testing::kDayMs;
using testing::Range;
using testing::LocalPath;
namespace fs = std::filesystem;
using testing::RacingCatalog;

class Expiry : public IcebergTestTable {
 protected:
  // Options under which every snapshot made so far is older than the retention.
  ExpiryOptions Later(int min_snapshots) {
    ExpiryOptions options;
    options.min_snapshots = min_snapshots;
    options.now_ms = iceberg::NowMillis() + 8 * kDayMs;
    return options;
  }
  std::vector<std::int64_t> SnapshotIds() {
    std::vector<std::int64_t> ids;
    for (const auto& s : Load().metadata.snapshots) ids.push_back(s.snapshot_id);
    return ids;
  }
};

TEST_F(Expiry, KeepsTheNewestMinSnapshotsAndDeletesTheRestsFiles) {
  for (int k = 0; k < 15; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto before = SnapshotIds();
  auto report = ExpireSnapshots(*catalog_, id_, Later(10));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->expired_snapshot_ids, std::vector<std::int64_t>(before.begin(), before.begin() + 5));
  EXPECT_EQ(report->snapshots_before, 15u);
  EXPECT_EQ(report->snapshots_after, 10u);
  EXPECT_EQ(report->attempts, 1);
  EXPECT_EQ(SnapshotIds(), std::vector<std::int64_t>(before.begin() + 5, before.end()));
  EXPECT_EQ(report->metadata_location, Load().metadata_location);
  // Fast appends carry every manifest forward: only the expired snapshots' manifest lists are
  // unreachable; their manifests and data files are still in the kept snapshots.
  EXPECT_EQ(report->deleted.manifest_lists, 5u);
  EXPECT_EQ(report->deleted.manifests, 0u);
  EXPECT_EQ(report->deleted.data_files, 0u);
  EXPECT_EQ(report->delete_failures, 0u);
  EXPECT_EQ(Ids(), Range(150));
  ExpectReferencedFilesExist();
  for (const auto& path : report->deleted_paths) EXPECT_FALSE(fs::exists(LocalPath(path))) << path;
  // The snapshot-log no longer names the expired snapshots.
  for (const auto& entry : Load().metadata.snapshot_log) {
    EXPECT_EQ(std::count(before.begin(), before.begin() + 5, entry.snapshot_id), 0);
  }
}

TEST_F(Expiry, DeletesDataFilesAndManifestsOnlyExpiredSnapshotsReach) {
  const auto small_files = AppendAndCompact(5);
  ASSERT_TRUE(Append(50, 10).ok());  // the head: snapshot 7, after the replace

  auto report = ExpireSnapshots(*catalog_, id_, Later(2));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->expired_snapshot_ids.size(), 5u);  // the five appends; the replace and the head stay
  EXPECT_EQ(report->deleted.manifest_lists, 5u);
  EXPECT_EQ(report->deleted.data_files, 5u);  // the small files the compaction replaced
  // Each append wrote one manifest; the replace rewrote all five (their files now DELETED),
  // so the originals are in no kept snapshot's list.
  EXPECT_EQ(report->deleted.manifests, 5u);
  EXPECT_GT(report->deleted.bytes, 0);
  for (const auto& f : small_files) EXPECT_FALSE(fs::exists(LocalPath(f.file_path))) << f.file_path;
  EXPECT_EQ(Ids(), Range(60));
  ExpectReferencedFilesExist();
}

TEST_F(Expiry, SparesDataFilesAnotherFormatsLogStillReferences) {
  const auto small_files = AppendAndCompact(3);
  ASSERT_EQ(small_files.size(), 3u);
  auto options = Later(1);
  const std::string location = Load().metadata.location;
  // One as the Delta log names it (relative to the table), one as an absolute URI.
  options.extra_live_paths = {small_files[0].file_path.substr(location.size() + 1), small_files[1].file_path};
  auto report = ExpireSnapshots(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->deleted.data_files, 1u);
  EXPECT_TRUE(fs::exists(LocalPath(small_files[0].file_path)));
  EXPECT_TRUE(fs::exists(LocalPath(small_files[1].file_path)));
  EXPECT_FALSE(fs::exists(LocalPath(small_files[2].file_path)));
}

TEST_F(Expiry, KeepsEverySnapshotYoungerThanTheRetention) {
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  ExpiryOptions options;
  options.min_snapshots = 1;  // the clock's now: all four are seconds old
  auto report = ExpireSnapshots(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->expired_snapshot_ids.empty());
  EXPECT_EQ(report->attempts, 0);
  EXPECT_EQ(SnapshotIds().size(), 4u);
}

// max_snapshots bounds the count whatever the age: at 1 s commits the retention alone would
// keep a week of snapshots (issue 34).
TEST_F(Expiry, KeepsAtMostMaxSnapshotsHoweverYoung) {
  for (int k = 0; k < 12; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto before = SnapshotIds();
  ExpiryOptions options;  // the clock's now and a week's retention: every snapshot is young
  options.min_snapshots = 2;
  options.max_snapshots = 5;
  auto report = ExpireSnapshots(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->expired_snapshot_ids, std::vector<std::int64_t>(before.begin(), before.begin() + 7));
  EXPECT_EQ(SnapshotIds(), std::vector<std::int64_t>(before.begin() + 7, before.end()));
  EXPECT_EQ(Ids(), Range(120));
  ExpectReferencedFilesExist();
  // min_snapshots wins over a smaller max_snapshots.
  options.min_snapshots = 4;
  options.max_snapshots = 1;
  report = ExpireSnapshots(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(SnapshotIds(), std::vector<std::int64_t>(before.begin() + 8, before.end()));
  options.max_snapshots = 0;
  EXPECT_EQ(ExpireSnapshots(*catalog_, id_, options).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(Expiry, KeepsTheChainToTheNewestSnapshotWithOffsets) {
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto with_offsets = SnapshotIds();
  // Other writers' commits without floe.offsets: the pipeline walks back through them.
  for (int k = 3; k < 8; ++k) ASSERT_TRUE(Append(k * 10, 10, /*offsets=*/false).ok());
  auto report = ExpireSnapshots(*catalog_, id_, Later(2));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->expired_snapshot_ids, std::vector<std::int64_t>(with_offsets.begin(), with_offsets.begin() + 2));
  const auto kept = SnapshotIds();
  EXPECT_EQ(kept.size(), 6u);
  EXPECT_EQ(kept.front(), with_offsets.back());
  EXPECT_EQ(Ids(), Range(80));
}

TEST_F(Expiry, KeepsSnapshotsBranchesAndTagsPointAt) {
  for (int k = 0; k < 6; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto ids = SnapshotIds();
  const auto tagged_files = iceberg::LiveDataFiles(Load().metadata, ids[1]);
  ASSERT_TRUE(tagged_files.ok());
  iceberg::SnapshotRef tag;
  tag.snapshot_id = ids[1];
  tag.type = iceberg::SnapshotRefType::kTag;
  iceberg::SnapshotRef branch;
  branch.snapshot_id = ids[3];
  branch.type = iceberg::SnapshotRefType::kBranch;
  branch.min_snapshots_to_keep = 1;
  ASSERT_TRUE(catalog_
                  ->CommitTable({id_,
                                 {},
                                 {iceberg::SetSnapshotRefUpdate{"audit", tag},
                                  iceberg::SetSnapshotRefUpdate{"dev", branch}}})
                  .ok());
  auto report = ExpireSnapshots(*catalog_, id_, Later(1));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  // Kept: the tag's 1, the branch head 3, main's head 5 (the newest snapshot with offsets).
  EXPECT_EQ(report->expired_snapshot_ids, (std::vector<std::int64_t>{ids[0], ids[2], ids[4]}));
  EXPECT_EQ(SnapshotIds(), (std::vector<std::int64_t>{ids[1], ids[3], ids[5]}));
  EXPECT_EQ(Ids(ids[1]), Range(20));  // time travel to the tag still reads
  for (const auto& f : *tagged_files) EXPECT_TRUE(fs::exists(LocalPath(f.file_path)));
  ExpectReferencedFilesExist();
}

TEST_F(Expiry, DryRunPlansWithoutChangingAnything) {
  AppendAndCompact(5);
  const std::string location = Load().metadata_location;
  const auto disk = FilesOnDisk();
  auto options = Later(1);
  options.dry_run = true;
  auto plan = ExpireSnapshots(*catalog_, id_, options);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->expired_snapshot_ids.size(), 5u);
  EXPECT_EQ(plan->deleted.data_files, 5u);
  EXPECT_EQ(plan->deleted.manifest_lists, 5u);
  EXPECT_EQ(plan->deleted_paths.size(), plan->deleted.data_files + plan->deleted.manifests + 5u);
  EXPECT_EQ(plan->attempts, 0);
  EXPECT_EQ(Load().metadata_location, location);
  EXPECT_EQ(FilesOnDisk(), disk);

  // The real run does what the plan said.
  options.dry_run = false;
  auto done = ExpireSnapshots(*catalog_, id_, options);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->expired_snapshot_ids, plan->expired_snapshot_ids);
  EXPECT_EQ(std::set<std::string>(done->deleted_paths.begin(), done->deleted_paths.end()),
            std::set<std::string>(plan->deleted_paths.begin(), plan->deleted_paths.end()));
  EXPECT_EQ(Ids(), Range(50));
}

TEST_F(Expiry, AnIngestionCommitInTheRaceIsKeptAndTheExpiryRetried) {
  for (int k = 0; k < 6; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  bool raced = false;
  RacingCatalog racing(*catalog_, [&]() {
    if (!raced) {
      raced = true;
      EXPECT_TRUE(Append(60, 10).ok());
    }
    return false;
  });
  auto report = ExpireSnapshots(racing, id_, Later(2));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->attempts, 2);
  // Planned again on the fresh table: its 7 snapshots minus the newest 2.
  EXPECT_EQ(report->expired_snapshot_ids.size(), 5u);
  EXPECT_EQ(SnapshotIds().size(), 2u);
  EXPECT_EQ(Ids(), Range(70));
  ExpectReferencedFilesExist();
}

TEST_F(Expiry, RejectsBadOptions) {
  ExpiryOptions options;
  options.min_snapshots = 0;
  EXPECT_EQ(ExpireSnapshots(*catalog_, id_, options).status().code(), StatusCode::kInvalidArgument);
  options = {};
  options.retention = std::chrono::milliseconds(-1);
  EXPECT_EQ(ExpireSnapshots(*catalog_, id_, options).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(Expiry, AnEmptyTableHasNothingToExpire) {
  auto report = ExpireSnapshots(*catalog_, id_, Later(1));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->expired_snapshot_ids.empty());
}

}  // namespace
}  // namespace floe::maintenance
