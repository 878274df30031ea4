#include "floe/sink/delta_sink.h"

#include "floe/sink/delta_offsets.h"

namespace floe::sink {

DeltaSink::DeltaSink(std::string name, std::unique_ptr<storage::FileIO> io, std::vector<std::string> partition_by,
                     columnar::ParquetOptions parquet)
    : name_(std::move(name)),
      io_(std::move(io)),
      schemas_(*io_, name_, std::move(partition_by)),
      committer_(*io_),
      parquet_(parquet) {}

Result<std::unique_ptr<DeltaSink>> DeltaSink::Open(std::string name, const std::string& location,
                                                   std::vector<std::string> partition_by,
                                                   columnar::ParquetOptions parquet) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(location));
  return std::unique_ptr<DeltaSink>(new DeltaSink(std::move(name), std::make_unique<storage::FileIO>(std::move(io)),
                                                  std::move(partition_by), parquet));
}

Result<TopicOffsets> DeltaSink::LoadOffsets() {
  auto state = LoadState();
  if (!state.ok()) return state.status().WithContext("table " + name());
  auto offsets = DeltaCommittedOffsets(*state);
  if (!offsets.ok()) return offsets.status().WithContext("table " + name());
  return offsets;
}

Result<std::optional<schema::Schema>> DeltaSink::Columns() {
  auto state = LoadState();
  if (!state.ok()) return state.status().WithContext("table " + name());
  if (state->version < 0) return std::optional<schema::Schema>();
  return std::optional<schema::Schema>(state->schema);
}

Result<CommitReport> DeltaSink::CommitWritten(delta::TableState state, const std::vector<PartitionFlush>& flushes,
                                              const std::vector<std::vector<WrittenDataFile>>& written) {
  auto report = committer_.Commit(std::move(state), flushes, written);
  if (!report.ok()) return report.status().WithContext("committing to table " + name());
  return report;
}

Result<CommitReport> DeltaSink::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  FLOE_ASSIGN_OR_RETURN(auto state, LoadState());
  if (state.version < 0) return Status::NotFound("table " + name() + " does not exist yet");
  FLOE_ASSIGN_OR_RETURN(auto spec, DeltaPartitionSpec(state.schema, state.partition_columns));
  std::vector<std::vector<WrittenDataFile>> written(flushes.size());
  for (std::size_t f = 0; f < flushes.size(); ++f) {
    auto files = WriteDataFiles(*io_, state.schema, spec, flushes[f], parquet_);
    if (!files.ok()) return files.status().WithContext("table " + name());
    written[f] = std::move(*files);
  }
  return CommitWritten(std::move(state), flushes, written);
}

}  // namespace floe::sink
