#pragma once
// Compaction of a `formats: [iceberg, delta]` table: one set of compacted files referenced by
// both logs (sink/dual_sink.h writes each data file once for both formats).
//
// Order, as for ingestion (Iceberg is where reading resumes, Delta follows it):
//   1. CompactTable (compaction.h) commits the Iceberg replace snapshot;
//   2. sink::MirrorIcebergFiles (sink/delta_catch_up.h) commits one Delta version that
//      removes the files Iceberg no longer has and adds the merged ones, all dataChange:
//      false, no txn action.
// Step 2 is idempotent and is also run first, before planning: a crash between 1 and 2 (or a
// mirror that lost its races) leaves Delta with the small files — the same rows, so both
// views stay exact — and the next compaction pass (or, when ingestion has moved on and Delta
// is behind after a crash, the ingestion's catch-up, which also removes what Iceberg removed)
// brings Delta's files level with Iceberg's. Step 2 only runs when Delta's txn versions equal
// Iceberg's floe.offsets, i.e. when both hold exactly the same records; otherwise an ingestion
// commit is between its Iceberg and Delta halves and the mirror is left for later.
//
// Never a duplicated or dropped row in either view: Iceberg's replace keeps its rows; the
// Delta version swaps files that hold the same rows (Iceberg's live set at the same offsets).
#include <cstddef>
#include <cstdint>
#include <optional>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/maintenance/compaction.h"
#include "floe/sink/delta_catch_up.h"

namespace floe::maintenance {

struct DualCompactionReport {
  CompactionReport iceberg;
  // The mirror run before planning (files a crashed or raced pass left behind) and after the
  // Iceberg commit. A dry run mirrors nothing.
  sink::DeltaMirrorReport delta_before;
  sink::DeltaMirrorReport delta;
};

// Errors: those of CompactTable; a failed mirror after a committed Iceberg replace is not an
// error (the report says delta.mirrored == false and why; the next pass mirrors it).
Result<DualCompactionReport> CompactDualTable(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                              const CompactionOptions& options = {});

}  // namespace floe::maintenance
