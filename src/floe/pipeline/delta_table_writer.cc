#include "floe/pipeline/delta_table_writer.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>

#include "floe/delta/partition_values.h"
#include "floe/delta/stats.h"
#include "floe/pipeline/data_files.h"
#include "floe/pipeline/retry.h"
#include "floe/schema/arrow_schema.h"
#include "floe/schema/evolution.h"

namespace floe::pipeline {

namespace {

constexpr std::string_view kAppIdPrefix = "floe:";

std::int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Delta's partitions are identity partitions of top-level columns, in Iceberg form here so
// that the shared partitioner splits the rows.
Result<schema::PartitionSpec> IdentitySpec(const schema::Schema& schema, const std::vector<std::string>& columns) {
  schema::PartitionSpec spec;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const schema::NestedField* field = nullptr;
    for (const auto& f : schema.fields) {
      if (f.name == columns[i]) field = &f;
    }
    if (field == nullptr || !field->type->is_primitive()) {
      return Status::Unsupported("partition_by '" + columns[i] +
                                 "': Delta tables partition by top-level primitive columns only (no transforms such as "
                                 "day(...), no nested columns)");
    }
    schema::PartitionField p;
    p.source_id = field->id;
    p.field_id = 1000 + static_cast<int>(i);
    p.name = field->name;
    spec.fields.push_back(p);
  }
  return spec;
}

}  // namespace

std::string DeltaTableWriter::AppId(const std::string& topic, std::int32_t partition) {
  return std::string(kAppIdPrefix) + topic + ":" + std::to_string(partition);
}

DeltaTableWriter::DeltaTableWriter(catalog::TableIdentifier id, storage::FileIO io, std::vector<std::string> partition_by,
                                   columnar::ParquetOptions parquet)
    : id_(std::move(id)), io_(std::move(io)), partition_by_(std::move(partition_by)), parquet_(parquet) {}

Result<std::unique_ptr<DeltaTableWriter>> DeltaTableWriter::Open(catalog::TableIdentifier id, const std::string& location,
                                                                 std::vector<std::string> partition_by,
                                                                 columnar::ParquetOptions parquet) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(location));
  return std::unique_ptr<DeltaTableWriter>(
      new DeltaTableWriter(std::move(id), std::move(io), std::move(partition_by), parquet));
}

Result<TopicOffsets> DeltaTableWriter::LoadOffsets() {
  auto state = delta::LoadState(io_);
  if (!state.ok()) return state.status().WithContext("table " + name());
  TopicOffsets out;
  for (const auto& [app_id, version] : state->txn_versions) {
    if (app_id.rfind(kAppIdPrefix, 0) != 0) continue;  // another writer's transactions
    const auto colon = app_id.rfind(':');
    const std::string topic = app_id.substr(kAppIdPrefix.size(), colon - kAppIdPrefix.size());
    std::int32_t partition = -1;
    const char* begin = app_id.data() + colon + 1;
    const char* end = app_id.data() + app_id.size();
    auto [ptr, ec] = std::from_chars(begin, end, partition);
    if (ec != std::errc() || ptr != end || colon <= kAppIdPrefix.size()) {
      return Status::InvalidArgument("table " + name() + ": txn appId '" + app_id + "' is not floe:<topic>:<partition>");
    }
    out[topic][partition] = version;
  }
  return out;
}

Result<SchemaChange> DeltaTableWriter::EnsureColumns(const schema::Schema& columns) {
  SchemaChange out;
  for (int attempt = 0;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io_));
    delta::Commit commit;
    if (state.version < 0) {
      commit.schema = schema::AssignFreshIds(columns);
      FLOE_RETURN_IF_ERROR(IdentitySpec(*commit.schema, partition_by_).status().WithContext("table " + name()));
      commit.partition_columns = partition_by_;
      commit.operation = "CREATE TABLE";
      out.created = true;
    } else {
      int last_column_id = state.schema.HighestFieldId();
      if (auto it = state.configuration.find("delta.columnMapping.maxColumnId"); it != state.configuration.end()) {
        last_column_id = std::max(last_column_id, std::atoi(it->second.c_str()));
      }
      auto merged = schema::MergeSchemas(state.schema, columns, last_column_id);
      if (!merged.ok()) {
        out.record_error = merged.status().WithContext("table " + name());
        return out;
      }
      if (!merged->changed) return out;
      commit.schema = merged->schema;
      commit.operation = "CHANGE COLUMN";
      out.changes = merged->changes;
    }
    auto version = delta::CommitVersion(io_, state, commit);
    if (version.ok()) {
      spdlog::info("{} table {} (version {})", out.created ? "created" : "evolved", name(), *version);
      return out;
    }
    if (version.status().code() != StatusCode::kConflict || attempt >= kMaxConflictRetries) {
      return version.status().WithContext("table " + name());
    }
    out = SchemaChange{};
    SleepBeforeRetry(attempt);
  }
}

Result<delta::AddFile> DeltaTableWriter::AddFileFor(const delta::TableState& state, const WrittenDataFile& w) {
  FLOE_ASSIGN_OR_RETURN(auto spec, IdentitySpec(state.schema, state.partition_columns));
  delta::AddFile add;
  add.path = w.relative_path;
  add.size = w.written.bytes;
  add.modification_time_ms = NowMs();
  for (std::size_t i = 0; i < spec.fields.size() && i < w.partition.size(); ++i) {
    const auto* source = state.schema.FindById(spec.fields[i].source_id);
    FLOE_ASSIGN_OR_RETURN(add.partition_values[spec.fields[i].name],
                          delta::PartitionValueString(w.partition[i], *source->type));
  }
  FLOE_ASSIGN_OR_RETURN(add.stats_json, delta::StatsJson(*w.written.metadata, state.schema));
  return add;
}

Result<std::vector<delta::AddFile>> DeltaTableWriter::WriteFiles(const delta::TableState& state,
                                                                 const PartitionFlush& flush) {
  FLOE_ASSIGN_OR_RETURN(auto spec, IdentitySpec(state.schema, state.partition_columns));
  FLOE_ASSIGN_OR_RETURN(auto written, WriteDataFiles(io_, state.schema, spec, flush, parquet_));
  std::vector<delta::AddFile> adds;
  for (const auto& w : written) {
    FLOE_ASSIGN_OR_RETURN(auto add, AddFileFor(state, w));
    adds.push_back(std::move(add));
  }
  return adds;
}

Status DeltaTableWriter::SyncSchema(const schema::Schema& schema) {
  for (int attempt = 0;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io_));
    delta::Commit commit;
    if (state.version < 0) {
      FLOE_RETURN_IF_ERROR(IdentitySpec(schema, partition_by_).status().WithContext("table " + name()));
      commit.partition_columns = partition_by_;
      commit.operation = "CREATE TABLE";
    } else if (state.schema.AsStruct()->Equals(*schema.AsStruct())) {
      return Status::OK();
    } else {
      commit.operation = "CHANGE COLUMN";
    }
    commit.schema = schema;
    auto version = delta::CommitVersion(io_, state, commit);
    if (version.ok()) return Status::OK();
    if (version.status().code() != StatusCode::kConflict || attempt >= kMaxConflictRetries) {
      return version.status().WithContext("table " + name());
    }
    SleepBeforeRetry(attempt);
  }
}

Result<CommitReport> DeltaTableWriter::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io_));
  if (state.version < 0) return Status::NotFound("table " + name() + " does not exist yet");
  std::vector<std::vector<delta::AddFile>> files(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) {
    auto written = WriteFiles(state, flushes[f]);
    if (!written.ok()) return written.status().WithContext("table " + name());
    files[f] = std::move(*written);
  }
  return CommitAdds(std::move(state), flushes, files);
}

Result<CommitReport> DeltaTableWriter::CommitAdds(delta::TableState state, const std::vector<PartitionFlush>& flushes,
                                                  const std::vector<std::vector<delta::AddFile>>& files) {
  CommitReport report;
  if (flushes.empty()) return report;
  for (int attempt = 1;; ++attempt) {
    report.attempts = attempt;
    report.fenced.clear();
    report.rows = report.files = report.bytes = 0;
    delta::Commit commit;
    commit.operation = "STREAMING UPDATE";
    for (std::size_t i = 0; i < flushes.size(); ++i) {
      const auto& f = flushes[i];
      const std::string app_id = AppId(f.topic, f.partition);
      auto it = state.txn_versions.find(app_id);
      const std::optional<std::int64_t> now =
          it == state.txn_versions.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
      if (now != f.expected) {
        report.fenced.push_back({f.topic, f.partition, now});  // another owner moved it on
        continue;
      }
      commit.txns[app_id] = f.next_offset;
      for (const auto& add : files[i]) {
        commit.adds.push_back(add);
        report.bytes += add.size;
        ++report.files;
      }
      for (const auto& b : f.batches) report.rows += b->num_rows();
    }
    if (report.fenced.size() == flushes.size()) return report;
    auto version = delta::CommitVersion(io_, state, commit);
    if (version.ok()) {
      report.committed = true;
      report.snapshot_id = *version;
      return report;
    }
    if (version.status().code() != StatusCode::kConflict || attempt >= kMaxConflictRetries) {
      return version.status().WithContext("committing to table " + name());
    }
    FLOE_ASSIGN_OR_RETURN(state, delta::LoadState(io_));  // someone else wrote that version: re-check the fences
  }
}

}  // namespace floe::pipeline
