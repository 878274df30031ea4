// Test tool: runs one maintenance operation of src/floe/maintenance/ on an Iceberg table, so
// that integration tests can check the result with pyiceberg and DuckDB:
//   expire           maintenance::ExpireSnapshots  (expire_snapshots.h)
//   orphans          maintenance::RemoveOrphanFiles (orphan_files.h)
//   merge-manifests  maintenance::MergeManifests    (merge_manifests.h)
// Prints the report as one JSON object.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/maintenance/expire_snapshots.h"
#include "floe/maintenance/merge_manifests.h"
#include "floe/maintenance/orphan_files.h"

namespace {

using floe::Status;

struct Options {
  std::string catalog_uri;
  std::string warehouse;
  std::string table;
  std::string op;
  bool dry_run = false;
  std::int64_t now_ms = 0;  // 0: the clock
  std::int64_t retention_ms = 7LL * 24 * 3'600'000;
  int min_snapshots = 10;
  std::int64_t older_than_ms = 24LL * 3'600'000;
  std::vector<std::string> extra_live;
  int min_count = 0;           // 0: the table property
  std::int64_t target_size = 0;  // 0: the table property
};

nlohmann::json OptionalId(const std::optional<std::int64_t>& id) { return id ? nlohmann::json(*id) : nlohmann::json(); }

floe::Result<nlohmann::json> Run(const Options& o) {
  FLOE_ASSIGN_OR_RETURN(auto id, floe::catalog::ParseTableIdentifier(o.table));
  FLOE_ASSIGN_OR_RETURN(auto catalog, floe::catalog::IcebergCatalog::Open(o.catalog_uri, o.warehouse));
  std::optional<std::int64_t> now;
  if (o.now_ms > 0) now = o.now_ms;
  if (o.op == "expire") {
    floe::maintenance::ExpiryOptions options;
    options.retention = std::chrono::milliseconds(o.retention_ms);
    options.min_snapshots = o.min_snapshots;
    options.dry_run = o.dry_run;
    options.now_ms = now;
    FLOE_ASSIGN_OR_RETURN(auto r, floe::maintenance::ExpireSnapshots(*catalog, id, options));
    return nlohmann::json{{"expired_snapshot_ids", r.expired_snapshot_ids},
                          {"data_files", r.deleted.data_files},
                          {"manifests", r.deleted.manifests},
                          {"manifest_lists", r.deleted.manifest_lists},
                          {"bytes", r.deleted.bytes},
                          {"deleted_paths", r.deleted_paths},
                          {"delete_failures", r.delete_failures},
                          {"snapshots_before", r.snapshots_before},
                          {"snapshots_after", r.snapshots_after},
                          {"metadata_location", r.metadata_location},
                          {"attempts", r.attempts}};
  }
  if (o.op == "orphans") {
    floe::maintenance::OrphanOptions options;
    options.older_than = std::chrono::milliseconds(o.older_than_ms);
    options.dry_run = o.dry_run;
    options.now_ms = now;
    options.extra_live_paths = o.extra_live;
    FLOE_ASSIGN_OR_RETURN(auto r, floe::maintenance::RemoveOrphanFiles(*catalog, id, options));
    return nlohmann::json{{"files_listed", r.files_listed}, {"live_files", r.live_files},
                          {"young_files", r.young_files},   {"orphans", r.orphans},
                          {"orphan_bytes", r.orphan_bytes}, {"delete_failures", r.delete_failures}};
  }
  if (o.op == "merge-manifests") {
    floe::maintenance::ManifestMergeOptions options;
    if (o.min_count > 0) options.min_count_to_merge = o.min_count;
    if (o.target_size > 0) options.target_size_bytes = o.target_size;
    options.dry_run = o.dry_run;
    FLOE_ASSIGN_OR_RETURN(auto r, floe::maintenance::MergeManifests(*catalog, id, options));
    return nlohmann::json{{"manifests_before", r.manifests_before},   {"manifests_replaced", r.manifests_replaced},
                          {"manifests_created", r.manifests_created}, {"manifests_after", r.manifests_after},
                          {"snapshot_id", OptionalId(r.snapshot_id)}, {"metadata_location", r.metadata_location},
                          {"attempts", r.attempts}};
  }
  return Status::InvalidArgument("unknown operation '" + o.op + "'");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run one Iceberg maintenance operation of Floe (test tool)"};
  Options o;
  app.add_option("op", o.op, "expire | orphans | merge-manifests")->required();
  app.add_option("--catalog-uri", o.catalog_uri)->required();
  app.add_option("--warehouse", o.warehouse)->required();
  app.add_option("--table", o.table, "<namespace>.<table>")->required();
  app.add_flag("--dry-run", o.dry_run);
  app.add_option("--now-ms", o.now_ms, "\"now\" in ms since the epoch (default: the clock)");
  app.add_option("--retention-ms", o.retention_ms);
  app.add_option("--min-snapshots", o.min_snapshots);
  app.add_option("--older-than-ms", o.older_than_ms);
  app.add_option("--extra-live", o.extra_live, "live paths another format's log references");
  app.add_option("--min-count", o.min_count, "commit.manifest.min-count-to-merge override");
  app.add_option("--target-size", o.target_size, "commit.manifest.target-size-bytes override");
  CLI11_PARSE(app, argc, argv);
  auto out = Run(o);
  if (!out.ok()) {
    std::cerr << "floe_iceberg_maintain: " << out.status().ToString() << std::endl;
    return 1;
  }
  std::cout << out->dump() << std::endl;
  return 0;
}
