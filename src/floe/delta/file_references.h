#pragma once
// Which data files a Delta log still needs, as absolute URIs (the form Iceberg manifests and
// storage listings use): the live `add`s of the newest version, and the `remove` tombstones
// that older versions still read until they are vacuumed. Orphan-file removal in
// `formats: [iceberg, delta]` keeps both sets (maintenance/orphan_files.h's extra-live set).
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "floe/core/result.h"
#include "floe/delta/delta_log.h"
#include "floe/storage/file_io.h"

namespace floe::delta {

struct FileReferences {
  std::int64_t version = -1;  // of the replayed state (-1: no Delta table there)
  std::set<std::string> live;  // URIs of the live add files
  // URIs of removed files not added again -> deletionTimestamp (ms; 0 when the writer left none).
  std::map<std::string, std::int64_t> removed;
};

// A log path (add.path / remove.path: percent-encoded, relative to the root or an absolute
// URI) as the URI of the file.
Result<std::string> DataFileUri(storage::FileIO& table_root, const std::string& log_path);

// The references of `state` (a state loaded from `table_root`).
Result<FileReferences> ReferencedFiles(storage::FileIO& table_root, const TableState& state);
// Replays the log at `table_root` first (no _delta_log: version -1, empty sets).
Result<FileReferences> ReferencedFiles(storage::FileIO& table_root);

}  // namespace floe::delta
