#pragma once
// The web console at /ui (docs/console.md): static pages compiled into the binary plus the
// JSON they read. It only reads: resuming or skipping goes through the admin API's POST
// routes, which need admin.token; the page asks the operator for it and sends it itself.
//
//   GET /ui, /ui/           the single page (overview, table page and suspended topics)
//   GET /ui/<asset>         its CSS and JavaScript
//   GET /ui/api/history     the in-process ring of recent samples (status_history.h)
//   GET /ui/api/tables      {"tables": [{"table", "topic", "formats": […]}]}: the configured tables
//   GET /ui/api/tables/{t}  the table's schemas, snapshots, files and partitions (JSON)
//
// Handlers run on the HTTP server's worker threads and must be thread-safe.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"
#include "floe/server/http_server.h"
#include "floe/server/status_history.h"

namespace floe::server {

struct ConsoleHandlers {
  // Must outlive the server. When null, /ui/api/history answers an empty history.
  const StatusHistory* history = nullptr;
  // The configured tables, and one table described (kNotFound: not a configured table).
  std::function<Result<nlohmann::json>()> list_tables;
  std::function<Result<nlohmann::json>(const std::string& table)> describe_table;
};

// Registers the routes above; other /ui paths get the server's 404.
void AddConsoleRoutes(HttpServer& server, ConsoleHandlers handlers);

}  // namespace floe::server
