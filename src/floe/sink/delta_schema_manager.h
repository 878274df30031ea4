#pragma once
// Creates a Delta table on first sight at its location and evolves its schema with new
// metaData actions (the same merge rules as Iceberg: schema/evolution.h). Each change is one
// log version written by put-if-absent; losing that race re-runs the change on the new state.
//
// Delta partitions are identity partitions of top-level columns: partition_by entries must be
// plain column names (transforms such as day(ts) are refused when the table is created).
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/delta/delta_log.h"
#include "floe/schema/partition.h"
#include "floe/schema/types.h"
#include "floe/sink/table_sink.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

class DeltaSchemaManager {
 public:
  DeltaSchemaManager(storage::FileIO& table_root, std::string name, std::vector<std::string> partition_by);

  // TableSink::EnsureColumns: create with `columns` (fresh field ids), or merge them in.
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns);
  // Makes the schema exactly `schema`, ids included (the dual sink keeps Delta's schema equal
  // to Iceberg's), creating the table if needed.
  Status SyncSchema(const schema::Schema& schema);

 private:
  storage::FileIO& table_root_;
  std::string name_;
  std::vector<std::string> partition_by_;
};

// Delta's partitions in Iceberg form (identity of top-level primitive columns), so that the
// shared partitioner splits rows the same way for both formats. kUnsupported otherwise.
Result<schema::PartitionSpec> DeltaPartitionSpec(const schema::Schema& schema, const std::vector<std::string>& columns);

}  // namespace floe::sink
