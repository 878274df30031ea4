#pragma once
// The admin API's mutating routes, beside admin_routes.h's read-only ones:
// POST /topics/{topic}/resume and POST /topics/{topic}/skip ({"partition", "offset"}), behind
// admin.token. Reference: docs/admin-api.md, "Resume and skip".
//
// Handlers run on the HTTP server's worker threads; they must hand the command to whoever owns
// the state (the materializer's loop, pipeline/operator_commands.h) and answer once it is done.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "floe/core/result.h"
#include "floe/server/http_server.h"

namespace floe::server {

struct AdminCommands {
  // The answer body, or a Status: kNotFound 404, kConflict 409, kInvalidArgument 400,
  // kUnavailable 503, anything else 500. Unset: the route is not served.
  std::function<Result<nlohmann::json>(const std::string& topic)> resume;
  std::function<Result<nlohmann::json>(const std::string& topic, std::int32_t partition, std::int64_t offset)> skip;
  // admin.token: the bearer token the routes require; empty turns them off (403).
  std::string token;
};

void AddAdminCommandRoutes(HttpServer& server, AdminCommands commands);

// nullopt when `request` may change things: a token is configured and the request carries it
// as "Authorization: Bearer <token>". Otherwise the answer to give: 403 when no token is
// configured (mutating routes are off), 401 for a missing or wrong token. The token is never
// logged nor echoed. For every mutating admin route, the console's included.
std::optional<HttpResponse> RefuseUnlessAdmin(const std::string& token, const HttpRequest& request);

}  // namespace floe::server
