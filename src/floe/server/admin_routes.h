#pragma once
// The admin API of a running Floe process (`floe run`): GET /healthz for liveness probes,
// GET /status for operators (JSON), GET /metrics for Prometheus. Reference: docs/admin-api.md.
//
// The handlers are called on the HTTP server's worker threads, possibly several at once:
// `status` and `healthy` must be thread-safe, and should be quick (they answer probes).
#include <functional>

#include <nlohmann/json.hpp>

#include "floe/core/metrics.h"
#include "floe/server/http_server.h"

namespace floe::server {

struct AdminHandlers {
  // The body of GET /status (shape in docs/admin-api.md). An exception becomes a 500 JSON
  // error. When unset, /status is not served (404).
  std::function<nlohmann::json()> status;
  // GET /healthz: 200 {"status":"ok"} or 503 {"status":"unhealthy"} (also when it throws).
  // When unset, always healthy.
  std::function<bool()> healthy;
  // GET /metrics in the Prometheus text format; must outlive the server. When null,
  // /metrics is not served (404).
  const MetricsRegistry* metrics = nullptr;
};

// Registers GET / (a JSON index of the endpoints served), /healthz, /status and /metrics.
// A GET route also answers HEAD. Other paths get the server's 404 JSON error, other methods
// its 405, so these routes can share a server with the REST catalog's /v1/… routes.
void AddAdminRoutes(HttpServer& server, AdminHandlers handlers);

// Content-Type of GET /metrics.
inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace floe::server
