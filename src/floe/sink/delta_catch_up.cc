#include "floe/sink/delta_catch_up.h"

#include <parquet/file_reader.h>

#include <map>
#include <set>

#include "floe/core/percent_encoding.h"
#include "floe/core/retry.h"
#include "floe/iceberg/table_scan.h"
#include "floe/sink/delta_file_committer.h"
#include "floe/sink/delta_offsets.h"
#include "floe/sink/iceberg_offsets.h"

namespace floe::sink {

namespace {

// A data file written earlier, described as if just written: its footer is the source of the
// Delta stats.
Result<WrittenDataFile> DescribeExisting(storage::FileIO& io, const std::string& relative,
                                         const iceberg::DataFile& data) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.OpenRead(relative));
  std::unique_ptr<parquet::ParquetFileReader> reader;
  try {
    reader = parquet::ParquetFileReader::Open(file);
  } catch (const std::exception& e) {
    return Status::IoError("reading the footer of " + relative + ": " + e.what());
  }
  WrittenDataFile out;
  out.relative_path = relative;
  out.partition = data.partition;
  out.written.metadata = reader->metadata();
  out.written.rows = out.written.metadata->num_rows();
  out.written.bytes = data.file_size_in_bytes;
  return out;
}

// The adds and removes that make Delta's live files equal Iceberg's live files under the
// table root (files elsewhere are not Floe's and are left alone).
Status AddFileDifference(storage::FileIO& io, const delta::TableState& state, const iceberg::TableMetadata& metadata,
                         delta::Commit& commit) {
  std::map<std::string, std::string> in_delta;  // decoded relative path -> path as the log spells it
  for (const auto& [path, action] : state.files) {
    FLOE_ASSIGN_OR_RETURN(auto decoded, PercentDecode(path));
    in_delta.emplace(std::move(decoded), path);
  }
  FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(metadata));
  std::string root = io.Uri("x");  // the table root as data file URIs spell it, with its '/'
  root.pop_back();
  std::set<std::string> in_iceberg;
  for (const auto& data : live) {
    if (data.file_path.rfind(root, 0) != 0) continue;  // not under the table root: not Floe's
    const std::string relative = data.file_path.substr(root.size());
    in_iceberg.insert(relative);
    if (in_delta.count(relative) > 0) continue;
    FLOE_ASSIGN_OR_RETURN(auto described, DescribeExisting(io, relative, data));
    FLOE_ASSIGN_OR_RETURN(auto add, DeltaFileCommitter::AddFileFor(state, described));
    commit.adds.push_back(std::move(add));
  }
  // Files Iceberg no longer has were rewritten by a compaction (Floe never deletes rows): their
  // rows are in files Iceberg has, added above or already in Delta.
  for (const auto& [relative, log_path] : in_delta) {
    if (in_iceberg.count(relative) == 0 && relative.find("://") == std::string::npos) {
      commit.removes.push_back(log_path);
    }
  }
  return Status::OK();
}

// Every column of Iceberg's schema is in Delta's (same field ids): the files' stats read the same.
bool SchemaCovers(const schema::Schema& delta_schema, const schema::Schema& iceberg_schema) {
  for (const auto& field : iceberg_schema.fields) {
    if (delta_schema.FindById(field.id) == nullptr) return false;
  }
  return true;
}

}  // namespace

Result<std::size_t> CatchUpDelta(const catalog::LoadedTable& table, DeltaSink& delta) {
  FLOE_RETURN_IF_ERROR(delta.schemas().SyncSchema(*table.metadata.CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(auto iceberg_offsets, CommittedOffsets(table.metadata));
  const auto want = DeltaTxnVersions(iceberg_offsets);
  std::size_t added = 0;
  auto outcome = RetryOnConflict([&](int) -> Status {
    added = 0;
    FLOE_ASSIGN_OR_RETURN(auto state, delta.LoadState());
    bool behind = false;
    for (const auto& [app, offset] : want) {
      auto it = state.txn_versions.find(app);
      behind |= it == state.txn_versions.end() || it->second != offset;
    }
    if (!behind) return Status::OK();
    delta::Commit commit;
    commit.operation = "STREAMING UPDATE";
    commit.txns = want;
    FLOE_RETURN_IF_ERROR(AddFileDifference(delta.io(), state, table.metadata, commit));
    added = commit.adds.size();
    return delta::CommitVersion(delta.io(), state, commit).status();
  });
  if (!outcome.ok()) return outcome;
  return added;
}

Result<DeltaMirrorReport> MirrorIcebergFiles(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                             storage::FileIO& delta_root, int max_attempts) {
  DeltaMirrorReport report;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    report.attempts = attempt;
    FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
    FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(delta_root));
    if (state.version < 0) {
      report.skipped_because = "no Delta table at " + delta_root.Uri("");
      return report;
    }
    // An Iceberg commit between the two loads would pair a Delta state with the wrong
    // Iceberg snapshot: load again and compare.
    FLOE_ASSIGN_OR_RETURN(auto again, catalog.LoadTable(id));
    if (again.metadata_location != table.metadata_location) continue;
    FLOE_ASSIGN_OR_RETURN(auto iceberg_offsets, CommittedOffsets(table.metadata));
    FLOE_ASSIGN_OR_RETURN(auto delta_offsets, DeltaCommittedOffsets(state));
    if (iceberg_offsets != delta_offsets) {
      report.skipped_because =
          "Delta's txn versions differ from Iceberg's offsets (an ingestion commit is between its Iceberg and Delta "
          "halves, or Delta awaits its catch-up)";
      return report;
    }
    if (!SchemaCovers(state.schema, *table.metadata.CurrentSchema())) {
      report.skipped_because = "Delta's schema lacks columns of Iceberg's (the next ingestion commit syncs it)";
      return report;
    }
    delta::Commit commit;
    commit.operation = "OPTIMIZE";
    commit.data_change = false;
    commit.commit_info["floe.mirrors-iceberg-snapshot"] =
        table.metadata.current_snapshot_id ? std::to_string(*table.metadata.current_snapshot_id) : "";
    FLOE_RETURN_IF_ERROR(AddFileDifference(delta_root, state, table.metadata, commit));
    if (commit.adds.empty() && commit.removes.empty()) {
      report.mirrored = true;
      return report;
    }
    auto version = delta::CommitVersion(delta_root, state, commit);
    if (version.status().code() == StatusCode::kConflict) continue;  // someone took the version: start over
    if (!version.ok()) return version.status();
    report.mirrored = true;
    report.version = *version;
    report.added = commit.adds.size();
    report.removed = commit.removes.size();
    return report;
  }
  report.skipped_because = "other writers won " + std::to_string(max_attempts) + " races in a row";
  return report;
}

}  // namespace floe::sink
