#include "floe/sink/iceberg_file_committer.h"

#include "floe/core/retry.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/iceberg/transaction.h"
#include "floe/sink/fencing.h"
#include "floe/sink/iceberg_offsets.h"
#include "floe/sink/skipped_records.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

namespace {

// The data files as a manifest lists them: metrics from the footers, read with the schema
// the files were written with.
Result<std::vector<iceberg::DataFile>> DescribeFiles(const iceberg::TableMetadata& metadata,
                                                    const std::vector<WrittenDataFile>& written) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(metadata.location));
  const schema::Schema& schema = *metadata.CurrentSchema();
  std::vector<iceberg::DataFile> files;
  for (const auto& w : written) {
    iceberg::DataFile data;
    data.file_path = io.Uri(w.relative_path);
    data.file_size_in_bytes = w.written.bytes;
    data.partition = w.partition;
    FLOE_RETURN_IF_ERROR(iceberg::AddParquetMetrics(*w.written.metadata, schema, data));
    files.push_back(std::move(data));
  }
  return files;
}

}  // namespace

IcebergFileCommitter::IcebergFileCommitter(catalog::TableCatalog& catalog, catalog::TableIdentifier id)
    : catalog_(catalog), id_(std::move(id)) {}

Result<CommitReport> IcebergFileCommitter::Commit(catalog::LoadedTable table, const std::vector<PartitionFlush>& flushes,
                                                  const std::vector<WrittenDataFile>& written) {
  CommitReport report;
  if (flushes.empty()) return report;
  const std::string name = catalog::TableIdentifierToString(id_);
  FLOE_ASSIGN_OR_RETURN(auto files, DescribeFiles(table.metadata, written));
  const std::string commit_id = NewUuid();
  auto outcome = RetryOnConflict([&](int attempt) -> Status {
    report = CommitReport{};
    report.attempts = attempt;
    if (attempt > 1) {
      FLOE_ASSIGN_OR_RETURN(table, catalog_.LoadTable(id_));  // lost a race: rebuild on fresh metadata
    }
    auto committed_offsets = CommittedOffsets(table.metadata);
    if (!committed_offsets.ok()) return committed_offsets.status().WithContext("table " + name);
    FenceOutcome fence = Fence(*committed_offsets, flushes);
    report.fenced = fence.fenced;
    if (fence.nothing_to_commit()) return Status::OK();
    if (!FilesSeparate(written, fence.taken)) {
      report.rewrite = true;  // the sink writes the taken partitions' files again
      return Status::OK();
    }
    iceberg::AppendFiles append;
    for (std::size_t f = 0; f < written.size(); ++f) {
      if (!TakesFile(written[f], fence.taken)) continue;
      const iceberg::DataFile& d = files[f];
      report.rows += d.record_count;
      report.bytes += d.file_size_in_bytes;
      ++report.files;
      append.files.push_back(d);
    }
    append.summary[std::string(iceberg::kSummaryFloeOffsets)] = SerializeOffsets(fence.next);
    append.summary[std::string(iceberg::kSummaryFloeCommitId)] = commit_id;
    if (auto skipped = SkippedRecordsJson(flushes, fence.taken)) append.summary[std::string(kSkippedRecordsKey)] = *skipped;
    iceberg::Transaction transaction(table.metadata);
    FLOE_ASSIGN_OR_RETURN(const std::int64_t snapshot_id, transaction.FastAppend(append));
    auto result = catalog_.CommitTable({id_, transaction.requirements(), transaction.updates()});
    if (result.ok()) {
      report.committed = true;
      report.snapshot_id = snapshot_id;
      return Status::OK();
    }
    if (result.status().code() != StatusCode::kUnavailable) return result.status();
    // The outcome is unknown: the request may have landed before the connection broke.
    auto reloaded = catalog_.LoadTable(id_);
    if (reloaded.ok() && HasCommit(reloaded->metadata, commit_id)) {
      report.committed = true;
      report.snapshot_id = snapshot_id;
      return Status::OK();
    }
    return result.status();
  });
  if (!outcome.ok()) return outcome.WithContext("committing to table " + name);
  return report;
}

}  // namespace floe::sink
