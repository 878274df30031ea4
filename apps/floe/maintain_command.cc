// `floe maintain`: one maintenance pass over the configured tables, from the command line
// (docs/maintenance.md). The same pass floe run's maintenance thread makes every interval.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/maintenance/table_pass.h"
#include "floe/maintenance/targets.h"
#include "storage_setup.h"

namespace floe::cli {
namespace {

std::string Bytes(std::int64_t n) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int unit = 0;
  while (v >= 1024 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), unit == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[unit]);
  return text;
}

std::string Shape(const maintenance::TableShape& s) {
  std::ostringstream out;
  out << s.data_files << " data files (" << s.small_files << " small, " << Bytes(s.data_bytes) << ")";
  if (s.snapshots) out << ", " << *s.snapshots << " snapshots";
  if (s.manifests) out << ", " << *s.manifests << " manifests";
  return out.str();
}

std::string Formats(const maintenance::MaintenanceTarget& t) {
  if (t.iceberg && t.delta) return "iceberg + delta";
  return t.iceberg ? "iceberg" : "delta";
}

// What one pass did (would do, in a dry run), as lines an operator reads top to bottom.
void Print(const maintenance::MaintenanceTarget& target, const maintenance::TablePassReport& r) {
  const bool dry = r.dry_run;
  std::cout << r.table << " (" << Formats(target) << ")" << (dry ? " [dry run]" : "") << "\n";
  if (r.before) std::cout << "  before:     " << Shape(*r.before) << "\n";
  if (r.files_rewritten > 0) {
    std::cout << "  compaction: " << (dry ? "would rewrite " : r.compacted ? "rewrote " : "wrote, did not commit: ")
              << r.files_rewritten << " files (" << Bytes(r.bytes_rewritten) << ") into " << r.files_added << "\n";
  }
  if (r.manifests_replaced > 0) {
    std::cout << "  manifests:  " << (dry ? "would merge " : "merged ") << r.manifests_replaced << " into "
              << r.manifests_created << "\n";
  }
  if (r.snapshots_expired > 0) {
    std::cout << "  expiry:     " << (dry ? "would expire " : "expired ") << r.snapshots_expired << " snapshots, "
              << (dry ? "deleting " : "deleted ") << r.expired_files_deleted << " files ("
              << Bytes(r.expired_bytes_deleted) << ")\n";
  }
  if (r.orphans_removed > 0) {
    std::cout << "  orphans:    " << (dry ? "would remove " : "removed ") << r.orphans_removed << " files ("
              << Bytes(r.orphan_bytes) << ")\n";
  }
  if (r.delta_log_files_deleted > 0) {
    std::cout << "  delta log:  " << (dry ? "would delete " : "deleted ") << r.delta_log_files_deleted
              << " expired log files\n";
  }
  if (r.vacuumed_files > 0) {
    std::cout << "  vacuum:     " << (dry ? "would delete " : "deleted ") << r.vacuumed_files << " removed files ("
              << Bytes(r.vacuumed_bytes) << ")\n";
  }
  if (r.after) std::cout << "  after:      " << Shape(*r.after) << "\n";
  for (const auto& note : r.notes) std::cout << "  note:       " << note << "\n";
  for (const auto& e : r.errors) std::cout << "  error:      " << e.step << ": " << e.message << "\n";
}

}  // namespace

void AddMaintainCommand(CLI::App& app, MaintainOptions& options) {
  auto* cmd = app.add_subcommand("maintain",
                                 "Run one maintenance pass (compaction, manifest merge, snapshot expiry, orphan "
                                 "removal, Delta log cleanup and vacuum) over the configured tables");
  cmd->add_option("-c,--config", options.config_path, "Path to floe.yaml")->required();
  cmd->add_option("--table", options.table,
                  "Only this table: a topic, or a table name (<namespace>.<table>, or a bare name in "
                  "defaults.namespace)");
  cmd->add_flag("--dry-run", options.dry_run, "Plan every step and print what it would do; change nothing");
  cmd->add_flag("--json", options.json, "Print the reports as JSON");
}

int Maintain(const MaintainOptions& options) {
  auto config = LoadConfigFile(options.config_path);
  if (!config.ok()) {
    std::cerr << config.status().message() << "\n";
    return 1;
  }
  std::vector<maintenance::MaintenanceTarget> targets;
  if (!options.table.empty()) {
    auto target = maintenance::TargetNamed(*config, options.table);
    if (!target.ok()) {
      std::cerr << "floe maintain: " << target.status().message() << "\n";
      return 1;
    }
    targets.push_back(std::move(*target));  // named: maintained even with maintenance.enabled false
  } else {
    for (auto& t : maintenance::TargetsFor(*config)) {
      if (t.settings.enabled) {
        targets.push_back(std::move(t));
      } else if (!options.json) {
        std::cout << t.table_name << ": maintenance is disabled (maintenance.enabled: false); name it with --table "
                  << "to maintain it anyway\n";
      }
    }
  }
  if (auto st = PrepareStorage(*config, /*probe=*/false); !st.ok()) {
    std::cerr << "floe maintain: " << st.ToString() << "\n";
    return 1;
  }
  auto catalog = catalog::OpenTableCatalog(*config);
  if (!catalog.ok()) {
    std::cerr << "floe maintain: " << catalog.status().ToString() << "\n";
    return 1;
  }
  maintenance::PassOptions pass;
  pass.dry_run = options.dry_run;
  nlohmann::json reports = nlohmann::json::array();
  bool failed = false;
  for (const auto& target : targets) {
    const auto report = maintenance::RunTablePass(**catalog, target, pass);
    failed = failed || !report.errors.empty();
    if (options.json) {
      reports.push_back(report.ToJson());
    } else {
      Print(target, report);
    }
  }
  if (options.json) std::cout << nlohmann::json{{"tables", std::move(reports)}}.dump(2) << "\n";
  if (failed) std::cerr << "floe maintain: some steps failed (their errors are above); the next pass retries them\n";
  return failed ? 1 : 0;
}

}  // namespace floe::cli
