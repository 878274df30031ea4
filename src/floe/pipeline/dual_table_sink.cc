#include "floe/pipeline/dual_table_sink.h"

#include <parquet/file_reader.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <set>

#include "floe/core/arrow_interop.h"
#include "floe/iceberg/table_scan.h"
#include "floe/pipeline/retry.h"

namespace floe::pipeline {

namespace {

// Test hook (tests/integration/test_pipeline_dual.py): die right after the Iceberg commit,
// before the Delta one — the crash the catch-up exists for.
bool CrashBetweenCommits() {
  const char* v = std::getenv("FLOE_TEST_CRASH_BETWEEN_FORMAT_COMMITS");
  return v != nullptr && std::string(v) == "1";
}

std::string PercentDecode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

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

}  // namespace

DualTableSink::DualTableSink(std::unique_ptr<IcebergTableWriter> iceberg, std::vector<std::string> partition_by)
    : iceberg_(std::move(iceberg)), partition_by_(std::move(partition_by)) {}

Result<DeltaTableWriter*> DualTableSink::Delta(const catalog::LoadedTable& table) {
  if (!delta_) {
    FLOE_ASSIGN_OR_RETURN(delta_, DeltaTableWriter::Open(iceberg_->id(), table.metadata.location, partition_by_));
  }
  return delta_.get();
}

Status DualTableSink::CatchUpDelta(const catalog::LoadedTable& table) {
  FLOE_ASSIGN_OR_RETURN(DeltaTableWriter * delta, Delta(table));
  FLOE_RETURN_IF_ERROR(delta->SyncSchema(*table.metadata.CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(auto iceberg_offsets, CommittedOffsets(table.metadata));
  for (int attempt = 0;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto state, delta->LoadState());
    std::map<std::string, std::int64_t> want;
    for (const auto& [topic, partitions] : iceberg_offsets) {
      for (const auto& [p, offset] : partitions) want[DeltaTableWriter::AppId(topic, p)] = offset;
    }
    bool behind = false;
    for (const auto& [app, offset] : want) {
      auto it = state.txn_versions.find(app);
      behind |= it == state.txn_versions.end() || it->second != offset;
    }
    if (!behind) return Status::OK();

    std::set<std::string> in_delta;
    for (const auto& [path, action] : state.files) in_delta.insert(PercentDecode(path));
    FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(table.metadata));
    std::string root = delta->io().Uri("x");  // the table root as data file URIs spell it, with its '/'
    root.pop_back();
    delta::Commit commit;
    commit.operation = "STREAMING UPDATE";
    commit.txns = want;
    for (const auto& data : live) {
      if (data.file_path.rfind(root, 0) != 0) continue;  // not under the table root: not Floe's
      const std::string relative = data.file_path.substr(root.size());
      if (in_delta.count(relative) > 0) continue;
      FLOE_ASSIGN_OR_RETURN(auto described, DescribeExisting(delta->io(), relative, data));
      FLOE_ASSIGN_OR_RETURN(auto add, delta->AddFileFor(state, described));
      commit.adds.push_back(std::move(add));
    }
    auto version = delta::CommitVersion(delta->io(), state, commit);
    if (version.ok()) {
      spdlog::warn("{}: Delta was behind Iceberg; caught up with {} files (version {})", name(), commit.adds.size(),
                   *version);
      return Status::OK();
    }
    if (version.status().code() != StatusCode::kConflict || attempt >= kMaxConflictRetries) return version.status();
    SleepBeforeRetry(attempt);
  }
}

Result<TopicOffsets> DualTableSink::LoadOffsets() {
  auto table = iceberg_->Load();
  if (!table.ok()) {
    if (table.status().code() == StatusCode::kNotFound) return TopicOffsets{};
    return table.status();
  }
  FLOE_RETURN_IF_ERROR(CatchUpDelta(*table));
  return CommittedOffsets(table->metadata);
}

Result<SchemaChange> DualTableSink::EnsureColumns(const schema::Schema& columns) {
  FLOE_ASSIGN_OR_RETURN(auto change, iceberg_->EnsureColumns(columns));
  if (!change.record_error.ok()) return change;
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg_->Load());
  FLOE_ASSIGN_OR_RETURN(DeltaTableWriter * delta, Delta(table));
  FLOE_RETURN_IF_ERROR(delta->SyncSchema(*table.metadata.CurrentSchema()));
  return change;
}

Result<CommitReport> DualTableSink::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg_->Load());
  FLOE_RETURN_IF_ERROR(CatchUpDelta(table));
  std::vector<std::vector<WrittenDataFile>> written(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) {
    FLOE_ASSIGN_OR_RETURN(written[f], iceberg_->WriteFiles(table, flushes[f]));
  }
  FLOE_ASSIGN_OR_RETURN(auto report, iceberg_->CommitWritten(table, flushes, written));
  if (!report.committed) return report;
  if (CrashBetweenCommits()) std::_Exit(137);

  // The same files into Delta, for the partitions Iceberg took.
  auto delta_commit = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(DeltaTableWriter * delta, Delta(table));
    FLOE_RETURN_IF_ERROR(delta->SyncSchema(*table.metadata.CurrentSchema()));
    FLOE_ASSIGN_OR_RETURN(auto state, delta->LoadState());
    std::vector<PartitionFlush> taken;
    std::vector<std::vector<delta::AddFile>> adds;
    for (std::size_t f = 0; f < flushes.size(); ++f) {
      const bool fenced = std::any_of(report.fenced.begin(), report.fenced.end(),
                                      [&](const FencedPartition& x) { return x.partition == flushes[f].partition; });
      if (fenced) continue;
      taken.push_back(flushes[f]);
      adds.emplace_back();
      for (const auto& w : written[f]) {
        FLOE_ASSIGN_OR_RETURN(auto add, delta->AddFileFor(state, w));
        adds.back().push_back(std::move(add));
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto delta_report, delta->CommitAdds(std::move(state), taken, adds));
    if (!delta_report.fenced.empty()) return Status::Conflict("Delta's txn versions disagree with Iceberg's");
    return Status::OK();
  };
  if (auto st = delta_commit(); !st.ok()) {
    // Iceberg has the data; the next commit (or restart) catches Delta up from it.
    spdlog::warn("{}: the Delta commit failed after the Iceberg one, Delta will catch up: {}", name(), st.ToString());
  }
  return report;
}

}  // namespace floe::pipeline
