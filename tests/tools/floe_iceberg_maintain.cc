// Test tool: runs one maintenance operation of src/floe/maintenance/ on an Iceberg table, so
// that integration tests can check the result with pyiceberg and DuckDB:
//   expire           maintenance::ExpireSnapshots  (expire_snapshots.h)
//   orphans          maintenance::RemoveOrphanFiles (orphan_files.h)
//   merge-manifests  maintenance::MergeManifests    (merge_manifests.h)
//   seed             creates the table (one long column "id") and makes --appends fast appends
//                    of --rows ids each, with floe.offsets, as the pipeline would: a table on
//                    any store (--config configures object stores) without the pipeline
// Prints the report as one JSON object.
#include <CLI/CLI.hpp>
#include <arrow/api.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/columnar/parquet_file_writer.h"
#include "floe/core/arrow_interop.h"
#include "floe/core/config.h"
#include "floe/core/uuid.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/schema/arrow_schema.h"
#include "floe/storage/object_stores.h"
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
  std::string config;  // floe.yaml whose storage: section configures object stores
  int appends = 3;
  int rows = 10;
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

// One fast append of a Parquet file with ids [first, first + rows).
Status AppendIds(floe::catalog::TableCatalog& catalog, const floe::catalog::TableIdentifier& id, std::int64_t first,
                 std::int64_t rows) {
  FLOE_ASSIGN_OR_RETURN(auto table, catalog.LoadTable(id));
  const floe::schema::Schema& schema = *table.metadata.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(auto arrow_schema, floe::schema::ToArrowSchema(schema));
  arrow::Int64Builder ids;
  for (std::int64_t i = first; i < first + rows; ++i) FLOE_RETURN_IF_ARROW_ERROR(ids.Append(i));
  FLOE_ASSIGN_OR_RETURN_ARROW(auto column, ids.Finish());
  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(table.metadata.location));
  const std::string relative = "data/" + floe::NewUuid() + ".parquet";
  FLOE_ASSIGN_OR_RETURN(auto file, io.Create(relative));
  FLOE_ASSIGN_OR_RETURN(auto writer, floe::columnar::ParquetFileWriter::Open(file->stream(), arrow_schema));
  FLOE_RETURN_IF_ERROR(writer->Write(*arrow::RecordBatch::Make(arrow_schema, rows, {column})));
  FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());
  FLOE_RETURN_IF_ERROR(file->Commit());
  floe::iceberg::AppendFiles append;
  append.files.emplace_back();
  append.files.back().file_path = io.Uri(relative);
  append.files.back().file_size_in_bytes = written.bytes;
  FLOE_RETURN_IF_ERROR(floe::iceberg::AddParquetMetrics(*written.metadata, schema, append.files.back()));
  append.summary["floe.offsets"] = R"({"t":{"0":)" + std::to_string(first + rows) + "}}";
  FLOE_ASSIGN_OR_RETURN(auto commit, floe::iceberg::PrepareFastAppend(table.metadata, append));
  return catalog.CommitTable({id, commit.requirements, commit.updates}).status();
}

floe::Result<nlohmann::json> Seed(floe::catalog::TableCatalog& catalog, const floe::catalog::TableIdentifier& id,
                                  const Options& o) {
  auto created_ns = catalog.CreateNamespace(id.ns, {});
  if (!created_ns.ok() && created_ns.code() != floe::StatusCode::kAlreadyExists) return created_ns;
  floe::catalog::NewTable table;
  table.id = id;
  FLOE_ASSIGN_OR_RETURN(table.schema,
                        floe::schema::FromArrowSchema(*arrow::schema({arrow::field("id", arrow::int64(), false)})));
  FLOE_RETURN_IF_ERROR(catalog.CreateTable(table).status());
  for (int k = 0; k < o.appends; ++k) FLOE_RETURN_IF_ERROR(AppendIds(catalog, id, std::int64_t{k} * o.rows, o.rows));
  FLOE_ASSIGN_OR_RETURN(auto loaded, catalog.LoadTable(id));
  return nlohmann::json{{"metadata_location", loaded.metadata_location}, {"location", loaded.metadata.location}};
}

floe::Result<nlohmann::json> Run(const Options& o) {
  if (!o.config.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto config, floe::LoadConfigFile(o.config, floe::ConfigUse::kCatalogServe));
    FLOE_RETURN_IF_ERROR(floe::storage::ConfigureObjectStores(config.storage));
  }
  FLOE_ASSIGN_OR_RETURN(auto id, floe::catalog::ParseTableIdentifier(o.table));
  FLOE_ASSIGN_OR_RETURN(auto catalog, floe::catalog::IcebergCatalog::Open(o.catalog_uri, o.warehouse));
  if (o.op == "seed") return Seed(*catalog, id, o);
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
  app.add_option("op", o.op, "expire | orphans | merge-manifests | seed")->required();
  app.add_option("--config", o.config, "floe.yaml: its storage: section configures object stores (s3://)");
  app.add_option("--appends", o.appends, "seed: fast appends");
  app.add_option("--rows", o.rows, "seed: rows per append");
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
