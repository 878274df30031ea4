// The replace-files commit (compaction) and the snapshot listing it relies on, on a table in
// a temporary directory: commits are applied to metadata with CheckRequirements and
// ApplyUpdates, as the catalog does. Data files are not written: manifests only name them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/replace_files.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_scan.h"
#include "floe/iceberg/table_scan_internal.h"
#include "floe/iceberg/table_update.h"
#include "floe/storage/file_io.h"
#include "iceberg_test_util.h"
#include "support/temp_dir.h"

namespace floe::iceberg {
namespace {

using testing::PField;

class ReplaceTempDir : public floe::test_support::TempDir {
 public:
  ReplaceTempDir() : floe::test_support::TempDir("floe-replace") {}
};

class IcebergReplace : public ::testing::Test {
 protected:
  void SetUp() override {
    schema::PartitionSpec spec;
    spec.fields = {PField(2, 1000, "category", schema::TransformKind::kIdentity)};
    auto m = NewTableMetadata(testing::SampleSchema(), spec, schema::SortOrder{}, dir_.path().string());
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    metadata_ = std::move(m).value();
  }

  DataFile File(const std::string& name, const std::string& category, std::int64_t records) {
    DataFile f;
    f.file_path = "file://" + (dir_.path() / "data" / ("category=" + category) / (name + ".parquet")).string();
    f.partition.emplace_back(Literal(category));
    f.record_count = records;
    f.file_size_in_bytes = 100 * records;
    f.value_counts = {{1, records}};
    f.lower_bounds = {{2, category}};
    f.upper_bounds = {{2, category}};
    return f;
  }

  // Applies a commit the way the catalog does: requirements against the metadata, then updates.
  Status Apply(const PreparedCommit& commit) {
    FLOE_RETURN_IF_ERROR(CheckRequirements(&metadata_, commit.requirements));
    FLOE_ASSIGN_OR_RETURN(metadata_, ApplyUpdates(metadata_, commit.updates, NowMillis()));
    return Status::OK();
  }

  std::int64_t Append(const std::vector<DataFile>& files, std::map<std::string, std::string> summary = {}) {
    AppendFiles append;
    append.files = files;
    append.summary = std::move(summary);
    auto commit = PrepareFastAppend(metadata_, append);
    EXPECT_TRUE(commit.ok()) << commit.status().ToString();
    if (!commit.ok()) return 0;
    const Status st = Apply(*commit);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return commit->snapshot_id;
  }

  std::set<std::string> LivePaths(std::optional<std::int64_t> snapshot = std::nullopt) {
    auto files = LiveDataFiles(metadata_, snapshot);
    EXPECT_TRUE(files.ok()) << files.status().ToString();
    std::set<std::string> out;
    if (files.ok()) {
      for (const auto& f : *files) out.insert(f.file_path);
    }
    return out;
  }

  ReplaceTempDir dir_;
  TableMetadata metadata_;
};

TEST_F(IcebergReplace, SwapsFilesKeepsHistoryAndSequenceNumbers) {
  const DataFile a = File("a", "x", 10), b = File("b", "x", 20), c = File("c", "y", 5), d = File("d", "y", 7);
  const std::int64_t s1 = Append({a, b, c});
  const std::int64_t s2 = Append({d});
  const std::string d_manifest = ReadManifestList(metadata_.CurrentSnapshot()->manifest_list)->front().manifest_path;
  const DataFile ab = File("ab", "x", 30);

  auto commit = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {ab});
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_EQ(commit->requirements.size(), 2u);
  EXPECT_EQ(std::get<AssertTableUuid>(commit->requirements[0]).uuid, metadata_.table_uuid);
  EXPECT_EQ(std::get<AssertRefSnapshotId>(commit->requirements[1]).ref, "main");
  EXPECT_EQ(std::get<AssertRefSnapshotId>(commit->requirements[1]).snapshot_id, s2);
  ASSERT_TRUE(Apply(*commit).ok());

  const Snapshot* snap = metadata_.CurrentSnapshot();
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->snapshot_id, commit->snapshot_id);
  EXPECT_EQ(snap->parent_snapshot_id, s2);
  EXPECT_EQ(snap->sequence_number, 3);
  EXPECT_EQ(snap->operation(), "replace");
  EXPECT_EQ(snap->SummaryValue("added-data-files"), "1");
  EXPECT_EQ(snap->SummaryValue("added-records"), "30");
  EXPECT_EQ(snap->SummaryValue("added-files-size"), "3000");
  EXPECT_EQ(snap->SummaryValue("deleted-data-files"), "2");
  EXPECT_EQ(snap->SummaryValue("deleted-records"), "30");
  EXPECT_EQ(snap->SummaryValue("removed-files-size"), "3000");
  EXPECT_EQ(snap->SummaryValue("changed-partition-count"), "1");
  EXPECT_EQ(snap->SummaryValue("total-data-files"), "3");
  EXPECT_EQ(snap->SummaryValue("total-records"), "42");
  EXPECT_EQ(snap->SummaryValue("total-files-size"), "4200");

  EXPECT_EQ(LivePaths(), (std::set<std::string>{ab.file_path, c.file_path, d.file_path}));
  EXPECT_EQ(LivePaths(s2), (std::set<std::string>{a.file_path, b.file_path, c.file_path, d.file_path}));
  EXPECT_EQ(LivePaths(s1), (std::set<std::string>{a.file_path, b.file_path, c.file_path}));

  auto manifests = ReadSnapshotManifests(metadata_, *snap);
  ASSERT_TRUE(manifests.ok()) << manifests.status().ToString();
  ASSERT_EQ(manifests->size(), 3u);
  // 1: the new file, ADDED in this snapshot with its sequence number.
  const auto& added = (*manifests)[0];
  EXPECT_EQ(added.manifest.added_snapshot_id, snap->snapshot_id);
  EXPECT_EQ(added.manifest.added_files_count, 1);
  ASSERT_EQ(added.entries.size(), 1u);
  EXPECT_EQ(added.entries[0].status, EntryStatus::kAdded);
  EXPECT_EQ(added.entries[0].data_file.file_path, ab.file_path);
  EXPECT_EQ(added.entries[0].sequence_number, 3);
  EXPECT_EQ(added.entries[0].data_file.value_counts, ab.value_counts);
  // 2: the first append's manifest rewritten: a and b DELETED now, c EXISTING as before.
  const auto& rewritten = (*manifests)[1];
  EXPECT_EQ(rewritten.manifest.added_snapshot_id, snap->snapshot_id);
  EXPECT_EQ(rewritten.manifest.sequence_number, 3);
  EXPECT_EQ(rewritten.manifest.min_sequence_number, 1);
  EXPECT_EQ(rewritten.manifest.deleted_files_count, 2);
  EXPECT_EQ(rewritten.manifest.existing_files_count, 1);
  EXPECT_EQ(rewritten.manifest.deleted_rows_count, 30);
  ASSERT_EQ(rewritten.entries.size(), 3u);
  for (const auto& e : rewritten.entries) {
    SCOPED_TRACE(e.data_file.file_path);
    EXPECT_EQ(e.sequence_number, 1);
    EXPECT_EQ(e.file_sequence_number, 1);
    if (e.data_file.file_path == c.file_path) {
      EXPECT_EQ(e.status, EntryStatus::kExisting);
      EXPECT_EQ(e.snapshot_id, s1);
    } else {
      EXPECT_EQ(e.status, EntryStatus::kDeleted);
      EXPECT_EQ(e.snapshot_id, snap->snapshot_id);
    }
  }
  // 3: the second append's manifest, carried over as it was.
  EXPECT_EQ((*manifests)[2].manifest.manifest_path, d_manifest);
  EXPECT_EQ((*manifests)[2].manifest.added_snapshot_id, s2);
  EXPECT_EQ((*manifests)[2].entries.at(0).sequence_number, 2);

  // An append on top of the replace sees its totals.
  Append({File("e", "x", 1)});
  EXPECT_EQ(metadata_.CurrentSnapshot()->SummaryValue("total-data-files"), "4");
  EXPECT_EQ(metadata_.CurrentSnapshot()->SummaryValue("total-records"), "43");
}

// A compaction takes files from one manifest per ingestion commit: the touched manifests
// become one rewritten manifest, so the table's manifest count shrinks with its files.
TEST_F(IcebergReplace, TouchedManifestsBecomeOne) {
  const DataFile a = File("a", "x", 1), b = File("b", "x", 2), c = File("c", "x", 3), d = File("d", "x", 4);
  const std::int64_t s1 = Append({a});
  Append({b});
  Append({c, d});
  const DataFile abc = File("abc", "x", 6);
  auto commit = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path, c.file_path}, {abc});
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_TRUE(Apply(*commit).ok());
  auto manifests = ReadSnapshotManifests(metadata_, *metadata_.CurrentSnapshot());
  ASSERT_TRUE(manifests.ok()) << manifests.status().ToString();
  ASSERT_EQ(manifests->size(), 2u);  // added, and the three appends' manifests as one
  const auto& rewritten = (*manifests)[1];
  EXPECT_EQ(rewritten.manifest.deleted_files_count, 3);
  EXPECT_EQ(rewritten.manifest.existing_files_count, 1);
  EXPECT_EQ(rewritten.manifest.min_sequence_number, 3);  // of the live entries: d's
  ASSERT_EQ(rewritten.entries.size(), 4u);
  for (const auto& e : rewritten.entries) {
    if (e.data_file.file_path == d.file_path) {
      EXPECT_EQ(e.status, EntryStatus::kExisting);
    }
    if (e.data_file.file_path == a.file_path) {
      EXPECT_EQ(e.sequence_number, 1);
    }
  }
  EXPECT_EQ(LivePaths(), (std::set<std::string>{abc.file_path, d.file_path}));
  EXPECT_EQ(LivePaths(s1), (std::set<std::string>{a.file_path}));
  // Replacing abc and d touches both manifests: again one rewritten manifest beside the added.
  const DataFile all = File("all", "x", 10);
  commit = PrepareReplaceFiles(metadata_, {abc.file_path, d.file_path}, {all});
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_TRUE(Apply(*commit).ok());
  EXPECT_EQ(LivePaths(), (std::set<std::string>{all.file_path}));
  manifests = ReadSnapshotManifests(metadata_, *metadata_.CurrentSnapshot());
  ASSERT_TRUE(manifests.ok());
  EXPECT_EQ(manifests->size(), 2u);
}

TEST_F(IcebergReplace, CarriesFloeOffsetsForward) {
  const DataFile a = File("a", "x", 1), b = File("b", "x", 2);
  Append({a}, {{"floe.offsets", R"({"orders":{"0":10}})"}, {"floe.commit-id", "c1"}});
  Append({b}, {{"floe.offsets", R"({"orders":{"0":12}})"}, {"floe.commit-id", "c2"}});
  auto commit = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {File("ab", "x", 3)},
                                    {{"floe.compaction", "test"}, {"operation", "not-overridden"}});
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_TRUE(Apply(*commit).ok());
  const Snapshot* snap = metadata_.CurrentSnapshot();
  EXPECT_EQ(snap->SummaryValue("floe.offsets"), R"({"orders":{"0":12}})");
  EXPECT_EQ(snap->SummaryValue("floe.compaction"), "test");
  EXPECT_EQ(snap->operation(), "replace");
  EXPECT_EQ(LivePaths().size(), 1u);
}

TEST_F(IcebergReplace, FileThatIsNotLiveIsAConflict) {
  const DataFile a = File("a", "x", 1), b = File("b", "x", 2);
  Append({a, b});
  auto unknown = PrepareReplaceFiles(metadata_, {a.file_path, "file:///elsewhere.parquet"}, {File("n", "x", 1)});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kConflict);
  EXPECT_NE(unknown.status().message().find("file:///elsewhere.parquet"), std::string::npos);

  auto first = PrepareReplaceFiles(metadata_, {a.file_path}, {File("a2", "x", 1)});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(Apply(*first).ok());
  // Someone else's compaction already removed a.
  auto again = PrepareReplaceFiles(metadata_, {a.file_path}, {File("a3", "x", 1)});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kConflict);
}

TEST_F(IcebergReplace, EmptyTableIsAConflict) {
  auto r = PrepareReplaceFiles(metadata_, {"file:///x.parquet"}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kConflict);
}

TEST_F(IcebergReplace, RecordCountsMustMatch) {
  const DataFile a = File("a", "x", 10), b = File("b", "x", 20);
  Append({a, b});
  auto r = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {File("ab", "x", 29)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("30"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("29"), std::string::npos) << r.status().ToString();
  // Files of zero records may go without a replacement.
  const DataFile empty = File("empty", "x", 0);
  Append({empty});
  auto drop_empty = PrepareReplaceFiles(metadata_, {empty.file_path}, {});
  ASSERT_TRUE(drop_empty.ok()) << drop_empty.status().ToString();
}

TEST_F(IcebergReplace, RejectsMalformedRequests) {
  const DataFile a = File("a", "x", 1);
  Append({a});
  auto none = PrepareReplaceFiles(metadata_, {}, {});
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  auto twice = PrepareReplaceFiles(metadata_, {a.file_path, a.file_path}, {File("n", "x", 2)});
  EXPECT_EQ(twice.status().code(), StatusCode::kInvalidArgument);
  auto same = PrepareReplaceFiles(metadata_, {a.file_path}, {a});
  EXPECT_EQ(same.status().code(), StatusCode::kInvalidArgument);
  DataFile other_spec = File("n", "x", 1);
  other_spec.spec_id = 9;
  auto bad_spec = PrepareReplaceFiles(metadata_, {a.file_path}, {other_spec});
  EXPECT_EQ(bad_spec.status().code(), StatusCode::kInvalidArgument);
  DataFile bad_tuple = File("n", "x", 1);
  bad_tuple.partition.clear();
  auto short_tuple = PrepareReplaceFiles(metadata_, {a.file_path}, {bad_tuple});
  EXPECT_EQ(short_tuple.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(IcebergReplace, StaleBaseFailsItsRequirement) {
  const DataFile a = File("a", "x", 1), b = File("b", "x", 1);
  Append({a, b});
  const TableMetadata base = metadata_;
  auto commit = PrepareReplaceFiles(base, {a.file_path, b.file_path}, {File("ab", "x", 2)});
  ASSERT_TRUE(commit.ok());
  Append({File("c", "y", 3)});  // a concurrent writer
  const Status st = CheckRequirements(&metadata_, commit->requirements);
  EXPECT_EQ(st.code(), StatusCode::kConflict) << st.ToString();
  // Prepared again on fresh metadata, it keeps the concurrent file.
  auto retry = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {File("ab", "x", 2)});
  ASSERT_TRUE(retry.ok()) << retry.status().ToString();
  ASSERT_TRUE(Apply(*retry).ok());
  EXPECT_EQ(LivePaths().size(), 2u);
}

// A replace that lost its race to fast appends is rebased on the winner: its manifests are
// reused, the winner's files and floe.offsets kept, sequence numbers and totals the fresh ones.
TEST_F(IcebergReplace, RebaseOnFastAppendsReusesManifests) {
  const DataFile a = File("a", "x", 10), b = File("b", "x", 20), c = File("c", "y", 5);
  Append({a, b, c}, {{"floe.offsets", R"({"orders":{"0":3}})"}});
  const TableMetadata base = metadata_;
  auto prepared = PrepareRebasableReplace(base, {a.file_path, b.file_path}, {File("ab", "x", 30)});
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  const DataFile d = File("d", "y", 7), e = File("e", "x", 1);
  Append({d}, {{"floe.offsets", R"({"orders":{"0":4}})"}});
  Append({e}, {{"floe.offsets", R"({"orders":{"0":5}})"}});
  EXPECT_EQ(CheckRequirements(&metadata_, prepared->commit.requirements).code(), StatusCode::kConflict);

  const auto first_list = ReadManifestList(
      std::get<AddSnapshotUpdate>(prepared->commit.updates[0]).snapshot.manifest_list);
  ASSERT_TRUE(first_list.ok());
  auto rebased = RebaseReplaceFiles(metadata_, *prepared);
  ASSERT_TRUE(rebased.ok()) << rebased.status().ToString();
  ASSERT_TRUE(rebased->has_value());
  EXPECT_EQ((*rebased)->snapshot_id, prepared->commit.snapshot_id);
  ASSERT_TRUE(Apply(**rebased).ok());

  const Snapshot* snap = metadata_.CurrentSnapshot();
  EXPECT_EQ(snap->sequence_number, 4);
  EXPECT_EQ(snap->operation(), "replace");
  EXPECT_EQ(snap->SummaryValue("floe.offsets"), R"({"orders":{"0":5}})");
  EXPECT_EQ(snap->SummaryValue("total-data-files"), "4");
  EXPECT_EQ(snap->SummaryValue("total-records"), "43");
  EXPECT_EQ(snap->SummaryValue("deleted-data-files"), "2");
  EXPECT_EQ(LivePaths(), (std::set<std::string>{File("ab", "x", 30).file_path, c.file_path, d.file_path, e.file_path}));

  auto manifests = ReadSnapshotManifests(metadata_, *snap);
  ASSERT_TRUE(manifests.ok()) << manifests.status().ToString();
  ASSERT_EQ(manifests->size(), 4u);  // added, rewritten, then e's and d's appends
  // The same manifest files as the first attempt wrote, listed with the fresh sequence number,
  // which the merged file inherits; the rewritten entries keep theirs.
  EXPECT_EQ((*manifests)[0].manifest.manifest_path, (*first_list)[0].manifest_path);
  EXPECT_EQ((*manifests)[1].manifest.manifest_path, (*first_list)[1].manifest_path);
  EXPECT_EQ((*manifests)[0].manifest.sequence_number, 4);
  EXPECT_EQ((*manifests)[0].manifest.min_sequence_number, 4);
  EXPECT_EQ((*manifests)[0].entries.at(0).sequence_number, 4);
  EXPECT_EQ((*manifests)[1].manifest.min_sequence_number, 1);
  for (const auto& entry : (*manifests)[1].entries) EXPECT_EQ(entry.sequence_number, 1);
  EXPECT_EQ((*manifests)[2].entries.at(0).data_file.file_path, e.file_path);
  EXPECT_EQ((*manifests)[2].entries.at(0).sequence_number, 3);
  EXPECT_EQ((*manifests)[3].entries.at(0).data_file.file_path, d.file_path);
}

// No rebase when the winner rewrote a manifest the replace rewrote too (another compaction):
// the caller prepares again, and finds the file gone.
TEST_F(IcebergReplace, NoRebaseWhenARewrittenManifestIsGone) {
  const DataFile a = File("a", "x", 1), b = File("b", "x", 2);
  Append({a, b});
  auto prepared = PrepareRebasableReplace(metadata_, {a.file_path, b.file_path}, {File("ab", "x", 3)});
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  auto other = PrepareReplaceFiles(metadata_, {a.file_path}, {File("a2", "x", 1)});
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(Apply(*other).ok());
  auto rebased = RebaseReplaceFiles(metadata_, *prepared);
  ASSERT_TRUE(rebased.ok()) << rebased.status().ToString();
  EXPECT_FALSE(rebased->has_value());
  auto again = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {File("ab", "x", 3)});
  EXPECT_EQ(again.status().code(), StatusCode::kConflict);
  // Nor once the replace itself landed (its snapshot id is taken).
  auto replace_b = PrepareRebasableReplace(metadata_, {b.file_path}, {File("b2", "x", 2)});
  ASSERT_TRUE(replace_b.ok());
  ASSERT_TRUE(Apply(replace_b->commit).ok());
  auto after = RebaseReplaceFiles(metadata_, *replace_b);
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->has_value());
}

// Manifests left with only DELETED entries are not carried into later snapshots.
TEST_F(IcebergReplace, DropsManifestsWithoutLiveFiles) {
  const DataFile a = File("a", "x", 1), b = File("b", "y", 2), c = File("c", "y", 3);
  Append({a, b});
  Append({c});
  auto first = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {File("a2", "x", 1), File("b2", "y", 2)});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(Apply(*first).ok());
  EXPECT_EQ(metadata_.CurrentSnapshot()->SummaryValue("changed-partition-count"), "2");
  auto list = ReadManifestList(metadata_.CurrentSnapshot()->manifest_list);
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 3u);  // added, rewritten (all deleted), c's
  const std::string all_deleted = (*list)[1].manifest_path;
  EXPECT_EQ((*list)[1].deleted_files_count, 2);
  EXPECT_EQ((*list)[1].existing_files_count, 0);

  auto second = PrepareReplaceFiles(metadata_, {c.file_path}, {File("c2", "y", 3)});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_TRUE(Apply(*second).ok());
  list = ReadManifestList(metadata_.CurrentSnapshot()->manifest_list);
  ASSERT_TRUE(list.ok());
  for (const auto& m : *list) EXPECT_NE(m.manifest_path, all_deleted);
  EXPECT_EQ(LivePaths(), (std::set<std::string>{File("a2", "x", 1).file_path, File("b2", "y", 2).file_path,
                                                File("c2", "y", 3).file_path}));
  EXPECT_EQ(metadata_.CurrentSnapshot()->SummaryValue("total-records"), "6");
}

TEST_F(IcebergReplace, FilesOfAnOlderSpecStayInTheirSpec) {
  const DataFile a = File("a", "x", 1), b = File("b", "x", 1);
  Append({a, b});
  // Evolve the spec: bucket the id as well.
  schema::PartitionSpec spec1;
  spec1.fields = {PField(2, 1000, "category", schema::TransformKind::kIdentity),
                  PField(1, 1001, "id_bucket", schema::TransformKind::kBucket, 4)};
  auto evolved = ApplyUpdates(metadata_, {AddPartitionSpecUpdate{spec1}, SetDefaultSpecUpdate{kLastAdded}}, NowMillis());
  ASSERT_TRUE(evolved.ok()) << evolved.status().ToString();
  metadata_ = *evolved;
  ASSERT_EQ(metadata_.default_spec_id, 1);
  DataFile merged = File("ab", "x", 2);  // spec 0's tuple
  auto commit = PrepareReplaceFiles(metadata_, {a.file_path, b.file_path}, {merged});
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_TRUE(Apply(*commit).ok());
  auto files = LiveDataFiles(metadata_);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(files->front().spec_id, 0);
  EXPECT_EQ(files->front().partition, merged.partition);
}

TEST(IcebergManifestScan, SnapshotsThatCannotBeListed) {
  ReplaceTempDir dir;
  auto created = NewTableMetadata(testing::SampleSchema(), testing::SampleSpec(), schema::SortOrder{},
                                  dir.path().string());
  ASSERT_TRUE(created.ok());
  TableMetadata m = *created;
  auto none = LiveDataFiles(m);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  auto unknown = LiveDataFiles(m, 12345);
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);

  // A snapshot whose list has a delete manifest (Java's, from the goldens).
  auto io = storage::FileIO::Open(dir.path().string());
  ASSERT_TRUE(io.ok());
  ManifestFile deletes;
  deletes.manifest_path = (testing::DataDir() / "manifests" / "java-v2-deletes.avro").string();
  deletes.content = 1;
  ASSERT_TRUE(WriteManifestList(*io, "metadata/snap-1.avro", 1, std::nullopt, 1, {deletes}).ok());
  Snapshot s;
  s.snapshot_id = 1;
  s.sequence_number = 1;
  s.manifest_list = io->Uri("metadata/snap-1.avro");
  s.summary = {{"operation", "delete"}};
  m.snapshots.push_back(s);
  auto with_deletes = LiveDataFiles(m, 1);
  ASSERT_FALSE(with_deletes.ok());
  EXPECT_EQ(with_deletes.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(with_deletes.status().message().find("Floe writes none"), std::string::npos)
      << with_deletes.status().ToString();

  // v1 snapshots without a manifest list.
  Snapshot v1;
  v1.snapshot_id = 2;
  v1.v1_manifests = {"file:///m.avro"};
  m.snapshots.push_back(v1);
  EXPECT_EQ(LiveDataFiles(m, 2).status().code(), StatusCode::kUnsupported);
}

}  // namespace
}  // namespace floe::iceberg
