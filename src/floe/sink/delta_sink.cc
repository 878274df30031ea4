#include "floe/sink/delta_sink.h"

#include <spdlog/spdlog.h>

#include "floe/sink/delta_offsets.h"
#include "floe/sink/fencing.h"

namespace floe::sink {

DeltaSink::DeltaSink(std::string name, std::string location, std::unique_ptr<storage::FileIO> io,
                     std::vector<std::string> partition_by, DataFileOptions files)
    : name_(std::move(name)),
      location_(std::move(location)),
      io_(std::move(io)),
      schemas_(*io_, name_, std::move(partition_by)),
      committer_(*io_),
      files_(files) {}

Result<std::unique_ptr<DeltaSink>> DeltaSink::Open(std::string name, const std::string& location,
                                                   std::vector<std::string> partition_by,
                                                   DataFileOptions files) {
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(location));
  return std::unique_ptr<DeltaSink>(new DeltaSink(std::move(name), location,
                                                  std::make_unique<storage::FileIO>(std::move(io)),
                                                  std::move(partition_by), files));
}

void DeltaSink::RegisterIn(catalog::DeltaTableRegistry* registry, catalog::TableIdentifier id) {
  registry_ = registry;
  registry_id_ = std::move(id);
}

void DeltaSink::Register(const std::string& schema_string) {
  if (registry_ == nullptr || schema_string == registered_schema_) return;
  Status st = registry_->RegisterDeltaTable(registry_id_, location_, schema_string);
  if (!st.ok()) {
    spdlog::warn("table {}: not registered as {} in the catalog yet (tried again at the next commit): {}", name_,
                 catalog::TableIdentifierToString(registry_id_), st.ToString());
    return;
  }
  registered_schema_ = schema_string;
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
                                              const std::vector<WrittenDataFile>& written) {
  const std::string schema_string = state.schema_string;
  auto report = committer_.Commit(std::move(state), flushes, written);
  if (!report.ok()) return report.status().WithContext("committing to table " + name());
  Register(schema_string);
  return report;
}

Result<CommitReport> DeltaSink::Commit(const std::vector<PartitionFlush>& flushes) {
  if (flushes.empty()) return CommitReport{};
  for (int round = 0; round < kMaxRewrites; ++round) {
    FLOE_ASSIGN_OR_RETURN(auto state, LoadState());
    if (state.version < 0) return Status::NotFound("table " + name() + " does not exist yet");
    auto offsets = DeltaCommittedOffsets(state);
    if (!offsets.ok()) return offsets.status().WithContext("table " + name());
    PreFence fence = FenceBeforeWriting(*offsets, flushes);
    CommitReport report;
    if (!fence.taken.empty()) {
      FLOE_ASSIGN_OR_RETURN(auto spec, DeltaPartitionSpec(state.schema, state.partition_columns));
      std::vector<std::size_t> all(fence.taken.size());
      for (std::size_t f = 0; f < all.size(); ++f) all[f] = f;
      auto written = WriteDataFiles(*io_, state.schema, spec, fence.taken, all, files_);
      if (!written.ok()) return written.status().WithContext("table " + name());
      FLOE_ASSIGN_OR_RETURN(report, CommitWritten(std::move(state), fence.taken, *written));
      if (report.rewrite) continue;  // its files are orphans now
    }
    report.fenced.insert(report.fenced.end(), fence.fenced.begin(), fence.fenced.end());
    return report;
  }
  return TooManyRewrites(name());
}

}  // namespace floe::sink
