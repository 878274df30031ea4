// Test tool: compacts an Iceberg table's small data files with maintenance::CompactTable
// (src/floe/maintenance/compaction.h), so that integration tests can check the result with
// pyiceberg and DuckDB. Prints {"files_before", "rewritten_files", "added_files",
// "files_after", "snapshot_id", "metadata_location", "attempts"}.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/maintenance/compaction.h"

namespace {

using floe::Status;

struct Options {
  std::string catalog_uri;
  std::string warehouse;
  std::string table;
  std::int64_t target_rows = 1 << 20;
  int max_attempts = 10;
  // Test hooks around the first commit attempt, to force a conflict from another writer.
  std::string signal_prepared;  // written once the first commit is prepared
  std::string wait_for;         // waited for (up to 120 s) before the first commit is sent
};

Status WaitForFile(const std::string& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return Status::Unavailable("timed out waiting for " + path);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::OK();
}

Status Run(const Options& o) {
  FLOE_ASSIGN_OR_RETURN(auto id, floe::catalog::ParseTableIdentifier(o.table));
  FLOE_ASSIGN_OR_RETURN(auto catalog, floe::catalog::IcebergCatalog::Open(o.catalog_uri, o.warehouse));
  floe::maintenance::CompactionOptions options;
  options.target_rows = o.target_rows;
  options.max_commit_attempts = o.max_attempts;
  if (!o.signal_prepared.empty() || !o.wait_for.empty()) {
    options.before_first_commit = [&o]() -> Status {
      if (!o.signal_prepared.empty()) std::ofstream(o.signal_prepared) << "prepared\n";
      if (!o.wait_for.empty()) return WaitForFile(o.wait_for);
      return Status::OK();
    };
  }
  FLOE_ASSIGN_OR_RETURN(auto report, floe::maintenance::CompactTable(*catalog, id, options));
  const nlohmann::json out = {
      {"files_before", report.files_before},
      {"rewritten_files", report.rewritten_files},
      {"added_files", report.added_files},
      {"files_after", report.files_after},
      {"snapshot_id", report.snapshot_id ? nlohmann::json(*report.snapshot_id) : nlohmann::json(nullptr)},
      {"metadata_location", report.metadata_location},
      {"attempts", report.attempts},
  };
  std::cout << out.dump() << std::endl;
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Compact an Iceberg table's small data files with Floe's replace-files commit (test tool)"};
  Options o;
  app.add_option("--catalog-uri", o.catalog_uri)->required();
  app.add_option("--warehouse", o.warehouse)->required();
  app.add_option("--table", o.table, "<namespace>.<table>")->required();
  app.add_option("--target-rows", o.target_rows, "rows per merged file; files with fewer rows are small");
  app.add_option("--max-attempts", o.max_attempts, "commit attempts on conflicts");
  app.add_option("--signal-prepared", o.signal_prepared, "test hook: file written once the first commit is prepared");
  app.add_option("--wait-for", o.wait_for, "test hook: file waited for before the first commit is sent");
  CLI11_PARSE(app, argc, argv);
  const Status st = Run(o);
  if (!st.ok()) {
    std::cerr << "floe_iceberg_compact: " << st.ToString() << std::endl;
    return 1;
  }
  return 0;
}
