#pragma once
// The admin API's mutating routes, beside admin_routes.h's read-only ones:
// POST /topics/{topic}/resume and POST /topics/{topic}/skip ({"partition", "offset"}), behind
// admin.token or a write token of admin.auth's OAuth2 clients (POST /v1/oauth/tokens on the
// admin listener issues them). Reference: docs/admin-api.md, "Resume and skip".
//
// Handlers run on the HTTP server's worker threads; they must hand the command to whoever owns
// the state (the materializer's loop, pipeline/operator_commands.h) and answer once it is done.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/server/http_server.h"

namespace floe::server {

struct AdminCommands {
  // The answer body, or a Status: kNotFound 404, kConflict 409, kInvalidArgument 400,
  // kUnavailable 503, anything else 500. Unset: the route is not served.
  std::function<Result<nlohmann::json>(const std::string& topic)> resume;
  std::function<Result<nlohmann::json>(const std::string& topic, std::int32_t partition, std::int64_t offset)> skip;
  // admin.token: a bearer token the routes accept. admin.auth: OAuth2 clients whose issued
  // tokens they accept when the client's scope is write (a read token is refused 403). With
  // neither, the routes are off (403).
  std::string token;
  std::optional<CatalogAuthConfig> auth;
};

void AddAdminCommandRoutes(HttpServer& server, AdminCommands commands);

class TokenIssuer;

// nullopt when `request` may change things: it carries "Authorization: Bearer <token>" with
// admin.token or a write token `issuer` issued. Otherwise the answer to give: 403 when neither
// is configured (mutating routes are off) or the token is read-only, 401 for a missing, wrong
// or expired token. Tokens are never logged nor echoed. For every mutating admin route.
std::optional<HttpResponse> RefuseUnlessAdmin(TokenIssuer& issuer, const HttpRequest& request);

}  // namespace floe::server
