#include "floe/sink/dual_sink.h"

#include <spdlog/spdlog.h>

#include "floe/core/fault_injection.h"
#include "floe/sink/delta_catch_up.h"
#include "floe/sink/fencing.h"
#include "floe/sink/iceberg_offsets.h"

namespace floe::sink {

DualSink::DualSink(std::unique_ptr<IcebergSink> iceberg, std::vector<std::string> partition_by, DataFileOptions files)
    : iceberg_(std::move(iceberg)), partition_by_(std::move(partition_by)), files_(files) {}

void DualSink::RegisterDeltaIn(catalog::DeltaTableRegistry* registry, catalog::TableIdentifier id) {
  delta_registry_ = registry;
  delta_id_ = std::move(id);
}

Result<DeltaSink*> DualSink::Delta(const catalog::LoadedTable& table) {
  if (!delta_) {
    FLOE_ASSIGN_OR_RETURN(delta_, DeltaSink::Open(name(), table.metadata.location, partition_by_, files_));
    delta_->RegisterIn(delta_registry_, delta_id_);
  }
  return delta_.get();
}

Result<TopicOffsets> DualSink::LoadOffsets() {
  auto table = iceberg_->Load();
  if (!table.ok()) {
    if (table.status().code() == StatusCode::kNotFound) return TopicOffsets{};
    return table.status();
  }
  FLOE_ASSIGN_OR_RETURN(DeltaSink * delta, Delta(*table));
  FLOE_ASSIGN_OR_RETURN(auto added, CatchUpDelta(*table, *delta));
  if (added > 0) spdlog::warn("{}: Delta was behind Iceberg; caught up with {} files", name(), added);
  return CommittedOffsets(table->metadata);
}

Result<SchemaChange> DualSink::EnsureColumns(const schema::Schema& columns) {
  catalog::LoadedTable table;
  FLOE_ASSIGN_OR_RETURN(auto change, iceberg_->schemas().EnsureColumns(columns, &table));
  if (!change.record_error.ok()) return change;
  FLOE_ASSIGN_OR_RETURN(DeltaSink * delta, Delta(table));
  FLOE_RETURN_IF_ERROR(delta->schemas().SyncSchema(*table.metadata.CurrentSchema()));
  return change;
}

Result<CommitReport> DualSink::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  for (int round = 0; round < kMaxRewrites; ++round) {
    FLOE_ASSIGN_OR_RETURN(auto table, iceberg_->Load());
    FLOE_ASSIGN_OR_RETURN(DeltaSink * delta, Delta(table));
    FLOE_ASSIGN_OR_RETURN(auto added, CatchUpDelta(table, *delta));
    if (added > 0) spdlog::warn("{}: Delta was behind Iceberg; caught up with {} files", name(), added);
    auto offsets = CommittedOffsets(table.metadata);
    if (!offsets.ok()) return offsets.status().WithContext("table " + name());
    PreFence fence = FenceBeforeWriting(*offsets, flushes);
    CommitReport report;
    if (!fence.taken.empty()) {
      FLOE_ASSIGN_OR_RETURN(auto written, iceberg_->WriteFiles(table, fence.taken));
      FLOE_ASSIGN_OR_RETURN(report, iceberg_->CommitWritten(table, fence.taken, written));
      if (report.rewrite) continue;  // its files are orphans now
      if (report.committed) CommitDelta(*delta, fence.taken, written, report);
    }
    report.fenced.insert(report.fenced.end(), fence.fenced.begin(), fence.fenced.end());
    return report;
  }
  return TooManyRewrites(name());
}

void DualSink::CommitDelta(DeltaSink& delta, const std::vector<PartitionFlush>& flushes,
                           const std::vector<WrittenDataFile>& written, const CommitReport& report) {
  CrashIfArmed(kFaultCrashBetweenFormatCommits);

  // The same files into Delta, for the partitions Iceberg took. CatchUpDelta made Delta's
  // schema Iceberg's, so the files' stats read the same.
  auto delta_commit = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto state, delta.LoadState());
    std::vector<PartitionFlush> taken;
    std::vector<std::size_t> taken_indexes;
    for (std::size_t f = 0; f < flushes.size(); ++f) {
      if (report.IsFenced(flushes[f].topic, flushes[f].partition)) continue;
      taken.push_back(flushes[f]);
      taken_indexes.push_back(f);
    }
    FLOE_ASSIGN_OR_RETURN(auto delta_report,
                          delta.CommitWritten(std::move(state), taken, FilesFor(written, taken_indexes)));
    if (!delta_report.fenced.empty()) return Status::Conflict("Delta's txn versions disagree with Iceberg's");
    return Status::OK();
  };
  if (auto st = delta_commit(); !st.ok()) {
    // Iceberg has the data; the next commit (or restart) catches Delta up from it.
    spdlog::warn("{}: the Delta commit failed after the Iceberg one, Delta will catch up: {}", name(), st.ToString());
  }
}

}  // namespace floe::sink
