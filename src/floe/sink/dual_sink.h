#pragma once
// `formats: [iceberg, delta]`: one set of Parquet files, referenced by an Iceberg table and
// by a Delta log at the same location (docs/delta.md, "Both formats").
//
// Order: every commit goes to Iceberg first, then to Delta with the same files. Iceberg is
// the source of truth for where reading resumes; Delta's txn versions follow it. A crash (or
// a failed Delta commit) between the two leaves Delta behind by whole commits: before every
// commit, and whenever offsets are loaded, Delta is caught up (delta_catch_up.h). So each
// format's view is always a complete prefix of the topic, and no data file is written twice.
// The Delta schema is kept identical to the Iceberg schema (same field ids).
#include <memory>
#include <string>
#include <vector>

#include "floe/sink/delta_sink.h"
#include "floe/sink/iceberg_sink.h"

namespace floe::sink {

class DualSink final : public TableSink {
 public:
  DualSink(std::unique_ptr<IcebergSink> iceberg, std::vector<std::string> partition_by, DataFileOptions files = {});
  // The Delta side is registered in `registry` as `id` (DeltaSink::RegisterIn).
  void RegisterDeltaIn(catalog::DeltaTableRegistry* registry, catalog::TableIdentifier id);

  std::string name() const override { return iceberg_->name() + " (iceberg+delta)"; }
  Result<TopicOffsets> LoadOffsets() override;
  // Iceberg's: the dual sink keeps Delta's schema equal to it.
  Result<std::optional<schema::Schema>> Columns() override { return iceberg_->Columns(); }
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns) override;
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) override;

 private:
  // The Delta side, opened at the Iceberg table's location once that is known.
  Result<DeltaSink*> Delta(const catalog::LoadedTable& table);
  // After Iceberg committed `report`: the same files into Delta for the partitions it took. A
  // failure is logged; Delta catches up from Iceberg at the next commit or restart.
  void CommitDelta(DeltaSink& delta, const std::vector<PartitionFlush>& flushes, const std::vector<WrittenDataFile>& written,
                   const CommitReport& report);

  std::unique_ptr<IcebergSink> iceberg_;
  std::vector<std::string> partition_by_;
  DataFileOptions files_;  // the Delta side's (Delta's own commits: catch-up only)
  std::unique_ptr<DeltaSink> delta_;
  catalog::DeltaTableRegistry* delta_registry_ = nullptr;
  catalog::TableIdentifier delta_id_;
};

}  // namespace floe::sink
