#pragma once
// OAuth2 client credentials for the Iceberg REST client (catalog.credential), as Apache
// Iceberg's RESTCatalog (OAuth2Util) asks for a token: POST to the token endpoint (catalog
// .oauth2_server_uri, default <uri>/v1/oauth/tokens) the form
//   grant_type=client_credentials&client_id=<id>&client_secret=<secret>&scope=<scope>
// (no client_id when the credential has no ':'). A server that wants the client authenticated
// with HTTP Basic instead (RFC 6749 §2.3.1; Iceberg sends `Authorization: Basic
// base64(credential)` when it refreshes an expired token) answers that form 400/401; the
// request then goes again once with that header and only grant_type and scope in the form,
// and later fetches use the way that worked.
//
// The token is cached (storage::TokenCache) and fetched again min(lifetime/10, 5 min) before
// `expires_in` runs out (Iceberg's window), and after the catalog refused it with a 401. A
// token without `expires_in` is kept until refused. Unlike Iceberg, a refresh is a new
// client-credentials grant rather than an RFC 8693 token exchange: identity providers
// (Keycloak, Entra ID, Okta) grant the former and rarely the latter.
//
// Neither the secret nor a token ever appears in a Status or a log line.
#include <memory>
#include <string>

#include "floe/catalog/rest_client_http.h"
#include "floe/core/result.h"
#include "floe/storage/oauth_token.h"

namespace floe::catalog::rest {

class OAuth2ClientCredentials {
 public:
  // `transport` must outlive this. `clock`: system_clock::now unless a test passes one.
  OAuth2ClientCredentials(HttpTransport& transport, std::string token_url, std::string credential, std::string scope,
                          storage::TokenCache::Clock clock = {});

  // A current token (fetched when needed).
  Result<std::string> Token() { return cache_.Get(); }
  // The catalog answered 401 to `token`: the next Token() fetches a new one.
  void Refused(const std::string& token) { cache_.Invalidate(token); }
  // Where later fetches go (the catalog's config may move the service); before any sharing.
  void set_token_url(std::string url) { token_url_ = std::move(url); }
  const std::string& token_url() const { return token_url_; }

 private:
  Result<storage::AccessToken> Fetch();
  HttpResponse Post(bool basic);

  HttpTransport& transport_;
  std::string token_url_;
  std::string client_id_;  // empty: the credential is a secret alone
  std::string secret_;
  std::string credential_;
  std::string scope_;
  storage::TokenCache::Clock clock_;
  bool basic_ = false;  // the server wants HTTP Basic client authentication
  storage::TokenCache cache_;
};

}  // namespace floe::catalog::rest
