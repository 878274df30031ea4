#include <spdlog/spdlog.h>

#include <atomic>
#include <iostream>
#include <thread>

#include "commands.h"
#include "console_setup.h"
#include "maintenance_setup.h"
#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/core/metrics.h"
#include "floe/maintenance/metadata_growth.h"
#include "floe/pipeline/materializer.h"
#include "floe/registry/client.h"
#include "floe/server/admin_commands.h"
#include "floe/server/admin_routes.h"
#include "floe/server/http_server.h"
#include "floe/server/rest_catalog_service.h"
#include "floe/storage/retry_metrics.h"
#include "run_preflight.h"
#include "shutdown_signal.h"
#include "storage_setup.h"

namespace floe::cli {

namespace {

// Exit codes beyond commands.h's: the run finished, but a topic is suspended.
constexpr int kExitSuspended = 3;

Result<server::HttpServerOptions> ListenOptions(const std::string& listen, const std::optional<ServerTlsConfig>& tls) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) return Status::InvalidArgument("'" + listen + "' is not host:port");
  server::HttpServerOptions http;
  http.host = listen.substr(0, colon);
  http.port = std::stoi(listen.substr(colon + 1));
  if (tls) {
    http.tls_cert_file = tls->cert_file;
    http.tls_key_file = tls->key_file;
  }
  return http;
}

// The servers `floe run` may start beside the pipeline: the REST catalog (built-in catalog
// only) and the admin API. Both print their address, which tests read when the port is 0.
struct Servers {
  std::unique_ptr<catalog::IcebergCatalog> served_catalog;
  std::unique_ptr<server::HttpServer> catalog_server;
  std::unique_ptr<Console> console;  // after admin_server stops: its routes read it
  std::unique_ptr<server::HttpServer> admin_server;
};

Status StartCatalogServer(const FloeConfig& config, Servers& servers) {
  if (config.catalog.listen.empty()) return Status::OK();
  if (config.catalog.type != CatalogType::kBuiltin) {
    return Status::InvalidArgument(std::string("catalog.listen: only the built-in catalog can be served (catalog.type is ") +
                                   std::string(CatalogTypeName(config.catalog.type)) + ")");
  }
  FLOE_ASSIGN_OR_RETURN(auto uri, DefaultCatalogUri(config));
  FLOE_ASSIGN_OR_RETURN(servers.served_catalog, catalog::IcebergCatalog::Open(uri, config.warehouse));
  FLOE_ASSIGN_OR_RETURN(auto http, ListenOptions(config.catalog.listen, config.catalog.tls));
  http.max_body_bytes = static_cast<std::size_t>(config.catalog.max_request_size);
  http.request_timeout = config.catalog.request_timeout;
  servers.catalog_server = std::make_unique<server::HttpServer>(http);
  server::AddRestCatalogRoutes(*servers.catalog_server, *servers.served_catalog, ServedCatalogOptions(config));
  FLOE_RETURN_IF_ERROR(servers.catalog_server->Start());
  std::cout << "floe: Iceberg REST catalog listening on " << servers.catalog_server->base_url() << std::endl;
  return Status::OK();
}

Status StartAdminServer(const FloeConfig& config, pipeline::Materializer& materializer,
                        const BackgroundMaintenance* maintenance, const MetricsRegistry& metrics, Servers& servers) {
  if (config.admin.listen.empty()) return Status::OK();
  FLOE_ASSIGN_OR_RETURN(auto http, ListenOptions(config.admin.listen, config.admin.tls));
  servers.admin_server = std::make_unique<server::HttpServer>(http);
  server::AdminHandlers handlers;
  handlers.status = [&materializer, maintenance] {
    auto status = materializer.StatusReport();
    status["storage_retries"] = StorageRetriesStatus();
    if (maintenance) status["maintenance"] = maintenance->StatusReport();
    return status;
  };
  handlers.healthy = [&materializer] { return materializer.Healthy(); };
  handlers.metrics = &metrics;
  server::AddAdminRoutes(*servers.admin_server, handlers);
  server::AdminCommands commands;
  commands.resume = [&materializer](const std::string& topic) { return materializer.Resume(topic); };
  commands.skip = [&materializer](const std::string& topic, std::int32_t partition, std::int64_t offset) {
    return materializer.Skip(topic, partition, offset);
  };
  commands.token = config.admin.token;
  commands.auth = config.admin.auth;
  server::AddAdminCommandRoutes(*servers.admin_server, std::move(commands));
  servers.console = AddConsole(*servers.admin_server, config, handlers.status);  // /ui, docs/console.md
  FLOE_RETURN_IF_ERROR(servers.admin_server->Start());
  std::cout << "floe: admin API listening on " << servers.admin_server->base_url() << std::endl;
  return Status::OK();
}

// The registry's TLS certificate and Floe's credentials are checked once at start: refused ones
// are configuration errors that retrying would hide (records would wait forever); an
// unreachable registry is only logged, since records are retried until it comes back.
Status CheckSchemaRegistry(const FloeConfig& config) {
  if (!config.schema_registry) return Status::OK();
  registry::Client client(registry::ClientOptionsFor(*config.schema_registry));
  Status st = client.CheckAccess();
  if (st.code() == StatusCode::kInvalidArgument) return st;
  if (!st.ok()) spdlog::warn("{} (records that need a schema wait for it)", st.message());
  return Status::OK();
}

}  // namespace

void AddRunCommand(CLI::App& app, RunOptions& options) {
  auto* cmd = app.add_subcommand("run", "Materialize the configured topics until SIGINT/SIGTERM");
  cmd->add_option("-c,--config", options.config_path, "Path to floe.yaml")->required();
  cmd->add_flag("--exit-when-caught-up", options.exit_when_caught_up,
                "Materialize up to the end offsets seen at start, commit, and exit (batch mode)");
}

int Run(const RunOptions& options) {
  auto config = LoadConfigFile(options.config_path);
  if (!config.ok()) {
    std::cerr << config.status().message() << "\n";
    return 1;
  }
  if (auto st = CheckRunConfig(*config); !st.ok()) {  // what `floe validate` checks too
    std::cerr << "floe run: " << st.ToString() << "\n";
    return 2;
  }
  for (const auto& warning : maintenance::MetadataGrowthWarnings(*config)) spdlog::warn("{}", warning);
  // Signals are blocked before any thread starts, so only the waiter below receives them.
  BlockShutdownSignals();
  static std::atomic<bool> stop{false};
  std::thread([] {
    const int signal = WaitForShutdownSignal();
    spdlog::info("received signal {}: committing what is buffered, then exiting", signal);
    stop = true;
  }).detach();

  MetricsRegistry metrics;
  // Object-store clients retry on their own; /metrics shows it (floe_storage_retries_total).
  storage::ReportRetriesTo(&metrics);
  struct StopReportingRetries {
    ~StopReportingRetries() { storage::ReportRetriesTo(nullptr); }  // before `metrics` goes
  } stop_reporting_retries;
  if (auto st = PrepareStorage(*config, /*probe=*/true); !st.ok()) {
    std::cerr << "floe run: " << st.ToString() << "\n";
    return 2;
  }
  if (auto st = CheckSchemaRegistry(*config); !st.ok()) {
    std::cerr << "floe run: " << st.ToString() << "\n";
    return 1;
  }
  auto table_catalog = catalog::OpenTableCatalog(*config);
  if (!table_catalog.ok()) {
    std::cerr << "floe run: " << table_catalog.status().ToString() << "\n";
    return 2;
  }
  auto materializer = pipeline::Materializer::Make(*config, **table_catalog, metrics);
  if (!materializer.ok()) {
    std::cerr << "floe run: " << materializer.status().ToString() << "\n";
    return 2;
  }
  // Table maintenance on its own thread (docs/maintenance.md); a batch run leaves it to
  // `floe maintain`. Declared after the materializer, whose topics it asks for.
  std::unique_ptr<BackgroundMaintenance> maintenance;
  if (!options.exit_when_caught_up) {
    auto started = BackgroundMaintenance::Start(*config, **materializer, metrics);
    if (!started.ok()) {
      std::cerr << "floe run: " << started.status().ToString() << "\n";
      return 2;
    }
    maintenance = std::move(*started);
  }
  Servers servers;
  for (auto st : {StartCatalogServer(*config, servers),
                  StartAdminServer(*config, **materializer, maintenance.get(), metrics, servers)}) {
    if (!st.ok()) {
      std::cerr << "floe run: " << st.ToString() << "\n";
      return 2;
    }
  }
  pipeline::RunOptions run;
  run.exit_when_caught_up = options.exit_when_caught_up;
  auto summary = (*materializer)->Run(run, stop);
  if (!summary.ok()) {
    std::cerr << "floe run: " << summary.status().ToString() << "\n";
    return 1;
  }
  std::cout << "floe: " << summary->records_written << " records written in " << summary->commits << " commits, "
            << summary->records_skipped << " skipped, " << summary->records_dead_lettered << " dead-lettered"
            << std::endl;
  if (!summary->suspended.empty()) {
    for (const auto& s : summary->suspended) std::cerr << "floe run: suspended " << s << "\n";
    return kExitSuspended;
  }
  return 0;
}

}  // namespace floe::cli
