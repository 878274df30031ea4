#include "floe/sink/iceberg_sink.h"

#include "floe/sink/iceberg_offsets.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

IcebergSink::IcebergSink(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                         std::vector<std::string> partition_by, columnar::ParquetOptions parquet)
    : schemas_(catalog, id, std::move(partition_by)), committer_(catalog, id), parquet_(parquet) {}

Result<TopicOffsets> IcebergSink::LoadOffsets() {
  auto loaded = Load();
  if (!loaded.ok()) {
    if (loaded.status().code() == StatusCode::kNotFound) return TopicOffsets{};
    return loaded.status();
  }
  auto offsets = CommittedOffsets(loaded->metadata);
  if (!offsets.ok()) return offsets.status().WithContext("table " + name());
  return offsets;
}

Result<std::optional<schema::Schema>> IcebergSink::Columns() {
  auto loaded = Load();
  if (!loaded.ok()) {
    if (loaded.status().code() == StatusCode::kNotFound) return std::optional<schema::Schema>();
    return loaded.status();
  }
  const schema::Schema* current = loaded->metadata.CurrentSchema();
  if (current == nullptr) return Status::Internal("table " + name() + ": its metadata has no current schema");
  return std::optional<schema::Schema>(*current);
}

Result<std::vector<std::vector<WrittenDataFile>>> IcebergSink::WriteFiles(const catalog::LoadedTable& table,
                                                                          const std::vector<PartitionFlush>& flushes) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(table.metadata.location));
  std::vector<std::vector<WrittenDataFile>> written(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) {
    auto files = WriteDataFiles(io, *table.metadata.CurrentSchema(), *table.metadata.DefaultSpec(), flushes[f], parquet_);
    if (!files.ok()) return files.status().WithContext("table " + name());
    written[f] = std::move(*files);
  }
  return written;
}

Result<CommitReport> IcebergSink::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  FLOE_ASSIGN_OR_RETURN(auto table, Load());
  // Files first: nothing points at them until the snapshot lands.
  FLOE_ASSIGN_OR_RETURN(auto written, WriteFiles(table, flushes));
  return CommitWritten(std::move(table), flushes, written);
}

}  // namespace floe::sink
