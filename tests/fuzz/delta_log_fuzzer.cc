// Fuzz target: Delta Lake log commits (_delta_log/NNN.json: one action per line, written by
// Floe, delta-rs, Spark or anyone with write access to the table), replayed into one table
// state in order as LoadState does, each record of the input being one commit. Then what
// Floe does with a replayed table: the writability check, and the actions of its next commit
// (an add and a txn) on top of it.
#include "floe/delta/actions_internal.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/protocol.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  delta::TableState state;
  std::int64_t version = 0;
  for (const Record& r : SplitRecords(data, size)) {
    const std::string where = "_delta_log/" + std::to_string(version) + ".json";
    const Status applied = delta::ApplyCommitFile(state, std::string(r.payload), where);
    if (!applied.ok()) {
      Check(applied.code() == StatusCode::kInvalidArgument || applied.code() == StatusCode::kUnsupported,
            "a bad commit is refused as kInvalidArgument or kUnsupported");
      return 0;
    }
    state.version = version++;
  }
  Check(state.num_files == static_cast<std::int64_t>(state.files.size()), "num_files counts the live add actions");
  if (!delta::CheckWritable(state.protocol, state.configuration, state.schema_string).ok()) return 0;
  delta::Commit commit;
  delta::AddFile add;
  add.path = "part-fuzz.parquet";
  add.size = 1;
  for (const auto& column : state.partition_columns) add.partition_values[column] = std::nullopt;
  commit.adds.push_back(add);
  commit.txns["floe:fuzz:0"] = 1;
  (void)delta::CommitActions(state, commit, 1700000000000);
  return 0;
}
