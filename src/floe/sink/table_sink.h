#pragma once
// Where a topic's records go: one table in one or two formats (iceberg_sink.h, delta_sink.h,
// dual_sink.h; open_sink.h picks). Every sink keeps the exactly-once protocol of
// docs/architecture.md — the table records each partition's next offset in the same commit as
// the data, and a commit for a partition is valid only if the table's offset still equals the
// offset the data began at (fencing.h) — so the pipeline drives all of them through this one
// interface and never learns which format it writes.
//
// Status codes follow core/status.h: kUnavailable / kIoError / kConflict (after the sink's own
// conflict retries ran out) mean "try again later, nothing changed"; anything else means
// retrying cannot help.
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/types.h"
#include "floe/sink/topic_offsets.h"

namespace floe::sink {

// One Kafka partition's rows since its last commit.
struct PartitionFlush {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::int64_t> expected;  // the table's offset for it when this data began
  std::int64_t next_offset = 0;          // what the table says after this commit
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  // Offsets in [expected, next_offset) an operator skipped (POST /topics/{topic}/skip): the
  // commit records them (skipped_records.h) so that every skip stays auditable in the table.
  std::vector<std::int64_t> skipped;
};

struct FencedPartition {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::int64_t> table_offset;  // where the table says it stands now
};

struct CommitReport {
  bool committed = false;  // false: nothing to commit (or everything was fenced)
  std::int64_t snapshot_id = 0;  // Iceberg snapshot id / Delta version
  std::int64_t rows = 0;
  std::int64_t files = 0;
  std::int64_t bytes = 0;
  int attempts = 0;  // > 1: lost optimistic-concurrency races and rebuilt
  std::vector<FencedPartition> fenced;
  // Between a sink and its file committer only (never returned by TableSink::Commit): nothing
  // was committed because a partition fenced meanwhile has rows in files shared with others
  // (data_files.h); the sink writes the others' files again without it.
  bool rewrite = false;

  bool IsFenced(const std::string& topic, std::int32_t partition) const;
  const FencedPartition* FindFenced(const std::string& topic, std::int32_t partition) const;
};

struct SchemaChange {
  Status record_error;               // not OK: the writer schema cannot go into this table
  std::vector<std::string> changes;  // what changed (empty: the table already fits)
  bool created = false;
};

class TableSink {
 public:
  virtual ~TableSink() = default;
  virtual std::string name() const = 0;
  // The offsets the table holds, fresh; empty when the table does not exist yet.
  virtual Result<TopicOffsets> LoadOffsets() = 0;
  // The table's columns as they stand, fresh; nullopt when the table does not exist yet.
  // (Schemaless topics start their inferred schema from them.)
  virtual Result<std::optional<schema::Schema>> Columns() = 0;
  // Makes the table hold `columns`: creates it, or merges the columns into its schema and
  // commits the new schema. An incompatible change is reported in record_error (the record
  // that brought the schema is at fault); other errors (catalog, partition_by) are the Status.
  virtual Result<SchemaChange> EnsureColumns(const schema::Schema& columns) = 0;
  // Writes the batches as Parquet files and commits them with the offsets. Files are
  // complete before the commit; a failed write or commit leaves the table as it was
  // (written files become orphans) and the caller keeps its buffers to try again.
  virtual Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) = 0;
};

}  // namespace floe::sink
