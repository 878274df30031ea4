#pragma once
// A Delta table's recent commits, one summary each, for people (the web console's table page,
// docs/console.md): when, what operation, what it added, and the schema when it set one.
// Replay (delta_log.h) answers "what is the table now"; this answers "how did it get here".
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/schema/types.h"
#include "floe/storage/file_io.h"

namespace floe::delta {

struct CommitSummary {
  std::int64_t version = 0;
  std::int64_t timestamp_ms = 0;  // commitInfo.timestamp (0 when the writer left none)
  std::string operation;          // commitInfo.operation
  std::int64_t added_files = 0;
  std::int64_t removed_files = 0;
  std::int64_t added_records = 0;          // summed from the adds' stats.numRecords
  std::optional<schema::Schema> schema;    // set when the commit holds a metaData action
};

// The newest `max_commits` JSON commits still in _delta_log, oldest first. Versions folded
// into a checkpoint whose JSON files were cleaned up are not there: the history starts at the
// oldest JSON commit left. No _delta_log: empty.
Result<std::vector<CommitSummary>> ReadCommitHistory(storage::FileIO& table_root, std::size_t max_commits);

}  // namespace floe::delta
