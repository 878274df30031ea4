#include "floe/sink/delta_file_committer.h"

#include <chrono>

#include "floe/core/retry.h"
#include "floe/delta/partition_values.h"
#include "floe/delta/stats.h"
#include "floe/sink/delta_offsets.h"
#include "floe/sink/delta_schema_manager.h"
#include "floe/sink/fencing.h"
#include "floe/sink/skipped_records.h"

namespace floe::sink {

namespace {

std::int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<delta::AddFile> DeltaFileCommitter::AddFileFor(const delta::TableState& state, const WrittenDataFile& w) {
  FLOE_ASSIGN_OR_RETURN(auto spec, DeltaPartitionSpec(state.schema, state.partition_columns));
  delta::AddFile add;
  add.path = w.relative_path;
  add.size = w.written.bytes;
  add.modification_time_ms = NowMs();
  for (std::size_t i = 0; i < spec.fields.size() && i < w.partition.size(); ++i) {
    const auto* source = state.schema.FindById(spec.fields[i].source_id);
    FLOE_ASSIGN_OR_RETURN(add.partition_values[spec.fields[i].name],
                          delta::PartitionValueString(w.partition[i], *source->type));
  }
  FLOE_ASSIGN_OR_RETURN(add.stats_json, delta::StatsJson(*w.written.metadata, state.schema));
  return add;
}

Result<CommitReport> DeltaFileCommitter::Commit(delta::TableState state, const std::vector<PartitionFlush>& flushes,
                                                const std::vector<WrittenDataFile>& written) {
  CommitReport report;
  if (flushes.empty()) return report;
  std::vector<delta::AddFile> adds;
  for (const auto& w : written) {
    FLOE_ASSIGN_OR_RETURN(auto add, AddFileFor(state, w));
    adds.push_back(std::move(add));
  }
  auto outcome = RetryOnConflict([&](int attempt) -> Status {
    report = CommitReport{};
    report.attempts = attempt;
    if (attempt > 1) {
      FLOE_ASSIGN_OR_RETURN(state, delta::LoadState(table_root_));  // someone wrote that version
    }
    FLOE_ASSIGN_OR_RETURN(auto committed_offsets, DeltaCommittedOffsets(state));
    FenceOutcome fence = Fence(committed_offsets, flushes);
    report.fenced = fence.fenced;
    if (fence.nothing_to_commit()) return Status::OK();
    if (!FilesSeparate(written, fence.taken)) {
      report.rewrite = true;  // the sink writes the taken partitions' files again
      return Status::OK();
    }
    delta::Commit commit;
    commit.operation = "STREAMING UPDATE";
    for (std::size_t i : fence.taken) {
      commit.txns[DeltaAppId(flushes[i].topic, flushes[i].partition)] = flushes[i].next_offset;
    }
    for (std::size_t f = 0; f < written.size(); ++f) {
      if (!TakesFile(written[f], fence.taken)) continue;
      commit.adds.push_back(adds[f]);
      report.bytes += adds[f].size;
      ++report.files;
      report.rows += written[f].written.rows;
    }
    if (auto skipped = SkippedRecordsJson(flushes, fence.taken)) commit.commit_info[std::string(kSkippedRecordsKey)] = *skipped;
    FLOE_ASSIGN_OR_RETURN(report.snapshot_id, delta::CommitVersion(table_root_, state, commit));
    report.committed = true;
    return Status::OK();
  });
  if (!outcome.ok()) return outcome;
  return report;
}

}  // namespace floe::sink
