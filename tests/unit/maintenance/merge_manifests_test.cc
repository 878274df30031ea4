// maintenance::MergeManifests against Floe's own catalog and a local warehouse: many small
// manifests (one per fast append) become few, with the same files, rows, sequence numbers
// and offsets; below the minimum count nothing happens; a commit in the race is kept.
#include "floe/maintenance/merge_manifests.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "floe/iceberg/reachable_files.h"
#include "floe/iceberg/table_scan_internal.h"
#include "iceberg_test_table.h"

namespace floe::maintenance {
namespace {

using testing::IcebergTestTable;
using testing::Range;
using testing::RacingCatalog;

class ManifestMerge : public IcebergTestTable {
 protected:
  std::size_t ManifestCount() {
    const auto table = Load();
    auto manifests = iceberg::ListSnapshotManifests(*table.metadata.CurrentSnapshot());
    EXPECT_TRUE(manifests.ok()) << manifests.status().ToString();
    return manifests.ok() ? manifests->size() : 0;
  }
  // file path -> (status, snapshot id, data sequence number, file sequence number) of the
  // current snapshot's entries.
  std::map<std::string, std::tuple<int, std::int64_t, std::int64_t, std::int64_t>> Entries() {
    std::map<std::string, std::tuple<int, std::int64_t, std::int64_t, std::int64_t>> out;
    const auto table = Load();
    auto manifests = iceberg::ReadSnapshotManifests(table.metadata, *table.metadata.CurrentSnapshot());
    EXPECT_TRUE(manifests.ok()) << manifests.status().ToString();
    if (!manifests.ok()) return out;
    for (const auto& m : *manifests) {
      for (const auto& e : m.entries) {
        out[e.data_file.file_path] = {static_cast<int>(e.status), e.snapshot_id.value_or(-1),
                                      e.sequence_number.value_or(-1), e.file_sequence_number.value_or(-1)};
      }
    }
    return out;
  }
  static ManifestMergeOptions MinCount(int n) {
    ManifestMergeOptions options;
    options.min_count_to_merge = n;
    return options;
  }
};

TEST_F(ManifestMerge, MergesSmallManifestsKeepingFilesRowsAndOffsets) {
  for (int k = 0; k < 8; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  ASSERT_EQ(ManifestCount(), 8u);
  const auto before = Load();
  const auto entries_before = Entries();
  auto report = MergeManifests(*catalog_, id_, MinCount(5));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->manifests_before, 8u);
  EXPECT_EQ(report->manifests_replaced, 8u);
  EXPECT_EQ(report->manifests_created, 1u);
  EXPECT_EQ(report->manifests_after, 1u);
  EXPECT_EQ(report->attempts, 1);
  EXPECT_EQ(ManifestCount(), 1u);
  const auto after = Load();
  EXPECT_EQ(report->snapshot_id, after.metadata.current_snapshot_id);
  const iceberg::Snapshot& snapshot = *after.metadata.CurrentSnapshot();
  const iceberg::Snapshot& parent = *before.metadata.CurrentSnapshot();
  EXPECT_EQ(snapshot.parent_snapshot_id, parent.snapshot_id);
  EXPECT_EQ(snapshot.operation(), "replace");
  EXPECT_EQ(snapshot.SummaryValue("floe.offsets"), parent.SummaryValue("floe.offsets"));
  EXPECT_EQ(snapshot.SummaryValue("total-records"), parent.SummaryValue("total-records"));
  EXPECT_EQ(snapshot.SummaryValue("total-data-files"), parent.SummaryValue("total-data-files"));
  EXPECT_EQ(snapshot.SummaryValue("manifests-replaced"), "8");
  EXPECT_EQ(Ids(), Range(80));
  // Same files, now EXISTING, with the snapshot ids and sequence numbers they were added with.
  const auto entries_after = Entries();
  ASSERT_EQ(entries_after.size(), entries_before.size());
  for (const auto& [path, entry] : entries_before) {
    ASSERT_TRUE(entries_after.count(path)) << path;
    const auto& [status, snapshot_id, sequence, file_sequence] = entries_after.at(path);
    EXPECT_EQ(status, static_cast<int>(iceberg::EntryStatus::kExisting));
    EXPECT_EQ(snapshot_id, std::get<1>(entry));
    EXPECT_EQ(sequence, std::get<2>(entry));
    EXPECT_EQ(file_sequence, std::get<3>(entry));
  }
  // Older snapshots keep their manifests: time travel still reads.
  EXPECT_EQ(Ids(parent.snapshot_id), Range(80));
  ExpectReferencedFilesExist();
  // Appends after the merge go on as usual.
  ASSERT_TRUE(Append(80, 10).ok());
  EXPECT_EQ(ManifestCount(), 2u);
  EXPECT_EQ(Ids(), Range(90));
}

TEST_F(ManifestMerge, FewerManifestsThanTheMinimumAreLeftAlone) {
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const std::string location = Load().metadata_location;
  auto report = MergeManifests(*catalog_, id_, MinCount(5));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->attempts, 0);
  EXPECT_EQ(report->manifests_after, 4u);
  EXPECT_EQ(Load().metadata_location, location);
  // The table property's default (100) leaves it alone too.
  report = MergeManifests(*catalog_, id_);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->attempts, 0);
}

TEST_F(ManifestMerge, PacksBinsUpToTheTargetSize) {
  for (int k = 0; k < 6; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto table = Load();
  auto manifests = iceberg::ListSnapshotManifests(*table.metadata.CurrentSnapshot());
  ASSERT_TRUE(manifests.ok());
  auto options = MinCount(2);
  std::int64_t longest = 0;
  for (const auto& m : *manifests) longest = std::max(longest, m.length);
  options.target_size_bytes = longest * 5 / 2;  // two manifests per bin, never three
  auto report = MergeManifests(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->manifests_created, 3u);
  EXPECT_EQ(ManifestCount(), 3u);
  EXPECT_EQ(Ids(), Range(60));
}

TEST_F(ManifestMerge, DryRunPlansWithoutWriting) {
  for (int k = 0; k < 6; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto disk = FilesOnDisk();
  auto options = MinCount(2);
  options.dry_run = true;
  auto report = MergeManifests(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->manifests_replaced, 6u);
  EXPECT_EQ(report->manifests_after, 1u);
  EXPECT_EQ(report->attempts, 0);
  EXPECT_EQ(FilesOnDisk(), disk);
}

TEST_F(ManifestMerge, AMergeThatLostTheRaceIsRebasedOnTheWinner) {
  for (int k = 0; k < 6; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  RacingCatalog racing(*catalog_, [&]() {
    EXPECT_TRUE(Append(60, 10).ok());
    return false;
  });
  auto report = MergeManifests(racing, id_, MinCount(2));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->attempts, 2);
  // The six merged into one, written once; the winner's manifest beside it.
  EXPECT_EQ(report->manifests_before, 7u);
  EXPECT_EQ(report->manifests_replaced, 6u);
  EXPECT_EQ(report->manifests_after, 2u);
  EXPECT_EQ(ManifestCount(), 2u);
  std::size_t merged_manifests_written = 0;
  for (const auto& path : FilesOnDisk()) merged_manifests_written += path.find("-m0.avro") != std::string::npos;
  EXPECT_EQ(merged_manifests_written, 7u + 1u);  // the seven appends' and the merge's
  EXPECT_EQ(Ids(), Range(70));
  ExpectReferencedFilesExist();
  // A second merge takes the winner's manifest in.
  ASSERT_TRUE(MergeManifests(*catalog_, id_, MinCount(2)).ok());
  EXPECT_EQ(ManifestCount(), 1u);
  EXPECT_EQ(Ids(), Range(70));
  EXPECT_EQ(Load().metadata.CurrentSnapshot()->SummaryValue("floe.offsets"), R"({"t":{"0":70}})");
}

TEST_F(ManifestMerge, RejectsBadOptions) {
  EXPECT_EQ(MergeManifests(*catalog_, id_, MinCount(1)).status().code(), StatusCode::kInvalidArgument);
  ManifestMergeOptions options;
  options.target_size_bytes = 0;
  EXPECT_EQ(MergeManifests(*catalog_, id_, options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::maintenance
