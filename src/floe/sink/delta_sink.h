#pragma once
// A Delta Lake table as a TableSink, at <warehouse>/<namespace…>/<table>: the schema manager
// creates and evolves it, data files are written against the log state loaded once per
// commit, and the file committer commits them with one txn action per partition.
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/catalog/delta_table_registry.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/sink/data_files.h"
#include "floe/sink/delta_file_committer.h"
#include "floe/sink/delta_schema_manager.h"
#include "floe/sink/table_sink.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

class DeltaSink final : public TableSink {
 public:
  // `name`: how logs and errors name the table; `location`: its root (a path or URI).
  static Result<std::unique_ptr<DeltaSink>> Open(std::string name, const std::string& location,
                                                 std::vector<std::string> partition_by,
                                                 DataFileOptions files = {});

  // After the commit that created the table, the first commit of this process and every
  // commit after a schema change, `registry` names the table `id` (catalog.type glue/unity).
  // A failed registration is logged and tried again at the next commit: it never holds up
  // ingestion, the Delta log stays the truth.
  void RegisterIn(catalog::DeltaTableRegistry* registry, catalog::TableIdentifier id);

  std::string name() const override { return name_; }
  Result<TopicOffsets> LoadOffsets() override;
  Result<std::optional<schema::Schema>> Columns() override;
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns) override { return schemas_.EnsureColumns(columns); }
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) override;

  // For the dual sink, which writes the files once for both formats.
  DeltaSchemaManager& schemas() { return schemas_; }
  Result<CommitReport> CommitWritten(delta::TableState state, const std::vector<PartitionFlush>& flushes,
                                     const std::vector<WrittenDataFile>& written);
  Result<delta::TableState> LoadState() { return delta::LoadState(*io_); }
  storage::FileIO& io() { return *io_; }

 private:
  DeltaSink(std::string name, std::string location, std::unique_ptr<storage::FileIO> io,
            std::vector<std::string> partition_by, DataFileOptions files);
  void Register(const std::string& schema_string);

  std::string name_;
  std::string location_;
  std::unique_ptr<storage::FileIO> io_;  // stable address: the managers keep a reference
  DeltaSchemaManager schemas_;
  DeltaFileCommitter committer_;
  DataFileOptions files_;
  catalog::DeltaTableRegistry* registry_ = nullptr;
  catalog::TableIdentifier registry_id_;
  std::string registered_schema_;  // schemaString last registered ("" = not yet by this process)
};

}  // namespace floe::sink
