// Test tool: runs one Delta maintenance operation of src/floe/maintenance/ on a table, so that
// integration tests can check the result with delta-rs and DuckDB
// (tests/integration/test_delta_maintenance.py). Prints the operation's report as JSON.
//   compact  --location L [--target-file-size B] [--target-rows N] [--dry-run]
//   vacuum   --location L [--now-ms T] [--retention-ms R] [--dry-run]
//   cleanup-log --location L [--now-ms T] [--retention-ms R] [--dry-run]
//   references --location L
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>

#include "floe/delta/file_references.h"
#include "floe/maintenance/delta_cleanup.h"
#include "floe/maintenance/delta_compaction.h"
#include "floe/storage/file_io.h"

namespace {

using floe::Result;
using floe::Status;
using Json = nlohmann::json;

struct Options {
  std::string location;
  std::int64_t target_file_size = std::int64_t{128} << 20;
  std::int64_t target_rows = 0;
  std::int64_t now_ms = 0;        // 0: the clock
  std::int64_t retention_ms = -1;  // -1: the table's property
  bool dry_run = false;
};

floe::maintenance::DeltaCleanupOptions Cleanup(const Options& o) {
  floe::maintenance::DeltaCleanupOptions c;
  if (o.now_ms > 0) c.now_ms = o.now_ms;
  if (o.retention_ms >= 0) c.retention_ms = o.retention_ms;
  c.dry_run = o.dry_run;
  return c;
}

Result<Json> Run(const std::string& operation, const Options& o) {
  FLOE_ASSIGN_OR_RETURN(auto io, floe::storage::FileIO::Open(o.location));
  if (operation == "compact") {
    floe::maintenance::CompactionOptions options;
    options.target_file_size = o.target_file_size;
    options.target_rows = o.target_rows;
    options.dry_run = o.dry_run;
    FLOE_ASSIGN_OR_RETURN(auto r, floe::maintenance::CompactDeltaTable(io, options));
    return Json{{"files_before", r.files_before}, {"rewritten_files", r.rewritten_files},
                {"added_files", r.added_files},   {"files_after", r.files_after},
                {"bytes_rewritten", r.bytes_rewritten}, {"partitions_given_up", r.partitions_given_up},
                {"version", r.version ? Json(*r.version) : Json(nullptr)}, {"attempts", r.attempts},
                {"removed", r.removed}, {"added", r.added}};
  }
  if (operation == "vacuum") {
    FLOE_ASSIGN_OR_RETURN(auto r, floe::maintenance::VacuumDelta(io, Cleanup(o)));
    return Json{{"version", r.version}, {"deleted", r.deleted}, {"bytes", r.bytes}, {"kept_tombstones", r.kept_tombstones}};
  }
  if (operation == "cleanup-log") {
    FLOE_ASSIGN_OR_RETURN(auto r, floe::maintenance::CleanUpDeltaLog(io, Cleanup(o)));
    return Json{{"cutoff_checkpoint", r.cutoff_checkpoint ? Json(*r.cutoff_checkpoint) : Json(nullptr)},
                {"oldest_version_kept", r.oldest_version_kept},
                {"deleted", r.deleted}};
  }
  if (operation == "references") {
    FLOE_ASSIGN_OR_RETURN(auto r, floe::delta::ReferencedFiles(io));
    return Json{{"version", r.version}, {"live", r.live}, {"removed", r.removed}};
  }
  return Status::InvalidArgument("unknown operation '" + operation + "'");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run one Delta maintenance operation of Floe on a table (test tool)"};
  std::string operation;
  Options o;
  app.add_option("operation", operation, "compact | vacuum | cleanup-log | references")->required();
  app.add_option("--location", o.location, "the Delta table's root")->required();
  app.add_option("--target-file-size", o.target_file_size, "compact: bytes");
  app.add_option("--target-rows", o.target_rows, "compact: rows per merged file (0: bytes decide)");
  app.add_option("--now-ms", o.now_ms, "vacuum, cleanup-log: the clock (ms since the epoch)");
  app.add_option("--retention-ms", o.retention_ms, "vacuum, cleanup-log: instead of the table property");
  app.add_flag("--dry-run", o.dry_run, "list, change nothing");
  CLI11_PARSE(app, argc, argv);
  auto out = Run(operation, o);
  if (!out.ok()) {
    std::cerr << "floe_delta_maintain: " << out.status().ToString() << std::endl;
    return 1;
  }
  std::cout << out->dump() << std::endl;
  return 0;
}
