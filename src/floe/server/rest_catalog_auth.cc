#include "floe/server/rest_catalog_auth.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <unordered_map>
#include <utility>

#include "floe/core/percent_encoding.h"
#include "floe/server/rest_errors_internal.h"

namespace floe::server {
namespace {

using nlohmann::json;

// RFC 6749 §5.1: token answers must not be cached.
HttpResponse NoStoreNoCache(HttpResponse response) {
  response.headers["Cache-Control"] = "no-store";
  response.headers["Pragma"] = "no-cache";
  return response;
}

// The spec's OAuthError: {"error": <RFC 6749 §5.2 code>, "error_description": …}.
HttpResponse OAuthError(int status, const std::string& error, const std::string& description) {
  auto response =
      NoStoreNoCache(JsonResponse(status, json({{"error", error}, {"error_description", description}}).dump()));
  if (status == 401) response.headers["WWW-Authenticate"] = "Basic realm=\"floe-catalog\"";
  return response;
}

// application/x-www-form-urlencoded: '+' is a space, then percent-decoding.
Result<std::string> FormDecode(std::string text) {
  for (auto& c : text) {
    if (c == '+') c = ' ';
  }
  return PercentDecode(text);
}

Result<std::unordered_map<std::string, std::string>> ParseForm(const std::string& body) {
  std::unordered_map<std::string, std::string> form;
  std::size_t start = 0;
  while (start <= body.size()) {
    const auto end = std::min(body.find('&', start), body.size());
    const std::string pair = body.substr(start, end - start);
    if (!pair.empty()) {
      const auto eq = pair.find('=');
      FLOE_ASSIGN_OR_RETURN(auto key, FormDecode(pair.substr(0, eq)));
      FLOE_ASSIGN_OR_RETURN(auto value, FormDecode(eq == std::string::npos ? "" : pair.substr(eq + 1)));
      form[key] = value;
    }
    start = end + 1;
  }
  return form;
}

std::optional<std::string> Base64Decode(const std::string& text) {
  if (text.empty() || text.size() % 4 != 0) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  std::size_t size = static_cast<std::size_t>(n);
  for (auto it = text.rbegin(); it != text.rend() && *it == '='; ++it) --size;  // padding decodes as zeros
  out.resize(size);
  return out;
}

// 256 random bits from OpenSSL's CSPRNG, base64url without padding (43 characters).
std::string RandomToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return {};
  std::string out(4 * ((sizeof bytes + 2) / 3), '\0');
  EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes, sizeof bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (auto& c : out) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return out;
}

// Scan and commit reports (POST …/tables/{table}/metrics) change nothing.
bool IsMutating(const HttpRequest& request) {
  static const std::regex kMetrics("^/v1/(.+/)?namespaces/[^/]+/tables/[^/]+/metrics$");
  if (request.method != "POST" && request.method != "PUT" && request.method != "DELETE") return false;
  return !(request.method == "POST" && std::regex_match(request.path, kMetrics));
}

}  // namespace

bool SameSecret(const std::string& given, const std::string& expected) {
  // No early exit, so the time taken does not tell how much of a guess matched.
  unsigned char diff = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < given.size(); ++i) {
    diff |= static_cast<unsigned char>(given[i] ^ (expected.empty() ? 0 : expected[i % expected.size()]));
  }
  return diff == 0 && !expected.empty();
}

struct TokenIssuer::State {
  struct Issued {
    Scope scope;
    std::chrono::steady_clock::time_point expires;
    std::string client;
  };
  std::string static_token;
  std::optional<CatalogAuthConfig> auth;
  Clock clock;
  std::mutex mu;
  std::unordered_map<std::string, Issued> issued;

  const CatalogAuthConfig::Client* Client(const std::string& id, const std::string& secret) const {
    for (const auto& c : auth->clients) {
      if (c.id == id) return SameSecret(secret, c.secret) ? &c : nullptr;
    }
    SameSecret(secret, secret);  // about as long as a real comparison: unknown ids are not told apart
    return nullptr;
  }
};

TokenIssuer::TokenIssuer(std::string static_token, std::optional<CatalogAuthConfig> auth, Clock clock)
    : state_(std::make_unique<State>()) {
  state_->static_token = std::move(static_token);
  state_->auth = std::move(auth);
  state_->clock = clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); });
}

TokenIssuer::~TokenIssuer() = default;

bool TokenIssuer::enabled() const { return !state_->static_token.empty() || issues_tokens(); }

bool TokenIssuer::issues_tokens() const { return state_->auth.has_value() && !state_->auth->clients.empty(); }

HttpResponse TokenIssuer::TokenEndpoint(const HttpRequest& request) {
  auto form = ParseForm(request.body);
  if (!form.ok()) return OAuthError(400, "invalid_request", "the form body is not url-encoded: " + form.status().message());
  const auto grant = form->find("grant_type");
  if (grant == form->end()) return OAuthError(400, "invalid_request", "grant_type is missing");
  if (grant->second != "client_credentials") {
    return OAuthError(400, "unsupported_grant_type", "only grant_type=client_credentials is supported");
  }
  std::string id, secret;
  const std::string authorization = request.Header("authorization");
  if (authorization.rfind("Basic ", 0) == 0) {
    // RFC 6749 §2.3.1: id and secret are form-encoded, then joined by ':'. Clients that skip
    // the form-encoding (Iceberg's) send them raw, which decodes to the same for plain ids.
    auto decoded = Base64Decode(authorization.substr(6));
    const auto colon = decoded ? decoded->find(':') : std::string::npos;
    if (colon == std::string::npos) return OAuthError(401, "invalid_client", "malformed HTTP Basic credentials");
    auto decoded_id = FormDecode(decoded->substr(0, colon));
    id = decoded_id.ok() ? *decoded_id : decoded->substr(0, colon);
    secret = decoded->substr(colon + 1);
    if (state_->Client(id, secret) == nullptr) {
      if (auto decoded_secret = FormDecode(secret); decoded_secret.ok()) secret = *decoded_secret;
    }
  } else {
    id = form->count("client_id") ? form->at("client_id") : "";
    secret = form->count("client_secret") ? form->at("client_secret") : "";
  }
  const CatalogAuthConfig::Client* client = state_->Client(id, secret);
  if (client == nullptr) {
    spdlog::warn("catalog: refused a token request for client '{}': unknown client or wrong secret", id);
    return OAuthError(401, "invalid_client", "unknown client or wrong secret");
  }
  std::string token = RandomToken();
  if (token.empty()) return OAuthError(500, "server_error", "no randomness for a token");
  const auto ttl = state_->auth->token_ttl;
  {
    std::lock_guard lock(state_->mu);
    const auto now = state_->clock();
    std::erase_if(state_->issued, [now](const auto& entry) { return entry.second.expires <= now; });
    state_->issued[token] = {client->scope, now + ttl, client->id};
  }
  spdlog::info("catalog: issued a {} token to client '{}', valid {}s",
               client->scope == Scope::kWrite ? "write" : "read", client->id, ttl.count());
  json body = {{"access_token", token},
               {"token_type", "bearer"},
               {"expires_in", ttl.count()},
               {"issued_token_type", "urn:ietf:params:oauth:token-type:access_token"}};
  return NoStoreNoCache(JsonResponse(200, body.dump()));
}

std::optional<Scope> TokenIssuer::Authorize(const HttpRequest& request) {
  const std::string header = request.Header("authorization");
  constexpr std::string_view kScheme = "Bearer ";
  if (header.size() <= kScheme.size() || header.compare(0, kScheme.size(), kScheme) != 0) return std::nullopt;
  const std::string token = header.substr(kScheme.size());
  if (!state_->static_token.empty() && SameSecret(token, state_->static_token)) return Scope::kWrite;
  std::lock_guard lock(state_->mu);
  const auto it = state_->issued.find(token);
  if (it == state_->issued.end()) return std::nullopt;
  if (const auto now = state_->clock(); it->second.expires <= now) {
    // Clients should fetch a new token before this happens: the log tells when they do not.
    spdlog::info("catalog: refused {} {}: the token of client '{}' expired {} ms ago", request.method, request.path,
                 it->second.client,
                 std::chrono::duration_cast<std::chrono::milliseconds>(now - it->second.expires).count());
    state_->issued.erase(it);
    return std::nullopt;
  }
  return it->second.scope;
}

void AddRestCatalogAuth(HttpServer& server, std::shared_ptr<TokenIssuer> issuer) {
  if (!issuer->enabled()) return;
  const bool endpoint = issuer->issues_tokens();
  if (endpoint) {
    server.Route("POST", "/v1/oauth/tokens", [issuer](const HttpRequest& request) { return issuer->TokenEndpoint(request); });
  }
  server.SetFilter([issuer, endpoint](const HttpRequest& request) -> std::optional<HttpResponse> {
    if (request.path.rfind("/v1/", 0) != 0) return std::nullopt;
    if (endpoint && request.path == "/v1/oauth/tokens") return std::nullopt;  // where tokens come from
    const auto scope = issuer->Authorize(request);
    if (!scope) {
      auto refused = ErrorResponse(401, "NotAuthorizedException",
                                   endpoint ? "missing, unknown or expired bearer token (POST /v1/oauth/tokens issues one)"
                                            : "missing or wrong bearer token");
      refused.headers["WWW-Authenticate"] = "Bearer realm=\"floe-catalog\"";
      return refused;
    }
    if (*scope != Scope::kWrite && IsMutating(request)) {
      spdlog::warn("catalog: refused {} {}: the client's token is read-only", request.method, request.path);
      return ErrorResponse(403, "ForbiddenException",
                           "this token is read-only (catalog.auth.clients scope: read); " + request.method +
                               " needs a client with scope: write");
    }
    return std::nullopt;
  });
}

}  // namespace floe::server
