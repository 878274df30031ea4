#pragma once
// The `floe` subcommands: options plus the function that runs each. Exit codes:
// 0 success, 1 the command ran and failed (e.g. invalid config), 2 usage or startup error.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "admin_client.h"

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

// One maintenance pass from the command line (maintain_command.cc, docs/maintenance.md).
struct MaintainOptions {
  std::string config_path;
  std::string table;  // empty: every table of the config with maintenance enabled
  bool dry_run = false;
  bool json = false;
};
void AddMaintainCommand(CLI::App& app, MaintainOptions& options);
int Maintain(const MaintainOptions& options);

// Talking to a running process's admin API (operate_commands.cc).
struct StatusOptions {
  AdminTarget target;
  bool json = false;
};
void AddStatusCommand(CLI::App& app, StatusOptions& options);
int ShowStatus(const StatusOptions& options);

struct ResumeOptions {
  AdminTarget target;
  std::string topic;
};
void AddResumeCommand(CLI::App& app, ResumeOptions& options);
int Resume(const ResumeOptions& options);

struct SkipOptions {
  AdminTarget target;
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
};
void AddSkipCommand(CLI::App& app, SkipOptions& options);
int Skip(const SkipOptions& options);

}  // namespace floe::cli
