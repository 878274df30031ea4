#pragma once
// Commits data files that are already written to an Iceberg table, with the Kafka offsets
// they cover, under the exactly-once protocol (docs/architecture.md):
//   - one snapshot (a fast append) for all partitions of the commit;
//   - each partition's files are fenced (fencing.h) against the offsets of the metadata the
//     snapshot is built on; the catalog's assert-ref-snapshot-id(main) makes that the state
//     the commit lands on, so check and swap agree;
//   - the summary carries floe.offsets (the whole map, moved forward) and a fresh
//     floe.commit-id, by which a commit whose outcome is unknown (the catalog went away
//     mid-request) is recognised afterwards.
// A conflict rebuilds the snapshot on fresh metadata at once (core/retry.h); kUnavailable goes
// back to the caller, who retries later — the files stay valid for that retry.
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/sink/data_files.h"
#include "floe/sink/table_sink.h"

namespace floe::sink {

class IcebergFileCommitter {
 public:
  IcebergFileCommitter(catalog::TableCatalog& catalog, catalog::TableIdentifier id);

  // `table`: the metadata the files were written against (its current schema and spec).
  // `written`: the files of the flushes (WrittenDataFile::flushes index `flushes`).
  Result<CommitReport> Commit(catalog::LoadedTable table, const std::vector<PartitionFlush>& flushes,
                              const std::vector<WrittenDataFile>& written);

 private:
  catalog::TableCatalog& catalog_;
  catalog::TableIdentifier id_;
};

}  // namespace floe::sink
