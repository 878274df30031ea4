#pragma once
// One Delta Lake table as the pipeline sees it (a TableSink, table_sink.h): created on first
// sight at <warehouse>/<namespace…>/<table>, evolved by new metaData actions, and committed
// with one `txn` action per Kafka partition (appId "floe:<topic>:<partition>", version = the
// next offset) in the same log version as the data — DESIGN.md's exactly-once protocol, with
// put-if-absent of the next version as the compare-and-swap (delta/delta_log.h).
//
// Delta partitions are identity partitions of top-level columns: partition_by entries must
// be plain column names (transforms such as day(ts) are refused when the table is created).
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/delta/delta_log.h"
#include "floe/pipeline/data_files.h"
#include "floe/pipeline/table_sink.h"
#include "floe/storage/file_io.h"

namespace floe::pipeline {

class DeltaTableWriter final : public TableSink {
 public:
  // `location`: the table root (a path or URI).
  static Result<std::unique_ptr<DeltaTableWriter>> Open(catalog::TableIdentifier id, const std::string& location,
                                                        std::vector<std::string> partition_by,
                                                        columnar::ParquetOptions parquet = {});

  std::string name() const override { return catalog::TableIdentifierToString(id_) + " (delta)"; }
  Result<TopicOffsets> LoadOffsets() override;
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns) override;
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) override;

  // "floe:<topic>:<partition>"
  static std::string AppId(const std::string& topic, std::int32_t partition);

  // For a sink that shares the data files with an Iceberg table (dual_table_sink.h):
  // Makes the Delta schema exactly `schema` (same field ids as the Iceberg table), creating
  // the table with these partition columns if needed.
  Status SyncSchema(const schema::Schema& schema);
  // The add action for a data file already written (stats from its footer).
  Result<delta::AddFile> AddFileFor(const delta::TableState& state, const WrittenDataFile& file);
  // Commits files written elsewhere, with the partitions' txn fenced as in Commit.
  Result<CommitReport> CommitAdds(delta::TableState state, const std::vector<PartitionFlush>& flushes,
                                  const std::vector<std::vector<delta::AddFile>>& adds);
  Result<delta::TableState> LoadState() { return delta::LoadState(io_); }
  storage::FileIO& io() { return io_; }

 private:
  DeltaTableWriter(catalog::TableIdentifier id, storage::FileIO io, std::vector<std::string> partition_by,
                   columnar::ParquetOptions parquet);
  Result<std::vector<delta::AddFile>> WriteFiles(const delta::TableState& state, const PartitionFlush& flush);

  catalog::TableIdentifier id_;
  storage::FileIO io_;
  std::vector<std::string> partition_by_;
  columnar::ParquetOptions parquet_;
};

}  // namespace floe::pipeline
