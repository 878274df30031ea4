#pragma once
// Fast append (Iceberg's AppendFiles): one new manifest for the new data files plus the
// parent snapshot's manifests, a new manifest list, and a snapshot whose summary carries
// Floe's offsets. The result is a commit (requirements + updates) for the catalog: it is
// valid only if `main` still points at the snapshot it was built on, which is what fences
// a stale writer after a Kafka rebalance.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/iceberg/table_requirement.h"
#include "floe/iceberg/table_update.h"

namespace floe::iceberg {

struct AppendFiles {
  std::vector<DataFile> files;  // partition tuples must follow the table's default spec
  // Extra snapshot summary entries (floe.offsets, floe.commit-id, …).
  std::map<std::string, std::string> summary;
};

struct PreparedCommit {
  std::int64_t snapshot_id = 0;
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
};

// Writes the manifest and manifest list under <table location>/metadata/ and returns the
// commit. Nothing is visible until the catalog applies it; on conflict, call again with
// the fresh metadata (the files written here become orphans for maintenance).
Result<PreparedCommit> PrepareFastAppend(const TableMetadata& base, const AppendFiles& append);

}  // namespace floe::iceberg
