#pragma once
// Classic Parquet checkpoints (PROTOCOL.md, "Checkpoints"): one row per action of the table
// state — protocol, metaData, txn, add, remove — each in its own struct column.
#include <cstdint>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/delta/delta_log.h"

namespace floe::delta {

// Applies every row of a checkpoint (all parts, in order) to `state`. Columns Floe does not
// need (stats_parsed, partitionValues_parsed, deletion vectors, …) are read through as JSON
// or skipped. Errors name the file.
Status ReadCheckpoint(storage::FileIO& io, const std::vector<std::string>& files, TableState& state);

// Writes the single-file checkpoint of `state` (at state.version) and then _last_checkpoint.
// Returns the number of actions written.
Result<std::int64_t> WriteCheckpoint(storage::FileIO& io, const TableState& state);

}  // namespace floe::delta
