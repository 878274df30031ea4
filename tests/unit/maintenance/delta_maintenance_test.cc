// Delta and dual-format maintenance against tables written by Floe's own sinks (DeltaSink,
// DualSink over the SQLite catalog) in a local directory: compaction keeps every row and every
// txn version, loses races to ingestion and rebases or gives up a partition; the dual-format
// Delta log follows Iceberg's compaction (also after a crash between the two halves); log
// retention and vacuum delete only what no version inside their windows needs. Readers other
// than Floe check the same in tests/integration/test_delta_maintenance.py.
#include <arrow/api.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/arrow_interop.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/file_references.h"
#include "floe/delta/table_properties.h"
#include "floe/iceberg/replace_files.h"
#include "floe/iceberg/table_scan.h"
#include "floe/maintenance/delta_cleanup.h"
#include "floe/maintenance/delta_compaction.h"
#include "floe/maintenance/dual_compaction.h"
#include "floe/sink/delta_offsets.h"
#include "floe/sink/delta_sink.h"
#include "floe/sink/dual_sink.h"
#include "floe/sink/iceberg_sink.h"
#include "iceberg_test_table.h"
#include "support/temp_dir.h"

namespace floe::maintenance {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using testing::kDayMs;
using testing::Range;

constexpr const char* kTopic = "orders";

schema::Schema Columns() {
  schema::Schema s;
  s.fields.push_back({1, "id", false, schema::Type::Primitive(schema::TypeId::kLong), "", std::nullopt, std::nullopt});
  s.fields.push_back({2, "p", false, schema::Type::Primitive(schema::TypeId::kString), "", std::nullopt, std::nullopt});
  return s;
}

// Rows with ids [first, first + n), alternating between partitions p=a and p=b.
std::shared_ptr<arrow::RecordBatch> Rows(std::int64_t first, std::int64_t n) {
  arrow::Int64Builder ids;
  arrow::StringBuilder ps;
  for (std::int64_t i = first; i < first + n; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    EXPECT_TRUE(ps.Append(i % 2 == 0 ? "a" : "b").ok());
  }
  auto schema = arrow::schema({arrow::field("id", arrow::int64()), arrow::field("p", arrow::utf8())});
  return arrow::RecordBatch::Make(schema, n, {*ids.Finish(), *ps.Finish()});
}

// Kafka partition 0's records [first, first + n), as the pipeline hands them to a sink.
sink::PartitionFlush Flush(std::int64_t first, std::int64_t n) {
  sink::PartitionFlush f;
  f.topic = kTopic;
  f.partition = 0;
  if (first > 0) f.expected = first;
  f.next_offset = first + n;
  f.batches = {Rows(first, n)};
  return f;
}

// The ids in the data files a Delta state lists, sorted (duplicates kept: they are the bug).
std::vector<std::int64_t> DeltaIds(storage::FileIO& io, const delta::TableState& state) {
  std::vector<std::int64_t> ids;
  for (const auto& [path, add] : state.files) {
    auto uri = delta::DataFileUri(io, path);
    EXPECT_TRUE(uri.ok());
    std::string local;
    auto filesystem = storage::FileSystemForUri(*uri, &local);
    EXPECT_TRUE(filesystem.ok());
    auto input = (*filesystem)->OpenInputFile(local);
    EXPECT_TRUE(input.ok()) << *uri << ": " << input.status().ToString();
    if (!input.ok()) continue;
    auto reader = parquet::arrow::OpenFile(*input, arrow::default_memory_pool());
    EXPECT_TRUE(reader.ok());
    auto table = (*reader)->ReadTable();
    EXPECT_TRUE(table.ok());
    if (!table.ok()) continue;
    auto column = (*table)->GetColumnByName("id");
    for (const auto& chunk : column->chunks()) {
      const auto& values = static_cast<const arrow::Int64Array&>(*chunk);
      for (std::int64_t i = 0; i < values.length(); ++i) ids.push_back(values.Value(i));
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<Json> LogActions(const fs::path& root, std::int64_t version) {
  char name[32];
  std::snprintf(name, sizeof name, "%020lld.json", static_cast<long long>(version));
  std::ifstream in(root / "_delta_log" / name);
  std::vector<Json> actions;
  for (std::string line; std::getline(in, line);) actions.push_back(Json::parse(line));
  return actions;
}

class DeltaMaintenance : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = sink::DeltaSink::Open("lake.orders", (dir_.path() / "orders").string(), {"p"});
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    sink_ = std::move(opened).value();
    auto created = sink_->EnsureColumns(Columns());
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  // `commits` ingestion commits of `rows` records each, from offset 0.
  void Ingest(int commits, std::int64_t rows) {
    for (int c = 0; c < commits; ++c) Commit(next_, rows);
  }
  void Commit(std::int64_t first, std::int64_t rows) {
    auto report = sink_->Commit({Flush(first, rows)});
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    ASSERT_TRUE(report->committed);
    next_ = first + rows;
  }
  delta::TableState State() {
    auto state = sink_->LoadState();
    EXPECT_TRUE(state.ok()) << state.status().ToString();
    return state.ok() ? *state : delta::TableState{};
  }

  test_support::TempDir dir_{"floe-delta-maintenance"};
  std::unique_ptr<sink::DeltaSink> sink_;
  std::int64_t next_ = 0;
};

TEST_F(DeltaMaintenance, CompactionMergesEachPartitionKeepingRowsAndTxns) {
  Ingest(6, 10);  // 6 commits x 2 partitions = 12 small files
  const auto before = State();
  ASSERT_EQ(before.files.size(), 12u);

  auto report = CompactDeltaTable(sink_->io());
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->files_before, 12u);
  EXPECT_EQ(report->rewritten_files, 12u);
  EXPECT_EQ(report->added_files, 2u);  // one per partition
  EXPECT_EQ(report->files_after, 2u);
  EXPECT_EQ(report->partitions_given_up, 0u);
  ASSERT_TRUE(report->version.has_value());
  EXPECT_EQ(*report->version, before.version + 1);
  EXPECT_GT(report->bytes_rewritten, 0);

  const auto after = State();
  EXPECT_EQ(after.files.size(), 2u);
  EXPECT_EQ(DeltaIds(sink_->io(), after), Range(60));
  EXPECT_EQ(after.txn_versions, before.txn_versions);  // offsets untouched: ingestion resumes at 60
  for (const auto& [path, add] : after.files) {
    const std::string p = add["partitionValues"]["p"].get<std::string>();
    EXPECT_EQ(path.find("data/p=" + p + "/"), 0u) << path;  // stays in its partition's directory
    const auto stats = Json::parse(add["stats"].get<std::string>());
    EXPECT_EQ(stats["numRecords"], 30);
    EXPECT_EQ(add["dataChange"], false);
  }
  // The version: commitInfo OPTIMIZE, removes and adds with dataChange false, no txn.
  int removes = 0;
  int adds = 0;
  for (const auto& action : LogActions(dir_.path() / "orders", *report->version)) {
    ASSERT_FALSE(action.contains("txn")) << action.dump();
    if (action.contains("commitInfo")) {
      EXPECT_EQ(action["commitInfo"]["operation"], "OPTIMIZE");
      EXPECT_EQ(action["commitInfo"]["isBlindAppend"], false);
    }
    if (action.contains("remove")) {
      ++removes;
      EXPECT_EQ(action["remove"]["dataChange"], false);
      EXPECT_TRUE(action["remove"].contains("deletionTimestamp"));
      EXPECT_TRUE(action["remove"]["partitionValues"].contains("p"));
    }
    if (action.contains("add")) ++adds;
  }
  EXPECT_EQ(removes, 12);
  EXPECT_EQ(adds, 2);

  // Ingestion goes on from the same offsets; a second compaction has nothing to do... until
  // small files come again.
  Commit(60, 10);
  EXPECT_EQ(DeltaIds(sink_->io(), State()), Range(70));
  auto again = CompactDeltaTable(sink_->io());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->rewritten_files, 4u);  // each partition: the merged file and the new one
  EXPECT_EQ(DeltaIds(sink_->io(), State()), Range(70));
}

TEST_F(DeltaMaintenance, ByteAndRowTargetsDecideWhatIsSmall) {
  Ingest(4, 10);
  CompactionOptions options;
  options.target_file_size = 1;  // every file is at least a byte: nothing is small
  auto none = CompactDeltaTable(sink_->io(), options);
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->rewritten_files, 0u);
  EXPECT_FALSE(none->version.has_value());

  options = {};
  options.target_rows = 10;  // 10-row merged files: 20 rows per partition -> 2 files each
  options.dry_run = true;
  auto plan = CompactDeltaTable(sink_->io(), options);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->rewritten_files, 8u);
  EXPECT_EQ(plan->added_files, 4u);
  EXPECT_EQ(plan->removed.size(), 8u);
  EXPECT_FALSE(plan->version.has_value());
  EXPECT_EQ(State().files.size(), 8u);  // a dry run changes nothing

  options.dry_run = false;
  auto done = CompactDeltaTable(sink_->io(), options);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->added_files, 4u);
  EXPECT_EQ(DeltaIds(sink_->io(), State()), Range(40));

  options.target_file_size = 0;
  EXPECT_EQ(CompactDeltaTable(sink_->io(), options).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(DeltaMaintenance, LostRaceToIngestionRebasesOnTheNewVersion) {
  Ingest(3, 10);
  CompactionOptions options;
  options.before_first_commit = [&]() -> Status {
    // Ingestion takes the version the compaction prepared: it wins, and must not fail.
    auto report = sink_->Commit({Flush(30, 10)});
    if (!report.ok()) return report.status();
    return report->committed ? Status::OK() : Status::Internal("ingestion did not commit");
  };
  auto report = CompactDeltaTable(sink_->io(), options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->attempts, 2);
  EXPECT_EQ(report->rewritten_files, 6u);
  EXPECT_EQ(report->partitions_given_up, 0u);
  const auto after = State();
  EXPECT_EQ(after.files.size(), 4u);  // 2 merged + the ingestion's 2, left for later
  EXPECT_EQ(DeltaIds(sink_->io(), after), Range(40));
  auto offsets = sink::DeltaCommittedOffsets(after);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(sink::Find(*offsets, kTopic, 0), 40);
}

TEST_F(DeltaMaintenance, PartitionWhoseFilesWentAwayIsGivenUp) {
  Ingest(3, 10);
  CompactionOptions options;
  std::string gone;
  options.before_first_commit = [&]() -> Status {
    // Another writer removes one of partition a's planned files (as a second compaction would).
    FLOE_ASSIGN_OR_RETURN(auto state, sink_->LoadState());
    for (const auto& [path, add] : state.files) {
      if (add["partitionValues"]["p"] == "a") gone = path;
    }
    delta::Commit c;
    c.removes = {gone};
    c.data_change = false;
    return delta::CommitVersion(sink_->io(), state, c).status();
  };
  auto report = CompactDeltaTable(sink_->io(), options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->partitions_given_up, 1u);
  EXPECT_EQ(report->rewritten_files, 3u);  // partition b only
  const auto after = State();
  EXPECT_EQ(after.files.size(), 3u);  // a: two small files left; b: one merged
  EXPECT_EQ(DeltaIds(sink_->io(), after).size(), 25u);  // 30 rows minus the 5 of the removed file

  // Both partitions gone: nothing can commit, kConflict.
  Ingest(3, 10);
  options.before_first_commit = [&]() -> Status { return CompactDeltaTable(sink_->io()).status(); };
  EXPECT_EQ(CompactDeltaTable(sink_->io(), options).status().code(), StatusCode::kConflict);
}

TEST_F(DeltaMaintenance, VacuumDeletesOnlyTombstonesOlderThanTheRetention) {
  Ingest(3, 10);
  auto compacted = CompactDeltaTable(sink_->io());
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  auto references = delta::ReferencedFiles(sink_->io());
  ASSERT_TRUE(references.ok()) << references.status().ToString();
  EXPECT_EQ(references->live.size(), 2u);
  ASSERT_EQ(references->removed.size(), 6u);

  // Inside the 7 days: nothing goes; time travel to the version before still reads.
  auto young = VacuumDelta(sink_->io());
  ASSERT_TRUE(young.ok()) << young.status().ToString();
  EXPECT_TRUE(young->deleted.empty());
  EXPECT_EQ(young->kept_tombstones, 6u);

  DeltaCleanupOptions later;
  later.now_ms = references->removed.begin()->second + 8 * kDayMs;
  later.dry_run = true;
  auto listed = VacuumDelta(sink_->io(), later);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed->deleted.size(), 6u);
  EXPECT_GT(listed->bytes, 0);
  for (const auto& [uri, _] : references->removed) {
    std::string path;
    ASSERT_TRUE(storage::FileSystemForUri(uri, &path).ok());
    EXPECT_TRUE(fs::exists(path)) << "dry run deleted " << uri;
  }
  later.dry_run = false;
  auto vacuumed = VacuumDelta(sink_->io(), later);
  ASSERT_TRUE(vacuumed.ok()) << vacuumed.status().ToString();
  EXPECT_EQ(vacuumed->deleted.size(), 6u);
  for (const auto& [uri, _] : references->removed) {
    std::string path;
    ASSERT_TRUE(storage::FileSystemForUri(uri, &path).ok());
    EXPECT_FALSE(fs::exists(path)) << uri;
  }
  EXPECT_EQ(DeltaIds(sink_->io(), State()), Range(30));  // the live files are all there

  auto again = VacuumDelta(sink_->io(), later);  // idempotent: the files are gone already
  ASSERT_TRUE(again.ok()) << again.status().ToString();
}

// Checkpoints drop tombstones a day after delta.deletedFileRetentionDuration (issue 34: a
// table compacted every few seconds would otherwise carry every file it ever removed in each
// checkpoint), and keep younger ones and those without a time, which vacuum still needs.
TEST_F(DeltaMaintenance, CheckpointsDropExpiredTombstones) {
  Ingest(3, 10);  // versions 1..3 after the creation
  auto compacted = CompactDeltaTable(sink_->io());
  ASSERT_TRUE(compacted.ok()) << compacted.status().ToString();
  const delta::TableState after_compaction = State();
  ASSERT_EQ(after_compaction.tombstones.size(), 6u);
  // Age the compaction's tombstones in its log file: two 9 days old (expired: 7 days + a day),
  // two 7.5 days old (vacuum's, not yet the checkpoint's), two left as they are.
  const fs::path log = dir_.path() / "orders" / "_delta_log";
  char name[32];
  std::snprintf(name, sizeof name, "%020lld.json", static_cast<long long>(after_compaction.version));
  std::ifstream in(log / name);
  std::string line, text;
  int removes = 0;
  const std::int64_t now = iceberg::NowMillis();
  while (std::getline(in, line)) {
    Json action = Json::parse(line);
    if (action.contains("remove")) {
      if (removes < 2) action["remove"]["deletionTimestamp"] = now - 9 * kDayMs;
      else if (removes < 4) action["remove"]["deletionTimestamp"] = now - 7 * kDayMs - kDayMs / 2;
      ++removes;
    }
    text += action.dump() + "\n";
  }
  in.close();
  std::ofstream(log / name, std::ios::trunc) << text;
  while (State().version < 10) Commit(next_, 2);  // version 10 writes a checkpoint
  ASSERT_TRUE(fs::exists(log / "00000000000000000010.checkpoint.parquet"));
  // Replay from the checkpoint alone: delete the commits it covers.
  for (int v = 0; v <= 10; ++v) {
    std::snprintf(name, sizeof name, "%020d.json", v);
    fs::remove(log / name);
  }
  const delta::TableState state = State();
  EXPECT_EQ(state.tombstones.size(), 4u);
  EXPECT_EQ(DeltaIds(sink_->io(), state), Range(next_));
}

TEST_F(DeltaMaintenance, LogCleanupKeepsTheCutoffCheckpointAndEverythingAfter) {
  Ingest(25, 2);  // versions 0 (creation) .. 25; checkpoints at 10 and 20
  const fs::path log = dir_.path() / "orders" / "_delta_log";
  ASSERT_TRUE(fs::exists(log / "00000000000000000010.checkpoint.parquet"));
  ASSERT_TRUE(fs::exists(log / "00000000000000000020.checkpoint.parquet"));
  // Versions 0..14 were written 40 days ago, the rest now.
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 40);
  for (int v = 0; v <= 14; ++v) {
    char name[32];
    std::snprintf(name, sizeof name, "%020d.json", v);
    fs::last_write_time(log / name, old);
  }
  DeltaCleanupOptions dry;
  dry.dry_run = true;
  auto listed = CleanUpDeltaLog(sink_->io(), dry);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->cutoff_checkpoint, 10);  // the newest checkpoint not after version 14
  EXPECT_EQ(listed->deleted.size(), 10u);    // commits 0..9
  EXPECT_TRUE(fs::exists(log / "00000000000000000000.json"));

  auto cleaned = CleanUpDeltaLog(sink_->io());
  ASSERT_TRUE(cleaned.ok()) << cleaned.status().ToString();
  EXPECT_EQ(cleaned->oldest_version_kept, 10);
  EXPECT_FALSE(fs::exists(log / "00000000000000000009.json"));
  EXPECT_TRUE(fs::exists(log / "00000000000000000010.json"));  // kept with its checkpoint
  EXPECT_TRUE(fs::exists(log / "00000000000000000010.checkpoint.parquet"));
  const auto state = State();
  EXPECT_EQ(state.version, 25);
  EXPECT_EQ(DeltaIds(sink_->io(), state), Range(50));

  // 60 days on, every commit is old: the cutoff checkpoint is 20, and versions 20.. stay.
  DeltaCleanupOptions later;
  later.now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch()).count() + 60 * kDayMs;
  auto cleaned_later = CleanUpDeltaLog(sink_->io(), later);
  ASSERT_TRUE(cleaned_later.ok()) << cleaned_later.status().ToString();
  EXPECT_EQ(cleaned_later->cutoff_checkpoint, 20);
  EXPECT_FALSE(fs::exists(log / "00000000000000000010.checkpoint.parquet"));
  EXPECT_TRUE(fs::exists(log / "00000000000000000020.json"));
  EXPECT_EQ(DeltaIds(sink_->io(), State()), Range(50));
}

// max_versions bounds the log whatever its age (maintenance.max_snapshots): versions written
// seconds ago go once more than max_versions are newer, down to the checkpoint at or before
// the cutoff version, and every version from there on still reads.
TEST_F(DeltaMaintenance, LogCleanupKeepsAtMostMaxVersionsHoweverYoung) {
  Ingest(25, 2);  // versions 0 .. 25, all written now; checkpoints at 10 and 20
  const fs::path log = dir_.path() / "orders" / "_delta_log";
  DeltaCleanupOptions bounded;
  auto kept = CleanUpDeltaLog(sink_->io(), bounded);
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_TRUE(kept->deleted.empty());  // the 30-day window alone keeps everything
  bounded.max_versions = 8;            // versions 18..25: the cutoff checkpoint is 10
  auto cleaned = CleanUpDeltaLog(sink_->io(), bounded);
  ASSERT_TRUE(cleaned.ok()) << cleaned.status().ToString();
  EXPECT_EQ(cleaned->cutoff_checkpoint, 10);
  EXPECT_EQ(cleaned->oldest_version_kept, 10);
  EXPECT_FALSE(fs::exists(log / "00000000000000000009.json"));
  EXPECT_TRUE(fs::exists(log / "00000000000000000010.checkpoint.parquet"));
  bounded.max_versions = 5;  // versions 21..25: the cutoff checkpoint is 20
  cleaned = CleanUpDeltaLog(sink_->io(), bounded);
  ASSERT_TRUE(cleaned.ok()) << cleaned.status().ToString();
  EXPECT_EQ(cleaned->cutoff_checkpoint, 20);
  EXPECT_FALSE(fs::exists(log / "00000000000000000019.json"));
  EXPECT_TRUE(fs::exists(log / "00000000000000000020.json"));
  EXPECT_EQ(DeltaIds(sink_->io(), State()), Range(50));
}

TEST_F(DeltaMaintenance, LogCleanupWithoutCheckpointKeepsEverything) {
  Ingest(3, 2);
  DeltaCleanupOptions later;
  later.retention_ms = 0;
  later.now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch()).count() + 2 * kDayMs;
  auto cleaned = CleanUpDeltaLog(sink_->io(), later);
  ASSERT_TRUE(cleaned.ok()) << cleaned.status().ToString();
  EXPECT_FALSE(cleaned->cutoff_checkpoint.has_value());
  EXPECT_TRUE(cleaned->deleted.empty());
}

TEST(DeltaTableProperties, IntervalsParseAsDeltaWritesThem) {
  EXPECT_EQ(*delta::ParseInterval("interval 30 days"), std::chrono::hours(24 * 30));
  EXPECT_EQ(*delta::ParseInterval("interval 1 week"), std::chrono::hours(24 * 7));
  EXPECT_EQ(*delta::ParseInterval("INTERVAL 2 Hours"), std::chrono::hours(2));
  EXPECT_EQ(*delta::ParseInterval("5 minutes"), std::chrono::minutes(5));
  EXPECT_EQ(*delta::ParseInterval("interval 1500 microseconds"), std::chrono::milliseconds(1));
  for (const char* bad : {"", "interval", "interval 7", "interval -1 days", "interval seven days", "7 fortnights"}) {
    EXPECT_EQ(delta::ParseInterval(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  auto fallback = delta::RetentionProperty({}, delta::kLogRetentionKey, delta::kDefaultLogRetention);
  EXPECT_EQ(*fallback, delta::kDefaultLogRetention);
  auto bad = delta::RetentionProperty({{delta::kLogRetentionKey, "soon"}}, delta::kLogRetentionKey,
                                      delta::kDefaultLogRetention);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().ToString().find(delta::kLogRetentionKey), std::string::npos);
}

// --- formats: [iceberg, delta] ------------------------------------------------------------

class DualMaintenance : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = catalog::IcebergCatalog::Open(dir_.SqliteUri(), (dir_.path() / "warehouse").string());
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = std::move(catalog).value();
    ASSERT_TRUE(catalog_->CreateNamespace({"lake"}, {}).ok());
    sink_ = std::make_unique<sink::DualSink>(std::make_unique<sink::IcebergSink>(*catalog_, id_, std::vector<std::string>{"p"}),
                                             std::vector<std::string>{"p"});
    auto created = sink_->EnsureColumns(Columns());
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  void Commit(sink::TableSink& to, std::int64_t first, std::int64_t rows) {
    auto report = to.Commit({Flush(first, rows)});
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    ASSERT_TRUE(report->committed);
  }
  std::string Location() {
    auto table = catalog_->LoadTable(id_);
    EXPECT_TRUE(table.ok());
    return table->metadata.location;
  }
  std::set<std::string> IcebergFiles() {
    auto table = catalog_->LoadTable(id_);
    EXPECT_TRUE(table.ok());
    auto live = iceberg::LiveDataFiles(table->metadata);
    EXPECT_TRUE(live.ok());
    std::set<std::string> out;
    for (const auto& f : *live) out.insert(f.file_path);
    return out;
  }
  // Delta's live files as URIs, and its rows.
  std::set<std::string> DeltaFiles(std::vector<std::int64_t>* ids = nullptr) {
    auto io = storage::FileIO::Open(Location());
    EXPECT_TRUE(io.ok());
    auto state = delta::LoadState(*io);
    EXPECT_TRUE(state.ok()) << state.status().ToString();
    if (ids) *ids = DeltaIds(*io, *state);
    auto refs = delta::ReferencedFiles(*io, *state);
    EXPECT_TRUE(refs.ok());
    return refs->live;
  }

  test_support::TempDir dir_{"floe-dual-maintenance"};
  std::unique_ptr<catalog::IcebergCatalog> catalog_;
  catalog::TableIdentifier id_{{"lake"}, "orders"};
  std::unique_ptr<sink::DualSink> sink_;
};

TEST_F(DualMaintenance, BothLogsReferenceTheSameCompactedFiles) {
  for (int c = 0; c < 4; ++c) Commit(*sink_, c * 10, 10);
  ASSERT_EQ(IcebergFiles(), DeltaFiles());
  ASSERT_EQ(IcebergFiles().size(), 8u);

  auto report = CompactDualTable(*catalog_, id_);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->delta_before.mirrored);  // nothing was pending
  EXPECT_FALSE(report->delta_before.version.has_value());
  EXPECT_EQ(report->iceberg.rewritten_files, 8u);
  EXPECT_EQ(report->iceberg.removed.size(), 8u);
  EXPECT_EQ(report->iceberg.added.size(), 2u);
  EXPECT_TRUE(report->delta.mirrored) << report->delta.skipped_because;
  EXPECT_EQ(report->delta.removed, 8u);
  EXPECT_EQ(report->delta.added, 2u);

  std::vector<std::int64_t> ids;
  EXPECT_EQ(DeltaFiles(&ids), IcebergFiles());
  EXPECT_EQ(ids, Range(40));
  std::set<std::string> added;
  for (const auto& f : report->iceberg.added) added.insert(f.file_path);
  EXPECT_EQ(IcebergFiles(), added);

  // The mirror version is a pure rearrangement: dataChange false, no txn.
  auto io = storage::FileIO::Open(Location());
  ASSERT_TRUE(io.ok());
  auto state = delta::LoadState(*io);
  ASSERT_TRUE(state.ok());
  for (const auto& [path, add] : state->files) EXPECT_EQ(add["dataChange"], false) << path;

  // Ingestion carries on in both formats from the same offsets.
  Commit(*sink_, 40, 10);
  EXPECT_EQ(DeltaFiles(&ids), IcebergFiles());
  EXPECT_EQ(ids, Range(50));
}

TEST_F(DualMaintenance, IcebergCompactionGivesUpOnlyThePartitionThatLostAFile) {
  for (int c = 0; c < 3; ++c) Commit(*sink_, c * 10, 10);
  CompactionOptions options;
  options.before_first_commit = [&]() -> Status {
    // Another writer rewrites one of partition a's files (a copy under another name): the
    // planned file is not live any more, partition b's still are.
    FLOE_ASSIGN_OR_RETURN(auto table, catalog_->LoadTable(id_));
    FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(table.metadata));
    for (const auto& f : live) {
      if (f.file_path.find("/p=a/") == std::string::npos) continue;
      iceberg::DataFile copy = f;
      copy.file_path = f.file_path.substr(0, f.file_path.size() - 8) + "-copy.parquet";
      std::string from;
      std::string to;
      FLOE_RETURN_IF_ERROR(storage::FileSystemForUri(f.file_path, &from).status());
      FLOE_RETURN_IF_ERROR(storage::FileSystemForUri(copy.file_path, &to).status());
      fs::copy_file(from, to);
      FLOE_ASSIGN_OR_RETURN(auto commit, iceberg::PrepareReplaceFiles(table.metadata, {f.file_path}, {copy}));
      return catalog_->CommitTable({id_, commit.requirements, commit.updates}).status();
    }
    return Status::Internal("no file of partition a");
  };
  auto report = CompactTable(*catalog_, id_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->attempts, 2);
  EXPECT_EQ(report->partitions_given_up, 1u);
  EXPECT_EQ(report->rewritten_files, 3u);  // partition b's
  EXPECT_EQ(IcebergFiles().size(), 4u);    // a: 3 small files (one the copy); b: 1 merged
  // Delta mirrors it: same files, the same 30 rows once each.
  CompactionOptions nothing_small;
  nothing_small.target_file_size = 1;  // nothing more to merge: only the mirror runs
  auto dual = CompactDualTable(*catalog_, id_, nothing_small);
  ASSERT_TRUE(dual.ok()) << dual.status().ToString();
  EXPECT_TRUE(dual->delta_before.mirrored) << dual->delta_before.skipped_because;
  std::vector<std::int64_t> ids;
  EXPECT_EQ(DeltaFiles(&ids), IcebergFiles());
  EXPECT_EQ(ids, Range(30));
}

TEST_F(DualMaintenance, CrashBeforeTheDeltaHalfIsMirroredByTheNextPass) {
  for (int c = 0; c < 3; ++c) Commit(*sink_, c * 10, 10);
  // The Iceberg half alone, as if the process died before the Delta mirror.
  auto iceberg = CompactTable(*catalog_, id_);
  ASSERT_TRUE(iceberg.ok()) << iceberg.status().ToString();
  std::vector<std::int64_t> ids;
  EXPECT_NE(DeltaFiles(&ids), IcebergFiles());
  EXPECT_EQ(ids, Range(30));  // the small files, the same rows

  // Ingestion in between: Delta's offsets follow Iceberg's, its files stay the small ones.
  Commit(*sink_, 30, 10);
  EXPECT_EQ(DeltaFiles(&ids).size(), 8u);
  EXPECT_EQ(ids, Range(40));

  auto report = CompactDualTable(*catalog_, id_);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->delta_before.mirrored) << report->delta_before.skipped_because;
  EXPECT_EQ(report->delta_before.removed, 6u);
  EXPECT_EQ(report->delta_before.added, 2u);
  EXPECT_EQ(DeltaFiles(&ids), IcebergFiles());
  EXPECT_EQ(ids, Range(40));
}

TEST_F(DualMaintenance, CatchUpAfterAnUnmirroredCompactionHasNoDuplicates) {
  for (int c = 0; c < 3; ++c) Commit(*sink_, c * 10, 10);
  ASSERT_TRUE(CompactTable(*catalog_, id_).ok());  // Iceberg half only
  // An ingestion commit whose Delta half is lost too (Iceberg alone commits it).
  sink::IcebergSink iceberg_only(*catalog_, id_, {"p"});
  Commit(iceberg_only, 30, 10);
  // Delta is behind: catch-up must add the new and the merged files and remove the small ones.
  auto offsets = sink_->LoadOffsets();
  ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
  EXPECT_EQ(sink::Find(*offsets, kTopic, 0), 40);
  std::vector<std::int64_t> ids;
  EXPECT_EQ(DeltaFiles(&ids), IcebergFiles());
  EXPECT_EQ(ids, Range(40));
}

TEST_F(DualMaintenance, MirrorWaitsWhileDeltaIsBehind) {
  for (int c = 0; c < 2; ++c) Commit(*sink_, c * 10, 10);
  sink::IcebergSink iceberg_only(*catalog_, id_, {"p"});
  Commit(iceberg_only, 20, 10);  // Delta behind by one commit
  auto io = storage::FileIO::Open(Location());
  ASSERT_TRUE(io.ok());
  auto mirror = sink::MirrorIcebergFiles(*catalog_, id_, *io);
  ASSERT_TRUE(mirror.ok()) << mirror.status().ToString();
  EXPECT_FALSE(mirror->mirrored);
  EXPECT_NE(mirror->skipped_because.find("txn"), std::string::npos) << mirror->skipped_because;
  std::vector<std::int64_t> ids;
  DeltaFiles(&ids);
  EXPECT_EQ(ids, Range(20));  // untouched: the next ingestion commit catches it up
}

}  // namespace
}  // namespace floe::maintenance
