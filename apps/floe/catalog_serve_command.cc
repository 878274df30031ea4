#include <spdlog/spdlog.h>

#include <csignal>
#include <iostream>

#include "commands.h"
#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/server/http_server.h"
#include "floe/server/rest_catalog_service.h"
#include "shutdown_signal.h"
#include "storage_setup.h"

namespace floe::cli {

void AddCatalogServeCommand(CLI::App& app, CatalogServeOptions& options) {
  auto* catalog = app.add_subcommand("catalog", "The built-in Iceberg catalog");
  catalog->require_subcommand(1);
  auto* serve = catalog->add_subcommand("serve", "Serve the Iceberg REST catalog API until SIGINT/SIGTERM");
  serve->add_option("-c,--config", options.config_path, "Path to floe.yaml (warehouse and catalog sections)")->required();
  serve->add_option("--listen", options.listen, "host:port; overrides catalog.listen (default 127.0.0.1:8181)");
}

int CatalogServe(const CatalogServeOptions& options) {
  // Before any thread starts (the HTTP server's deadline watchdog starts with the server object):
  // a thread that does not block them would take a SIGTERM with the default action and die.
  BlockShutdownSignals();
  auto config = LoadConfigFile(options.config_path, ConfigUse::kCatalogServe);
  if (!config.ok()) {
    std::cerr << config.status().message() << "\n";
    return 1;
  }
  if (config->catalog.type != CatalogType::kBuiltin) {
    std::cerr << "floe catalog serve: only the built-in catalog (catalog.type: builtin) can be served; this config's "
                 "catalog is "
              << CatalogTypeName(config->catalog.type) << "\n";
    return 1;
  }
  auto uri = DefaultCatalogUri(*config);
  if (!uri.ok()) {
    std::cerr << "floe catalog serve: " << uri.status().message() << "\n";
    return 1;
  }
  if (auto st = PrepareStorage(*config, /*probe=*/false); !st.ok()) {
    std::cerr << "floe catalog serve: " << st.message() << "\n";
    return 1;
  }
  auto catalog = catalog::IcebergCatalog::Open(*uri, config->warehouse);
  if (!catalog.ok()) {
    std::cerr << "floe catalog serve: " << catalog.status().message() << "\n";
    return 1;
  }
  std::string listen = !options.listen.empty() ? options.listen
                       : !config->catalog.listen.empty() ? config->catalog.listen
                                                         : "127.0.0.1:8181";
  const auto colon = listen.rfind(':');
  server::HttpServerOptions http;
  http.host = listen.substr(0, colon);
  http.port = std::stoi(listen.substr(colon + 1));
  http.max_body_bytes = static_cast<std::size_t>(config->catalog.max_request_size);
  http.request_timeout = config->catalog.request_timeout;
  if (config->catalog.tls) {
    http.tls_cert_file = config->catalog.tls->cert_file;
    http.tls_key_file = config->catalog.tls->key_file;
  }
  server::HttpServer server(http);
  server::AddRestCatalogRoutes(server, **catalog, ServedCatalogOptions(*config));
  if (auto st = server.Start(); !st.ok()) {
    std::cerr << "floe catalog serve: " << st.message() << "\n";
    return 2;
  }
  // Tests and scripts read this line to learn the port when --listen asks for port 0.
  std::cout << "floe: Iceberg REST catalog listening on " << server.base_url() << " (catalog " << *uri
            << ", warehouse " << (*catalog)->warehouse_uri() << ")" << std::endl;
  const int signal = WaitForShutdownSignal();
  spdlog::info("received signal {}, stopping", signal);
  server.Stop();
  return 0;
}

}  // namespace floe::cli
