// maintenance::RemoveOrphanFiles against Floe's own catalog and a local warehouse: old
// unreferenced files go; young ones, referenced ones, caller-declared live ones, metadata
// files in the log and a Delta log sharing the location stay.
#include "floe/maintenance/orphan_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "floe/maintenance/expire_snapshots.h"
#include "iceberg_test_table.h"

namespace floe::maintenance {
namespace {

using testing::IcebergTestTable;
using testing::kDayMs;
using testing::LocalPath;
namespace fs = std::filesystem;

class Orphans : public IcebergTestTable {
 protected:
  // A file under the table location with some bytes; its modification time is now.
  std::string Put(const std::string& relative) {
    const fs::path path = fs::path(Location()) / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "not referenced by anything";
    return path.string();
  }
  // Options whose "now" is two days ahead: every file written so far is old.
  OrphanOptions Later() {
    OrphanOptions options;
    options.now_ms = iceberg::NowMillis() + 2 * kDayMs;
    return options;
  }
  static std::set<std::string> Paths(const std::vector<std::string>& uris) {
    std::set<std::string> out;
    for (const auto& u : uris) out.insert(LocalPath(u));
    return out;
  }
};

TEST_F(Orphans, RemovesOldUnreferencedFilesOnly) {
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const std::string data_orphan = Put("data/0-0-zombie.parquet");      // a fenced writer's file
  const std::string nested_orphan = Put("data/p=1/0-5-zombie.parquet");
  const std::string manifest_orphan = Put("metadata/lost-race-m0.avro");  // a lost commit's manifest
  const std::string young = Put("data/in-flight.parquet");
  const std::string delta_live = Put("data/delta-only.parquet");
  const std::string delta_log = Put("_delta_log/00000000000000000000.json");
  const std::string hint = Put("metadata/version-hint.text");
  auto options = Later();
  // The in-flight file was written "now" in the options' clock: two days after the others.
  fs::last_write_time(young, fs::file_time_type::clock::now() + std::chrono::hours(48));
  options.extra_live_paths = {"data/delta-only.parquet"};

  auto report = RemoveOrphanFiles(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(Paths(report->orphans), (std::set<std::string>{data_orphan, nested_orphan, manifest_orphan}));
  EXPECT_EQ(report->young_files, 1u);
  EXPECT_EQ(report->delete_failures, 0u);
  EXPECT_GT(report->orphan_bytes, 0);
  EXPECT_EQ(report->files_listed, report->live_files + report->young_files + report->orphans.size());
  for (const auto& path : {data_orphan, nested_orphan, manifest_orphan}) EXPECT_FALSE(fs::exists(path)) << path;
  for (const auto& path : {young, delta_live, delta_log, hint}) EXPECT_TRUE(fs::exists(path)) << path;
  ExpectReferencedFilesExist();
  EXPECT_EQ(Ids().size(), 30u);
}

TEST_F(Orphans, KeepsFilesOfEverySnapshotAndRemovesWhatExpiryLeftBehind) {
  const auto small_files = AppendAndCompact(5);
  // Older snapshots still read the small files: nothing is an orphan.
  auto first = RemoveOrphanFiles(*catalog_, id_, Later());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->orphans.empty());
  for (const auto& f : small_files) EXPECT_TRUE(fs::exists(LocalPath(f.file_path)));

  // An expiry whose deletes never ran (a crash after its commit): the orphan pass removes them.
  ExpiryOptions expiry;
  expiry.min_snapshots = 1;
  expiry.now_ms = iceberg::NowMillis() + 8 * kDayMs;
  expiry.dry_run = true;
  auto plan = ExpireSnapshots(*catalog_, id_, expiry);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_TRUE(catalog_
                  ->CommitTable({id_,
                                 {},
                                 {iceberg::RemoveSnapshotsUpdate{plan->expired_snapshot_ids}}})
                  .ok());
  auto second = RemoveOrphanFiles(*catalog_, id_, Later());
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(Paths(second->orphans), Paths(plan->deleted_paths));
  for (const auto& f : small_files) EXPECT_FALSE(fs::exists(LocalPath(f.file_path)));
  ExpectReferencedFilesExist();
  EXPECT_EQ(Ids().size(), 50u);
}

class OrphansWithAShortMetadataLog : public Orphans {
 protected:
  // With delete-after-commit off (Floe's catalog deletes them at commit otherwise), the files
  // that fell off the log are the orphan pass's.
  OrphansWithAShortMetadataLog() {
    properties_["write.metadata.previous-versions-max"] = "2";
    properties_["write.metadata.delete-after-commit.enabled"] = "false";
  }
  std::set<std::string> MetadataJsonFiles() {
    std::set<std::string> out;
    for (const auto& path : FilesOnDisk()) {
      if (path.size() > 14 && path.compare(path.size() - 14, 14, ".metadata.json") == 0) out.insert(path);
    }
    return out;
  }
};

TEST_F(OrphansWithAShortMetadataLog, RemovesMetadataFilesThatFellOffTheLog) {
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(Append(k * 10, 10).ok());
  const auto table = Load();
  ASSERT_EQ(table.metadata.metadata_log.size(), 2u);
  std::set<std::string> kept{LocalPath(table.metadata_location)};
  for (const auto& entry : table.metadata.metadata_log) kept.insert(LocalPath(entry.metadata_file));
  const auto all = MetadataJsonFiles();
  ASSERT_EQ(all.size(), 6u);  // the create and five commits
  auto report = RemoveOrphanFiles(*catalog_, id_, Later());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->orphans.size(), 3u);
  EXPECT_EQ(MetadataJsonFiles(), kept);
  EXPECT_EQ(Ids().size(), 50u);
  ExpectReferencedFilesExist();
}

TEST_F(Orphans, ReportsEveryFileTheMetadataReferences) {
  AppendAndCompact(3);
  auto files = IcebergReferencedFiles(*catalog_, id_);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  const auto expected = ReferencedFiles();
  EXPECT_EQ(std::set<std::string>(files->begin(), files->end()), std::set<std::string>(expected.begin(), expected.end()));
  EXPECT_EQ(IcebergReferencedFiles(*catalog_, {{"lake"}, "missing"}).status().code(), StatusCode::kNotFound);
}

TEST_F(Orphans, DryRunListsWithoutDeleting) {
  ASSERT_TRUE(Append(0, 10).ok());
  const std::string orphan = Put("data/zombie.parquet");
  auto options = Later();
  options.dry_run = true;
  auto report = RemoveOrphanFiles(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(Paths(report->orphans), (std::set<std::string>{orphan}));
  EXPECT_TRUE(fs::exists(orphan));
}

TEST_F(Orphans, SpellingsOfOneLocationAreOneFile) {
  ASSERT_TRUE(Append(0, 10).ok());
  const std::string a = Put("data/a.parquet");
  const std::string b = Put("data/b.parquet");
  auto options = Later();
  options.extra_live_paths = {"file:" + a, "file://" + b};
  auto report = RemoveOrphanFiles(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->orphans.empty());
  EXPECT_TRUE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
}

TEST_F(Orphans, RejectsAnAgeThatWouldCatchInFlightWrites) {
  OrphanOptions options;
  options.older_than = std::chrono::seconds(5);
  EXPECT_EQ(RemoveOrphanFiles(*catalog_, id_, options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace floe::maintenance
