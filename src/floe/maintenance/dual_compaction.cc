#include "floe/maintenance/dual_compaction.h"

#include <spdlog/spdlog.h>

#include "floe/storage/file_io.h"

namespace floe::maintenance {
namespace {

// The mirror never fails the pass: Iceberg (where reading resumes) is already right, and
// Delta shows the same rows with its older files until a later mirror or catch-up.
sink::DeltaMirrorReport Mirror(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                               storage::FileIO& delta_root) {
  auto mirrored = sink::MirrorIcebergFiles(catalog, id, delta_root);
  if (mirrored.ok()) return *mirrored;
  sink::DeltaMirrorReport failed;
  failed.skipped_because = mirrored.status().ToString();
  return failed;
}

void LogUnmirrored(const catalog::TableIdentifier& id, const sink::DeltaMirrorReport& r) {
  if (r.mirrored) return;
  spdlog::warn("table {}: Delta not yet level with Iceberg's compacted files (a later pass or the next catch-up "
               "does it): {}",
               catalog::TableIdentifierToString(id), r.skipped_because);
}

}  // namespace

Result<DualCompactionReport> CompactDualTable(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                              const CompactionOptions& options) {
  DualCompactionReport report;
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(auto delta_root, storage::FileIO::Open(table.metadata.location));
  if (!options.dry_run) {
    // A previous pass that crashed, or lost its mirror's races, after its Iceberg commit.
    report.delta_before = Mirror(catalog, id, delta_root);
    LogUnmirrored(id, report.delta_before);
  }
  FLOE_ASSIGN_OR_RETURN(report.iceberg, CompactTable(catalog, id, options));
  if (options.dry_run || report.iceberg.attempts == 0) {
    report.delta = report.delta_before;
    return report;
  }
  report.delta = Mirror(catalog, id, delta_root);
  LogUnmirrored(id, report.delta);
  return report;
}

}  // namespace floe::maintenance
