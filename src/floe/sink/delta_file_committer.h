#pragma once
// Commits data files that are already written to a Delta table, with the Kafka offsets they
// cover, under the exactly-once protocol (docs/architecture.md): one log version holding the
// add actions and one txn action per partition (delta_offsets.h), each partition fenced
// (fencing.h) against the txn versions of the state the version is built on. Put-if-absent of
// the next version is the compare-and-swap; losing it re-checks the fences on the new state.
#include <vector>

#include "floe/core/result.h"
#include "floe/delta/delta_log.h"
#include "floe/sink/data_files.h"
#include "floe/sink/table_sink.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

class DeltaFileCommitter {
 public:
  explicit DeltaFileCommitter(storage::FileIO& table_root) : table_root_(table_root) {}

  // The add action for a data file already written (partition values, stats from its footer).
  static Result<delta::AddFile> AddFileFor(const delta::TableState& state, const WrittenDataFile& file);

  // `state`: the log the files were written against; `written`: the files of the flushes
  // (WrittenDataFile::flushes index `flushes`).
  Result<CommitReport> Commit(delta::TableState state, const std::vector<PartitionFlush>& flushes,
                              const std::vector<WrittenDataFile>& written);

 private:
  storage::FileIO& table_root_;
};

}  // namespace floe::sink
