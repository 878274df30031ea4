#include "floe/server/admin_routes.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <utility>

#include "floe/server/rest_errors_internal.h"

namespace floe::server {
namespace {

using nlohmann::json;

// Topic names and error reasons come from outside (Kafka, decoders) and may not be UTF-8;
// replacing bad bytes keeps /status answering instead of throwing on dump().
std::string DumpLenient(const json& body) { return body.dump(-1, ' ', false, json::error_handler_t::replace); }

HttpResponse ServeIndex(const AdminHandlers& handlers) {
  json endpoints = json::array({"/healthz"});
  if (handlers.status) endpoints.push_back("/status");
  if (handlers.metrics != nullptr) endpoints.push_back("/metrics");
  return NoStore(JsonResponse(200, json({{"service", "floe"}, {"endpoints", endpoints}}).dump()));
}

// A probe must get an answer: a throwing check means "not healthy", not an error page.
bool CheckHealthy(const std::function<bool()>& healthy) {
  if (!healthy) return true;
  try {
    return healthy();
  } catch (const std::exception& e) {
    spdlog::warn("admin: health check failed: {}", e.what());
  } catch (...) {
    spdlog::warn("admin: health check failed with a non-standard exception");
  }
  return false;
}

HttpResponse ServeHealthz(const AdminHandlers& handlers) {
  const bool ok = CheckHealthy(handlers.healthy);
  return NoStore(JsonResponse(ok ? 200 : 503, ok ? R"({"status":"ok"})" : R"({"status":"unhealthy"})"));
}

HttpResponse ServeStatus(const AdminHandlers& handlers) {
  std::string what;
  try {
    return NoStore(JsonResponse(200, DumpLenient(handlers.status())));
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "non-standard exception";
  }
  spdlog::error("admin: GET /status failed: {}", what);
  return NoStore(ErrorResponse(500, "InternalServerError", "status failed: " + what));
}

HttpResponse ServeMetrics(const MetricsRegistry& metrics) {
  return NoStore({200, kPrometheusContentType, metrics.RenderPrometheus(), {}});
}

}  // namespace

void AddAdminRoutes(HttpServer& server, AdminHandlers handlers) {
  // Shared by the route closures, which the server keeps (and may call) until it is destroyed.
  auto h = std::make_shared<const AdminHandlers>(std::move(handlers));
  server.Route("GET", "/", [h](const HttpRequest&) { return ServeIndex(*h); });
  server.Route("GET", "/healthz", [h](const HttpRequest&) { return ServeHealthz(*h); });
  if (h->status) server.Route("GET", "/status", [h](const HttpRequest&) { return ServeStatus(*h); });
  if (h->metrics != nullptr) {
    server.Route("GET", "/metrics", [h](const HttpRequest&) { return ServeMetrics(*h->metrics); });
  }
}

}  // namespace floe::server
