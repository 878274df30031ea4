#pragma once
// One Iceberg table as the pipeline sees it (a TableSink, table_sink.h): created on first sight from the first writer
// schema, its schema evolved as producers' schemas evolve, and data committed together
// with Kafka offsets under DESIGN.md's exactly-once protocol:
//   - each partition's batch is valid only if the table still says the partition stands
//     where the batch began (`expected`); this is checked on fresh metadata inside the
//     optimistic-concurrency loop, so a stale owner after a rebalance cannot commit twice;
//   - the commit (one snapshot for all partitions) records the partitions' next offsets in
//     floe.offsets and a fresh floe.commit-id, which is how an "outcome unknown" commit
//     (the catalog went away mid-request) is recognised afterwards.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/pipeline/committed_offsets.h"
#include "floe/pipeline/data_files.h"
#include "floe/pipeline/table_sink.h"
#include "floe/schema/types.h"

namespace floe::pipeline {

class IcebergTableWriter final : public TableSink {
 public:
  IcebergTableWriter(catalog::TableCatalog& catalog, catalog::TableIdentifier id, std::vector<std::string> partition_by,
                     columnar::ParquetOptions parquet = {});

  const catalog::TableIdentifier& id() const { return id_; }
  std::string name() const override { return catalog::TableIdentifierToString(id_); }

  // The offsets the table holds, fresh from the catalog; empty when the table does not exist.
  Result<TopicOffsets> LoadOffsets() override;
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns) override;
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) override;

  // The steps of Commit, for a sink that shares the data files with another format
  // (dual_table_sink.h): fresh metadata, the files written once, the fenced commit of them.
  Result<catalog::LoadedTable> Load() { return Reload(); }
  Result<std::vector<WrittenDataFile>> WriteFiles(const catalog::LoadedTable& table, const PartitionFlush& flush);
  Result<CommitReport> CommitWritten(catalog::LoadedTable table, const std::vector<PartitionFlush>& flushes,
                                     const std::vector<std::vector<WrittenDataFile>>& written);

 private:
  Result<catalog::LoadedTable> Reload();
  Result<catalog::LoadedTable> Create(const schema::Schema& columns);

  catalog::TableCatalog& catalog_;
  catalog::TableIdentifier id_;
  std::vector<std::string> partition_by_;
  columnar::ParquetOptions parquet_;
};

}  // namespace floe::pipeline
