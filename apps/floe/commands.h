#pragma once
// The `floe` subcommands: options plus the function that runs each. Exit codes:
// 0 success, 1 the command ran and failed (e.g. invalid config), 2 usage or startup error.
#include <CLI/CLI.hpp>

#include <string>

namespace floe::cli {

struct ValidateOptions {
  std::string config_path;
  bool check_storage = false;  // also probe the warehouse (storage_check.h)
};
void AddValidateCommand(CLI::App& app, ValidateOptions& options);
int Validate(const ValidateOptions& options);

struct RunOptions {
  std::string config_path;
  bool exit_when_caught_up = false;
};
void AddRunCommand(CLI::App& app, RunOptions& options);
int Run(const RunOptions& options);

struct CatalogServeOptions {
  std::string config_path;
  std::string listen;
};
void AddCatalogServeCommand(CLI::App& app, CatalogServeOptions& options);
int CatalogServe(const CatalogServeOptions& options);

}  // namespace floe::cli
