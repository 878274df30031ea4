#pragma once
// Who may call the served REST catalog (docs/security.md, "The built-in REST catalog").
//
// Two kinds of bearer token are accepted, each with a permission:
//  - the static catalog.token: read and write, never expires;
//  - tokens issued by POST /v1/oauth/tokens (the Iceberg REST spec's OAuth2 client-credentials
//    endpoint) to a client of catalog.auth.clients: the client's scope (read or write), valid
//    for catalog.auth.token_ttl. Tokens are random, kept in memory (a restart revokes them;
//    clients fetch new ones after the 401), and never logged.
// With either configured, every /v1/ route needs a valid token (401 without one) and the
// mutating ones (POST, PUT, DELETE: namespaces, tables, views, rename, register, transactions)
// need a write token (403 with a read token). POST …/metrics stores nothing and is allowed to
// readers, whose engines send scan reports.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "floe/core/config.h"
#include "floe/server/http_server.h"

namespace floe::server {

using Scope = CatalogAuthConfig::Scope;

class TokenIssuer {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // `static_token`: catalog.token (empty: none). `auth`: the OAuth2 clients (none: no endpoint).
  TokenIssuer(std::string static_token, std::optional<CatalogAuthConfig> auth, Clock clock = {});
  ~TokenIssuer();

  bool enabled() const;
  bool issues_tokens() const;

  // POST /v1/oauth/tokens: the client authenticates with client_id/client_secret in the form
  // or with HTTP Basic (RFC 6749 §2.3.1). Answers the spec's OAuthTokenResponse or OAuthError.
  HttpResponse TokenEndpoint(const HttpRequest& request);

  // The permission of a request's bearer token; nullopt: none, unknown or expired.
  std::optional<Scope> Authorize(const HttpRequest& request);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Constant-time comparison of a presented secret with the expected one.
bool SameSecret(const std::string& given, const std::string& expected);

// Installs the 401/403 rules above as `server`'s filter and registers /v1/oauth/tokens when
// clients are configured. Nothing when neither kind of token is configured.
void AddRestCatalogAuth(HttpServer& server, std::shared_ptr<TokenIssuer> issuer);

}  // namespace floe::server
