#include <iostream>

#include "commands.h"
#include "floe/core/config.h"
#include "floe/maintenance/metadata_growth.h"
#include "run_preflight.h"
#include "storage_check.h"

namespace floe::cli {

void AddValidateCommand(CLI::App& app, ValidateOptions& options) {
  auto* cmd = app.add_subcommand("validate", "Check a floe.yaml and report every problem with its line");
  cmd->add_option("-c,--config", options.config_path, "Path to floe.yaml")->required();
  cmd->add_flag("--check-storage", options.check_storage,
                "Also write, read, list and delete a probe object in the warehouse and report what the store "
                "supports (region, credential source, conditional creates)");
}

int Validate(const ValidateOptions& options) {
  auto config = LoadConfigFile(options.config_path);
  if (!config.ok()) {
    std::cerr << config.status().message() << "\n";
    return 1;
  }
  // Exactly what `floe run` refuses before it starts (one function for both).
  if (auto st = CheckRunConfig(*config); !st.ok()) {
    std::cerr << options.config_path << ": " << st.ToString() << "\n";
    return 1;
  }
  // Not errors: floe run starts with them, and says the same in its log.
  for (const auto& warning : maintenance::MetadataGrowthWarnings(*config)) {
    std::cerr << options.config_path << ": warning: " << warning << "\n";
  }
  std::cout << options.config_path << ": OK (" << config->topics.size() << " topic entr"
            << (config->topics.size() == 1 ? "y" : "ies") << ")\n";
  for (const auto& t : config->topics) {
    std::cout << "  " << (t.name.empty() ? "pattern " + t.pattern : t.name) << " -> "
              << (t.table.empty() ? "<namespace>.<topic>" : t.table) << " (value: " << PayloadFormatName(t.value)
              << ", key: " << PayloadFormatName(t.key) << ")\n";
  }
  if (options.check_storage) return CheckStorage(*config);
  return 0;
}

}  // namespace floe::cli
