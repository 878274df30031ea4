#pragma once
// An Iceberg table as a TableSink: the schema manager creates and evolves it, data files are
// written against the metadata loaded once per commit, and the file committer commits them
// with the offsets. The dual sink (dual_sink.h) uses the same three steps one by one.
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/sink/data_files.h"
#include "floe/sink/iceberg_file_committer.h"
#include "floe/sink/iceberg_schema_manager.h"
#include "floe/sink/table_sink.h"

namespace floe::sink {

class IcebergSink final : public TableSink {
 public:
  // `sort_by`: the topic's sort expressions, set as the table's sort order (IcebergSchemaManager).
  IcebergSink(catalog::TableCatalog& catalog, catalog::TableIdentifier id, std::vector<std::string> partition_by,
              DataFileOptions files = {}, std::vector<std::string> sort_by = {});

  std::string name() const override { return schemas_.name(); }
  Result<TopicOffsets> LoadOffsets() override;
  Result<std::optional<schema::Schema>> Columns() override;
  Result<SchemaChange> EnsureColumns(const schema::Schema& columns) override { return schemas_.EnsureColumns(columns); }
  Result<CommitReport> Commit(const std::vector<PartitionFlush>& flushes) override;

  // The steps of Commit, for a sink that shares the data files with another format.
  const catalog::TableIdentifier& id() const { return schemas_.id(); }
  IcebergSchemaManager& schemas() { return schemas_; }
  Result<catalog::LoadedTable> Load() { return schemas_.Load(); }
  // Every flush's rows, packed per table partition (data_files.h).
  Result<std::vector<WrittenDataFile>> WriteFiles(const catalog::LoadedTable& table,
                                                  const std::vector<PartitionFlush>& flushes);
  Result<CommitReport> CommitWritten(catalog::LoadedTable table, const std::vector<PartitionFlush>& flushes,
                                     const std::vector<WrittenDataFile>& written) {
    return committer_.Commit(std::move(table), flushes, written);
  }

 private:
  IcebergSchemaManager schemas_;
  IcebergFileCommitter committer_;
  DataFileOptions files_;
};

}  // namespace floe::sink
