#include "floe/sink/iceberg_sink.h"

#include "floe/sink/fencing.h"
#include "floe/sink/iceberg_offsets.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

IcebergSink::IcebergSink(catalog::TableCatalog& catalog, catalog::TableIdentifier id,
                         std::vector<std::string> partition_by, DataFileOptions files,
                         std::vector<std::string> sort_by)
    : schemas_(catalog, id, std::move(partition_by), std::move(sort_by)), committer_(catalog, id), files_(files) {}

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

Result<std::vector<WrittenDataFile>> IcebergSink::WriteFiles(const catalog::LoadedTable& table,
                                                             const std::vector<PartitionFlush>& flushes) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(table.metadata.location));
  std::vector<std::size_t> all(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) all[f] = f;
  auto files = WriteDataFiles(io, *table.metadata.CurrentSchema(), *table.metadata.DefaultSpec(), flushes, all, files_);
  if (!files.ok()) return files.status().WithContext("table " + name());
  return files;
}

Result<CommitReport> IcebergSink::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  for (int round = 0; round < kMaxRewrites; ++round) {
    FLOE_ASSIGN_OR_RETURN(auto table, Load());
    auto offsets = CommittedOffsets(table.metadata);
    if (!offsets.ok()) return offsets.status().WithContext("table " + name());
    PreFence fence = FenceBeforeWriting(*offsets, flushes);
    CommitReport report;
    if (!fence.taken.empty()) {
      // Files first: nothing points at them until the snapshot lands.
      FLOE_ASSIGN_OR_RETURN(auto written, WriteFiles(table, fence.taken));
      FLOE_ASSIGN_OR_RETURN(report, CommitWritten(std::move(table), fence.taken, written));
      if (report.rewrite) continue;  // its files are orphans now
    }
    report.fenced.insert(report.fenced.end(), fence.fenced.begin(), fence.fenced.end());
    return report;
  }
  return TooManyRewrites(name());
}

}  // namespace floe::sink
