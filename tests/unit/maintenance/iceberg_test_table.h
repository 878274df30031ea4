#pragma once
// An Iceberg table for the maintenance tests (expiry, orphans, manifest merge): Floe's own
// catalog (SQLite in memory) over a local warehouse, one int64 column "id", appends the way
// the pipeline makes them (one Parquet file per commit, floe.offsets in the summary), and the
// checks those tests share: the ids a snapshot holds, and that every file a snapshot
// references exists.
#include <arrow/api.h>
#include <arrow/io/file.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/iceberg/reachable_files.h"
#include "floe/iceberg/table_scan.h"
#include "floe/maintenance/compaction.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/file_io.h"
#include "support/temp_dir.h"

namespace floe::maintenance::testing {

namespace fs = std::filesystem;

// Retention windows and clocks are in milliseconds.
inline constexpr std::int64_t kDayMs = 24LL * 3'600'000;

// 0, 1, …, n - 1: the ids of n rows appended from 0.
inline std::vector<std::int64_t> Range(std::int64_t n) {
  std::vector<std::int64_t> out(n);
  for (std::int64_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

// A local path from a file:// URI (or a plain path).
inline std::string LocalPath(const std::string& uri) {
  if (uri.rfind("file://", 0) == 0) return uri.substr(7);
  if (uri.rfind("file:", 0) == 0) return uri.substr(5);
  return uri;
}

// Forwards to a real catalog; `before_commit` runs before each CommitTable (once it returns
// false it is not called again): how a test puts another writer's commit into a race.
class RacingCatalog final : public catalog::TableCatalog {
 public:
  RacingCatalog(catalog::TableCatalog& real, std::function<bool()> before_commit)
      : real_(real), before_commit_(std::move(before_commit)) {}
  int commits = 0;

  Status CreateNamespace(const catalog::Namespace& ns, const catalog::Properties& p) override {
    return real_.CreateNamespace(ns, p);
  }
  Result<std::vector<catalog::Namespace>> ListNamespaces(const catalog::Namespace& parent) override {
    return real_.ListNamespaces(parent);
  }
  Result<catalog::Properties> LoadNamespaceProperties(const catalog::Namespace& ns) override {
    return real_.LoadNamespaceProperties(ns);
  }
  Status UpdateNamespaceProperties(const catalog::Namespace& ns, const std::vector<std::string>& removals,
                                   const catalog::Properties& updates) override {
    return real_.UpdateNamespaceProperties(ns, removals, updates);
  }
  Status DropNamespace(const catalog::Namespace& ns) override { return real_.DropNamespace(ns); }
  Result<std::vector<catalog::TableIdentifier>> ListTables(const catalog::Namespace& ns) override {
    return real_.ListTables(ns);
  }
  Result<catalog::LoadedTable> LoadTable(const catalog::TableIdentifier& id) override { return real_.LoadTable(id); }
  Result<catalog::LoadedTable> CreateTable(const catalog::NewTable& t, bool stage_only) override {
    return real_.CreateTable(t, stage_only);
  }
  Result<catalog::LoadedTable> CommitTable(const catalog::TableChange& change) override {
    ++commits;
    if (before_commit_ && !before_commit_()) before_commit_ = nullptr;
    return real_.CommitTable(change);
  }
  Status CommitTransaction(const std::vector<catalog::TableChange>& changes) override {
    return real_.CommitTransaction(changes);
  }
  Status DropTable(const catalog::TableIdentifier& id, bool purge) override { return real_.DropTable(id, purge); }
  Status RenameTable(const catalog::TableIdentifier& from, const catalog::TableIdentifier& to) override {
    return real_.RenameTable(from, to);
  }
  Result<catalog::LoadedTable> RegisterTable(const catalog::TableIdentifier& id, const std::string& location) override {
    return real_.RegisterTable(id, location);
  }

 private:
  catalog::TableCatalog& real_;
  std::function<bool()> before_commit_;
};

class IcebergTestTable : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = catalog::IcebergCatalog::Open("sqlite://:memory:", (dir_.path() / "warehouse").string());
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = std::move(catalog).value();
    ASSERT_TRUE(catalog_->CreateNamespace({"lake"}, {}).ok());
    catalog::NewTable table;
    table.id = id_;
    auto schema = schema::FromArrowSchema(*arrow::schema({arrow::field("id", arrow::int64(), false)}));
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    table.schema = *schema;
    table.properties = properties_;
    auto created = catalog_->CreateTable(table);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  catalog::LoadedTable Load() {
    auto table = catalog_->LoadTable(id_);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? *table : catalog::LoadedTable{};
  }

  // A Parquet file with ids [first, first + rows) under data/, not committed.
  Result<iceberg::DataFile> WriteFile(std::int64_t first, std::int64_t rows) {
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
    iceberg::DataFile out;
    out.file_path = io.Uri(relative);
    out.file_size_in_bytes = written.bytes;
    FLOE_RETURN_IF_ERROR(iceberg::AddParquetMetrics(*written.metadata, schema, out));
    return out;
  }

  // One fast append of ids [first, first + rows); with offsets, floe.offsets says the topic
  // "t" partition 0 stands at first + rows (as the pipeline's commits do).
  Status Append(std::int64_t first, std::int64_t rows, bool offsets = true) {
    FLOE_ASSIGN_OR_RETURN(auto file, WriteFile(first, rows));
    FLOE_ASSIGN_OR_RETURN(auto table, catalog_->LoadTable(id_));
    iceberg::AppendFiles append;
    append.files.push_back(file);
    if (offsets) append.summary["floe.offsets"] = R"({"t":{"0":)" + std::to_string(first + rows) + "}}";
    FLOE_ASSIGN_OR_RETURN(auto commit, iceberg::PrepareFastAppend(table.metadata, append));
    return catalog_->CommitTable({id_, commit.requirements, commit.updates}).status();
  }

  // `appends` appends of 10 rows each (ids 0 to 10 * appends - 1), then a compaction that
  // merges them into one file (a "replace" snapshot). Returns the small files it replaced,
  // which only the appends' snapshots still read.
  std::vector<iceberg::DataFile> AppendAndCompact(int appends) {
    for (int k = 0; k < appends; ++k) EXPECT_TRUE(Append(k * 10, 10).ok());
    auto small_files = iceberg::LiveDataFiles(Load().metadata);
    EXPECT_TRUE(small_files.ok()) << small_files.status().ToString();
    CompactionOptions compaction;
    compaction.target_rows = 1000;
    auto compacted = CompactTable(*catalog_, id_, compaction);
    EXPECT_TRUE(compacted.ok()) << compacted.status().ToString();
    return small_files.ok() ? *small_files : std::vector<iceberg::DataFile>{};
  }

  // Every id of a snapshot's live files (default: the current one), sorted.
  std::vector<std::int64_t> Ids(std::optional<std::int64_t> snapshot_id = std::nullopt) {
    std::vector<std::int64_t> out;
    auto live = iceberg::LiveDataFiles(Load().metadata, snapshot_id);
    EXPECT_TRUE(live.ok()) << live.status().ToString();
    if (!live.ok()) return out;
    for (const auto& f : *live) {
      auto input = arrow::io::ReadableFile::Open(LocalPath(f.file_path));
      EXPECT_TRUE(input.ok()) << f.file_path;
      if (!input.ok()) continue;
      auto reader = parquet::arrow::OpenFile(*input, arrow::default_memory_pool());
      EXPECT_TRUE(reader.ok());
      auto table = (*reader)->ReadTable();
      EXPECT_TRUE(table.ok());
      for (const auto& chunk : (*table)->column(0)->chunks()) {
        const auto& ids = static_cast<const arrow::Int64Array&>(*chunk);
        for (std::int64_t i = 0; i < ids.length(); ++i) out.push_back(ids.Value(i));
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Every file any snapshot of the current metadata references (manifest lists, manifests and
  // live data files), plus the metadata files; the test fails for each one that is missing.
  std::vector<std::string> ReferencedFiles() {
    const catalog::LoadedTable table = Load();
    std::vector<std::string> out{table.metadata_location};
    for (const auto& entry : table.metadata.metadata_log) out.push_back(entry.metadata_file);
    for (const auto& snapshot : table.metadata.snapshots) {
      out.push_back(snapshot.manifest_list);
      auto manifests = iceberg::ListSnapshotManifests(snapshot);
      EXPECT_TRUE(manifests.ok()) << manifests.status().ToString();
      if (!manifests.ok()) continue;
      for (const auto& m : *manifests) {
        out.push_back(m.path);
        auto files = iceberg::ListManifestFiles(table.metadata, m);
        EXPECT_TRUE(files.ok()) << files.status().ToString();
        if (!files.ok()) continue;
        for (const auto& f : *files) {
          if (f.live) out.push_back(f.path);
        }
      }
    }
    return out;
  }
  void ExpectReferencedFilesExist() {
    for (const auto& path : ReferencedFiles()) EXPECT_TRUE(fs::exists(LocalPath(path))) << "missing: " << path;
  }

  // Every regular file under the table location, as local paths.
  std::vector<std::string> FilesOnDisk() {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(LocalPath(Load().metadata.location))) {
      if (e.is_regular_file()) out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string Location() { return LocalPath(Load().metadata.location); }

  test_support::TempDir dir_{"floe-maintenance-test"};
  std::map<std::string, std::string> properties_;  // of the table, set before SetUp
  std::unique_ptr<catalog::IcebergCatalog> catalog_;
  const catalog::TableIdentifier id_{{"lake"}, "events"};
};

}  // namespace floe::maintenance::testing
