#pragma once
// Keeping the Delta log of a `formats: [iceberg, delta]` table level with the Iceberg table
// that shares its files (dual_sink.h). Iceberg is the truth; Delta follows it in two ways.
//
// CatchUpDelta (ingestion: before every dual commit and when offsets are loaded): when
// Delta's txn versions differ from Iceberg's floe.offsets (a crash or a failed Delta commit
// between the two halves of an ingestion commit), one Delta version makes Delta's live files
// equal Iceberg's live files under the table root: it adds every file Delta lacks (stats
// from the files' footers, dataChange: true) and removes every file Iceberg no longer has
// (a compaction Delta had not mirrored yet, dataChange: false), and sets the txn versions to
// Iceberg's offsets. Afterwards both formats show the same rows.
//
// MirrorIcebergFiles (maintenance, after an Iceberg compaction): when both logs hold the same
// offsets — so the same records — one Delta version with the same add/remove difference, all
// dataChange: false and no txn action: a pure rearrangement, as compaction is. Idempotent:
// nothing to do when the live sets already match.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/sink/delta_sink.h"
#include "floe/storage/file_io.h"

namespace floe::sink {

// Makes Delta's schema equal to the Iceberg table's first. Returns the number of files added
// (0: Delta was not behind).
Result<std::size_t> CatchUpDelta(const catalog::LoadedTable& iceberg_table, DeltaSink& delta);

struct DeltaMirrorReport {
  bool mirrored = false;  // Delta's live files equal Iceberg's now (true also when nothing was to do)
  std::optional<std::int64_t> version;  // the Delta version written (nullopt: none)
  std::size_t added = 0;
  std::size_t removed = 0;
  int attempts = 0;
  std::string skipped_because;  // when !mirrored: why (Delta behind Iceberg, no Delta table, schemas differ)
};

// `delta_root`: the Delta log's table root (the Iceberg table's location). Loads Iceberg from
// `catalog`, then Delta, then Iceberg again (the pair is consistent only when Iceberg did not
// move in between); on a lost put-if-absent it starts over, at most `max_attempts` times.
// Not mirrored (no error): no Delta table there, Delta's txn versions differ from Iceberg's
// offsets (ingestion is between its two halves, or Delta awaits its catch-up), or the
// schemas differ (the next ingestion commit syncs them).
Result<DeltaMirrorReport> MirrorIcebergFiles(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                             storage::FileIO& delta_root, int max_attempts = 5);

}  // namespace floe::sink
