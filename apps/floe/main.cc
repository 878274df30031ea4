// The `floe` command line. Each subcommand lives in its own file; this wires them up.
#include <CLI/CLI.hpp>

#include <iostream>

#include "floe/core/logging.h"
#include "floe/core/memory_pool.h"
#include "floe/core/version.h"
#include "commands.h"

int main(int argc, char** argv) {
  floe::ConfigureAllocators();  // before anything allocates
  CLI::App app{"Floe: materialize Kafka topics as Apache Iceberg and Delta Lake tables, exactly once."};
  app.set_version_flag("--version", std::string("floe ") + floe::kVersion + " (Arrow " + floe::kArrowVersion + ")");
  app.require_subcommand(1);
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")->capture_default_str();

  floe::cli::RunOptions run;
  floe::cli::AddRunCommand(app, run);
  floe::cli::ValidateOptions validate;
  floe::cli::AddValidateCommand(app, validate);

  floe::cli::MaintainOptions maintain;
  floe::cli::AddMaintainCommand(app, maintain);

  floe::cli::CatalogServeOptions catalog_serve;
  floe::cli::AddCatalogServeCommand(app, catalog_serve);

  floe::cli::StatusOptions status;
  floe::cli::AddStatusCommand(app, status);
  floe::cli::ResumeOptions resume;
  floe::cli::AddResumeCommand(app, resume);
  floe::cli::SkipOptions skip;
  floe::cli::AddSkipCommand(app, skip);

  CLI11_PARSE(app, argc, argv);
  if (auto st = floe::InitLogging(log_level); !st.ok()) {
    std::cerr << "floe: " << st.message() << "\n";
    return 2;
  }
  if (app.got_subcommand("run")) return floe::cli::Run(run);
  if (app.got_subcommand("validate")) return floe::cli::Validate(validate);
  if (app.got_subcommand("catalog")) return floe::cli::CatalogServe(catalog_serve);
  if (app.got_subcommand("maintain")) return floe::cli::Maintain(maintain);
  if (app.got_subcommand("status")) return floe::cli::ShowStatus(status);
  if (app.got_subcommand("resume")) return floe::cli::Resume(resume);
  if (app.got_subcommand("skip")) return floe::cli::Skip(skip);
  return 2;
}
