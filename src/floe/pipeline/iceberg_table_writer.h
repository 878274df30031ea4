#pragma once
// One Iceberg table as the pipeline sees it: created on first sight from the first writer
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
#include "floe/schema/types.h"

namespace floe::pipeline {

struct PartitionFlush {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::int64_t> expected;  // the table's offset for it when this data began
  std::int64_t next_offset = 0;          // what the table says after this commit
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
};

struct FencedPartition {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::int64_t> table_offset;  // where the table says it stands now
};

struct CommitReport {
  bool committed = false;  // false: nothing to commit (or everything was fenced)
  std::int64_t snapshot_id = 0;
  std::int64_t rows = 0;
  std::int64_t files = 0;
  std::int64_t bytes = 0;
  int attempts = 0;        // > 1: lost optimistic-concurrency races and rebuilt
  std::vector<FencedPartition> fenced;
};

struct SchemaChange {
  Status record_error;               // not OK: the writer schema cannot go into this table
  std::vector<std::string> changes;  // what changed (empty: the table already fits)
  bool created = false;
};

class IcebergTableWriter {
 public:
  IcebergTableWriter(catalog::TableCatalog& catalog, catalog::TableIdentifier id, std::vector<std::string> partition_by,
                     columnar::ParquetOptions parquet = {});

  const catalog::TableIdentifier& id() const { return id_; }
  std::string name() const { return catalog::TableIdentifierToString(id_); }

  // The offsets the table holds, fresh from the catalog; empty when the table does not exist.
  Result<TopicOffsets> LoadOffsets();
  // Makes the table hold `columns`: creates it, or merges the columns into its schema and
  // commits the new schema. An incompatible change is reported in record_error (the record
  // that brought the schema is at fault); other errors (catalog, partition_by) are the Status.
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns);
  // Writes the batches as Parquet files and commits them with the offsets. Files are
  // complete before the commit; a failed write or commit leaves the table as it was
  // (written files become orphans) and the caller keeps its buffers to try again.
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes);

 private:
  Result<catalog::LoadedTable> Reload();
  Result<catalog::LoadedTable> Create(const schema::Schema& columns);
  Result<std::vector<iceberg::DataFile>> WriteFiles(const catalog::LoadedTable& table, const PartitionFlush& flush);

  catalog::TableCatalog& catalog_;
  catalog::TableIdentifier id_;
  std::vector<std::string> partition_by_;
  columnar::ParquetOptions parquet_;
};

}  // namespace floe::pipeline
