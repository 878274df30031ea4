#include "floe/pipeline/iceberg_table_writer.h"

#include <arrow/api.h>
#include <spdlog/spdlog.h>

#include "floe/core/arrow_interop.h"
#include "floe/core/config.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/pipeline/data_files.h"
#include "floe/pipeline/retry.h"
#include "floe/schema/arrow_schema.h"
#include "floe/schema/evolution.h"
#include "floe/storage/file_io.h"

namespace floe::pipeline {

IcebergTableWriter::IcebergTableWriter(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                                       std::vector<std::string> partition_by, columnar::ParquetOptions parquet)
    : catalog_(catalog), id_(std::move(id)), partition_by_(std::move(partition_by)), parquet_(parquet) {}

Result<catalog::LoadedTable> IcebergTableWriter::Reload() {
  for (int attempt = 0;; ++attempt) {
    auto loaded = catalog_.LoadTable(id_);
    if (loaded.ok() || loaded.status().code() != StatusCode::kUnavailable || attempt >= kMaxUnavailableRetries) {
      return loaded;
    }
    SleepBeforeRetry(attempt);
  }
}

Result<TopicOffsets> IcebergTableWriter::LoadOffsets() {
  auto loaded = Reload();
  if (!loaded.ok()) {
    if (loaded.status().code() == StatusCode::kNotFound) return TopicOffsets{};
    return loaded.status();
  }
  auto offsets = CommittedOffsets(loaded->metadata);
  if (!offsets.ok()) return offsets.status().WithContext("table " + name());
  return offsets;
}

Result<catalog::LoadedTable> IcebergTableWriter::Create(const schema::Schema& columns) {
  if (!catalog_.LoadNamespaceProperties(id_.ns).ok()) {
    auto created = catalog_.CreateNamespace(id_.ns, {});
    if (!created.ok() && created.code() != StatusCode::kAlreadyExists) return created;  // a peer may have won
  }
  catalog::NewTable table;
  table.id = id_;
  table.schema = columns;
  schema::PartitionSpec spec;
  for (std::size_t i = 0; i < partition_by_.size(); ++i) {
    auto field = schema::ParsePartitionExpression(partition_by_[i], columns, 1000 + static_cast<int>(i));
    if (!field.ok()) return field.status().WithContext("table " + name() + ": partition_by '" + partition_by_[i] + "'");
    spec.fields.push_back(*field);
  }
  table.spec = spec;
  table.properties["write.format.default"] = "parquet";
  table.properties["write.parquet.compression-codec"] = "zstd";
  auto created = catalog_.CreateTable(table);
  if (!created.ok() && created.status().code() == StatusCode::kAlreadyExists) return Reload();
  if (created.ok()) spdlog::info("created table {} at {}", name(), created->metadata.location);
  return created;
}

Result<SchemaChange> IcebergTableWriter::EnsureColumns(const schema::Schema& columns) {
  SchemaChange out;
  for (int attempt = 0;; ++attempt) {
    auto loaded = Reload();
    if (!loaded.ok() && loaded.status().code() == StatusCode::kNotFound) {
      FLOE_ASSIGN_OR_RETURN(loaded, Create(columns));
      out.created = true;
    }
    FLOE_RETURN_IF_ERROR(loaded.status());
    const schema::Schema& current = *loaded->metadata.CurrentSchema();
    int last_column_id = loaded->metadata.last_column_id;
    auto merged = schema::MergeSchemas(current, columns, last_column_id);
    if (!merged.ok()) {
      out.record_error = merged.status().WithContext("table " + name());
      return out;
    }
    if (!merged->changed) return out;

    schema::Schema next = merged->schema;
    next.schema_id = 0;  // assigned by add-schema
    int highest_id = 0;
    for (const auto& s : loaded->metadata.schemas) highest_id = std::max(highest_id, s.schema_id);
    next.schema_id = highest_id + 1;
    catalog::TableChange change;
    change.id = id_;
    change.requirements.push_back(iceberg::AssertCurrentSchemaId{loaded->metadata.current_schema_id});
    change.requirements.push_back(iceberg::AssertLastAssignedFieldId{loaded->metadata.last_column_id});
    change.updates.push_back(iceberg::AddSchemaUpdate{next, last_column_id});
    change.updates.push_back(iceberg::SetCurrentSchemaUpdate{});
    auto committed = catalog_.CommitTable(change);
    if (committed.ok()) {
      out.changes = merged->changes;
      spdlog::info("evolved table {}: {}", name(), [&] {
        std::string all;
        for (const auto& c : out.changes) all += (all.empty() ? "" : "; ") + c;
        return all;
      }());
      return out;
    }
    const auto code = committed.status().code();
    if ((code != StatusCode::kConflict && code != StatusCode::kUnavailable) || attempt >= kMaxConflictRetries) {
      return committed.status().WithContext("evolving table " + name());
    }
    SleepBeforeRetry(attempt);  // someone else changed the table: merge again on fresh metadata
  }
}

Result<std::vector<WrittenDataFile>> IcebergTableWriter::WriteFiles(const catalog::LoadedTable& table,
                                                                    const PartitionFlush& flush) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(table.metadata.location));
  auto written = WriteDataFiles(io, *table.metadata.CurrentSchema(), *table.metadata.DefaultSpec(), flush, parquet_);
  if (!written.ok()) return written.status().WithContext("table " + name());
  return written;
}

Result<CommitReport> IcebergTableWriter::Commit(const std::vector<PartitionFlush>& flushes) {
  CommitReport report;
  if (flushes.empty()) return report;
  FLOE_ASSIGN_OR_RETURN(auto table, Reload());
  // Files first: nothing points at them until the snapshot lands.
  std::vector<std::vector<WrittenDataFile>> written(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) {
    FLOE_ASSIGN_OR_RETURN(written[f], WriteFiles(table, flushes[f]));
  }
  return CommitWritten(std::move(table), flushes, written);
}

Result<CommitReport> IcebergTableWriter::CommitWritten(catalog::LoadedTable table,
                                                       const std::vector<PartitionFlush>& flushes,
                                                       const std::vector<std::vector<WrittenDataFile>>& written) {
  CommitReport report;
  if (flushes.empty()) return report;
  // Data files as the manifest lists them (metrics from the footers, with the schema the
  // files were written with).
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(table.metadata.location));
  const schema::Schema& schema = *table.metadata.CurrentSchema();
  std::vector<std::vector<iceberg::DataFile>> files(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) {
    for (const auto& w : written[f]) {
      iceberg::DataFile data;
      data.file_path = io.Uri(w.relative_path);
      data.file_size_in_bytes = w.written.bytes;
      data.partition = w.partition;
      FLOE_RETURN_IF_ERROR(iceberg::AddParquetMetrics(*w.written.metadata, schema, data));
      files[f].push_back(std::move(data));
    }
  }

  const std::string commit_id = iceberg::NewUuid();
  for (int attempt = 1;; ++attempt) {
    report.attempts = attempt;
    auto committed_offsets = CommittedOffsets(table.metadata);
    if (!committed_offsets.ok()) return committed_offsets.status().WithContext("table " + name());
    TopicOffsets next = *committed_offsets;
    iceberg::AppendFiles append;
    report.fenced.clear();
    report.rows = report.files = report.bytes = 0;
    for (std::size_t i = 0; i < flushes.size(); ++i) {
      const auto& f = flushes[i];
      const auto now = Find(*committed_offsets, f.topic, f.partition);
      if (now != f.expected) {
        // Someone else committed this partition since our data began: ours is stale.
        report.fenced.push_back({f.topic, f.partition, now});
        continue;
      }
      next[f.topic][f.partition] = f.next_offset;
      for (const auto& d : files[i]) {
        report.rows += d.record_count;
        report.bytes += d.file_size_in_bytes;
        ++report.files;
        append.files.push_back(d);
      }
    }
    if (report.fenced.size() == flushes.size()) return report;
    append.summary[std::string(iceberg::kSummaryFloeOffsets)] = SerializeOffsets(next);
    append.summary[std::string(iceberg::kSummaryFloeCommitId)] = commit_id;
    FLOE_ASSIGN_OR_RETURN(auto prepared, iceberg::PrepareFastAppend(table.metadata, append));
    auto result = catalog_.CommitTable({id_, prepared.requirements, prepared.updates});
    if (result.ok()) {
      report.committed = true;
      report.snapshot_id = prepared.snapshot_id;
      return report;
    }
    const auto code = result.status().code();
    if ((code != StatusCode::kConflict && code != StatusCode::kUnavailable) || attempt >= kMaxConflictRetries) {
      return result.status().WithContext("committing to table " + name());
    }
    if (code == StatusCode::kUnavailable) SleepBeforeRetry(attempt);
    FLOE_ASSIGN_OR_RETURN(table, Reload());
    if (code == StatusCode::kUnavailable && HasCommit(table.metadata, commit_id)) {
      report.committed = true;  // the request landed before the connection broke
      report.snapshot_id = table.metadata.current_snapshot_id.value_or(0);
      return report;
    }
  }
}

}  // namespace floe::pipeline
