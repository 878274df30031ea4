#pragma once
// `formats: [iceberg, delta]`: one set of Parquet files, referenced by an Iceberg table and
// by a Delta log at the same location (docs/delta.md, "Both formats").
//
// Order: every commit goes to Iceberg first, then to Delta with the same files. Iceberg is
// the source of truth for where reading resumes; Delta's txn versions follow it. A crash (or
// a failed Delta commit) between the two leaves Delta behind by whole commits: before every
// commit, and whenever offsets are loaded, Delta is caught up by adding the Iceberg table's
// live files it does not have, with Iceberg's offsets as its txn versions. So each format's
// view is always a complete prefix of the topic, and no data file is ever written twice.
// The Delta schema is kept identical to the Iceberg schema (same field ids).
#include <memory>
#include <string>
#include <vector>

#include "floe/pipeline/delta_table_writer.h"
#include "floe/pipeline/iceberg_table_writer.h"

namespace floe::pipeline {

class DualTableSink final : public TableSink {
 public:
  DualTableSink(std::unique_ptr<IcebergTableWriter> iceberg, std::vector<std::string> partition_by);

  std::string name() const override { return iceberg_->name() + " (iceberg+delta)"; }
  Result<TopicOffsets> LoadOffsets() override;
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns) override;
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) override;

 private:
  Result<DeltaTableWriter*> Delta(const catalog::LoadedTable& table);
  Status CatchUpDelta(const catalog::LoadedTable& table);

  std::unique_ptr<IcebergTableWriter> iceberg_;
  std::vector<std::string> partition_by_;
  std::unique_ptr<DeltaTableWriter> delta_;  // opened at the Iceberg table's location
};

}  // namespace floe::pipeline
