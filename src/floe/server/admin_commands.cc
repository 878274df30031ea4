#include "floe/server/admin_commands.h"

#include <spdlog/spdlog.h>

#include <memory>

#include "floe/server/rest_catalog_auth.h"
#include "floe/server/rest_errors_internal.h"

namespace floe::server {
namespace {

using nlohmann::json;

HttpResponse Answer(const Result<json>& result) {
  if (result.ok()) return NoStore(JsonResponse(200, result->dump(-1, ' ', false, json::error_handler_t::replace)));
  const Status& st = result.status();
  switch (st.code()) {
    case StatusCode::kNotFound: return NoStore(ErrorResponse(404, "NotFound", st.message()));
    case StatusCode::kConflict: return NoStore(ErrorResponse(409, "Conflict", st.message()));
    case StatusCode::kInvalidArgument: return NoStore(ErrorResponse(400, "BadRequest", st.message()));
    case StatusCode::kUnavailable: return NoStore(ErrorResponse(503, "Unavailable", st.message()));
    default: return NoStore(ErrorResponse(500, "InternalServerError", st.ToString()));
  }
}

// {"partition": p, "offset": o}, both integers.
Result<std::pair<std::int32_t, std::int64_t>> SkipBody(const std::string& body) {
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  const char* shape = "the body must be {\"partition\": <int>, \"offset\": <int>}";
  if (!j.is_object()) return Status::InvalidArgument(std::string(shape) + ": it is not a JSON object");
  for (const char* key : {"partition", "offset"}) {
    if (!j.contains(key) || !j[key].is_number_integer()) {
      return Status::InvalidArgument(std::string(shape) + ": '" + key + "' is missing or not an integer");
    }
  }
  const auto partition = j["partition"].get<std::int64_t>();
  const auto offset = j["offset"].get<std::int64_t>();
  if (partition < 0 || partition > INT32_MAX || offset < 0) {
    return Status::InvalidArgument(std::string(shape) + ": partition and offset must be >= 0");
  }
  return std::make_pair(static_cast<std::int32_t>(partition), offset);
}

}  // namespace

std::optional<HttpResponse> RefuseUnlessAdmin(TokenIssuer& issuer, const HttpRequest& request) {
  if (!issuer.enabled()) {
    return NoStore(ErrorResponse(403, "Forbidden",
                                 "mutating admin routes are off: set admin.token in floe.yaml (a ${env:…} or "
                                 "${file:…} reference is allowed) or admin.auth's clients, and send the token as "
                                 "'Authorization: Bearer <token>'"));
  }
  const auto scope = issuer.Authorize(request);
  if (scope == Scope::kWrite) return std::nullopt;
  if (scope == Scope::kRead) {
    spdlog::warn("admin: refused {} {}: a read-only token", request.method, request.path);
    return NoStore(ErrorResponse(403, "Forbidden",
                                 "this token is read-only: resume and skip need admin.token or a token of an "
                                 "admin.auth client with scope write"));
  }
  const bool bearer = request.Header("authorization").starts_with("Bearer ");
  spdlog::warn("admin: refused {} {}: {} bearer token", request.method, request.path, bearer ? "wrong" : "no");
  const char* hint = issuer.issues_tokens() ? "'Authorization: Bearer <token>' (admin.token, or POST /v1/oauth/tokens)"
                                            : "'Authorization: Bearer <admin.token>'";
  auto refused = NoStore(ErrorResponse(401, "Unauthorized",
                                       std::string(bearer ? "wrong or expired admin token: " : "an admin token is needed: ") +
                                           hint));
  refused.headers["WWW-Authenticate"] = "Bearer realm=\"floe-admin\"";
  return refused;
}

void AddAdminCommandRoutes(HttpServer& server, AdminCommands commands) {
  // Shared by the route closures, which the server keeps until it is destroyed.
  auto h = std::make_shared<const AdminCommands>(std::move(commands));
  auto issuer = std::make_shared<TokenIssuer>(h->token, h->auth);
  if (issuer->issues_tokens()) {
    // The Iceberg REST spec's client-credentials endpoint, as the served catalog has it.
    server.Route("POST", "/v1/oauth/tokens", [issuer](const HttpRequest& request) { return issuer->TokenEndpoint(request); });
  }
  if (h->resume) {
    server.Route("POST", "/topics/([^/]+)/resume", [h, issuer](const HttpRequest& request) {
      if (auto refused = RefuseUnlessAdmin(*issuer, request)) return *refused;
      return Answer(h->resume(request.path_params[0]));
    });
  }
  if (h->skip) {
    server.Route("POST", "/topics/([^/]+)/skip", [h, issuer](const HttpRequest& request) {
      if (auto refused = RefuseUnlessAdmin(*issuer, request)) return *refused;
      auto body = SkipBody(request.body);
      if (!body.ok()) return Answer(body.status());
      return Answer(h->skip(request.path_params[0], body->first, body->second));
    });
  }
}

}  // namespace floe::server
