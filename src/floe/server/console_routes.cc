#include "floe/server/console_routes.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include "floe/core/embedded_file.h"
#include "floe/server/rest_errors_internal.h"

namespace floe {
// Generated from src/floe/server/console/ (cmake/EmbedFiles.cmake).
std::span<const EmbeddedFile> ConsoleAssets();
}  // namespace floe

namespace floe::server {
namespace {

using nlohmann::json;

std::string_view ContentType(std::string_view path) {
  if (path.ends_with(".html")) return "text/html; charset=utf-8";
  if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (path.ends_with(".css")) return "text/css; charset=utf-8";
  if (path.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

HttpResponse ServeAsset(std::string_view path) {
  for (const auto& file : ConsoleAssets()) {
    if (file.path != path) continue;
    HttpResponse response{200, std::string(ContentType(path)), std::string(file.bytes), {}};
    // The assets change only with the binary; a short cache keeps upgrades visible.
    response.headers["Cache-Control"] = "max-age=60";
    // Everything the page runs comes from Floe: no inline script, no other origin.
    response.headers["Content-Security-Policy"] =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'";
    response.headers["X-Content-Type-Options"] = "nosniff";
    return response;
  }
  return ErrorResponse(404, "NotFoundException", "no console file " + std::string(path));
}

// Table and topic names come from Kafka and configs and may not be UTF-8.
HttpResponse Json(const json& body) {
  HttpResponse response = JsonResponse(200, body.dump(-1, ' ', false, json::error_handler_t::replace));
  response.headers["Cache-Control"] = "no-store";
  return response;
}

HttpResponse FromResult(const Result<json>& result) {
  if (result.ok()) return Json(*result);
  if (result.status().code() != StatusCode::kNotFound) {
    spdlog::warn("console: {}", result.status().ToString());
  }
  return ErrorFromStatus(result.status());
}

}  // namespace

void AddConsoleRoutes(HttpServer& server, ConsoleHandlers handlers) {
  auto h = std::make_shared<const ConsoleHandlers>(std::move(handlers));
  server.Route("GET", "/ui/?", [](const HttpRequest&) { return ServeAsset("index.html"); });
  server.Route("GET", "/ui/([a-z0-9_-]+\\.(?:js|css|svg))",
               [](const HttpRequest& request) { return ServeAsset(request.path_params[0]); });
  server.Route("GET", "/ui/api/history", [h](const HttpRequest&) {
    if (h->history == nullptr) return Json({{"t", json::array()}, {"topics", json::object()}});
    return Json(h->history->ToJson());
  });
  server.Route("GET", "/ui/api/tables", [h](const HttpRequest&) {
    if (!h->list_tables) return Json({{"tables", json::array()}});
    return FromResult(h->list_tables());
  });
  server.Route("GET", "/ui/api/tables/(.+)", [h](const HttpRequest& request) {
    if (!h->describe_table) return ErrorResponse(404, "NoSuchTableException", "tables are not served");
    return FromResult(h->describe_table(request.path_params[0]));
  });
}

}  // namespace floe::server
