#pragma once
// Bringing a Delta log level with the Iceberg table that shares its files (dual_sink.h): when
// Delta's txn versions differ from Iceberg's floe.offsets, one Delta version adds every live
// Iceberg data file under the table root that Delta lacks (stats from the files' footers) and
// sets the txn versions to Iceberg's offsets. Afterwards both formats show the same rows.
#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"
#include "floe/sink/delta_sink.h"

namespace floe::sink {

// Makes Delta's schema equal to the Iceberg table's first. Returns the number of files added
// (0: Delta was not behind).
Result<std::size_t> CatchUpDelta(const catalog::LoadedTable& iceberg_table, DeltaSink& delta);

}  // namespace floe::sink
