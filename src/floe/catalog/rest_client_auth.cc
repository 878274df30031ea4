#include "floe/catalog/rest_client_auth.h"

#include <openssl/evp.h>

#include <vector>

#include "floe/catalog/rest_client_protocol.h"

namespace floe::catalog::rest {
namespace {

std::string Base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

// Answers by which a token endpoint says it did not take the client's credentials from the
// form: 401 (RFC 6749 §5.2 invalid_client with a WWW-Authenticate challenge) or 400
// invalid_client / invalid_request (some servers).
bool WantsOtherClientAuth(const HttpResponse& r) {
  if (r.status == 401) return true;
  if (r.status != 400) return false;
  return r.body.find("invalid_client") != std::string::npos || r.body.find("invalid_request") != std::string::npos;
}

}  // namespace

OAuth2ClientCredentials::OAuth2ClientCredentials(HttpTransport& transport, std::string token_url,
                                                 std::string credential, std::string scope,
                                                 storage::TokenCache::Clock clock)
    : transport_(transport),
      token_url_(std::move(token_url)),
      credential_(std::move(credential)),
      scope_(std::move(scope)),
      clock_(clock ? std::move(clock) : [] { return std::chrono::system_clock::now(); }),
      cache_([this] { return Fetch(); }, storage::IcebergRefreshMargin, clock_) {
  // "id:secret" -> (id, secret); "secret" -> ("", secret), as Iceberg's `credential` property.
  const auto colon = credential_.find(':');
  if (colon == std::string::npos) {
    secret_ = credential_;
  } else {
    client_id_ = credential_.substr(0, colon);
    secret_ = credential_.substr(colon + 1);
  }
}

HttpResponse OAuth2ClientCredentials::Post(bool basic) {
  std::vector<std::pair<std::string, std::string>> form = {{"grant_type", "client_credentials"}};
  HttpRequest request{"POST", token_url_, {{"Accept", "application/json"},
                                           {"Content-Type", "application/x-www-form-urlencoded"}}, ""};
  if (basic) {
    request.headers.emplace_back("Authorization", "Basic " + Base64(credential_));
  } else {
    if (!client_id_.empty()) form.emplace_back("client_id", client_id_);
    form.emplace_back("client_secret", secret_);
  }
  if (!scope_.empty()) form.emplace_back("scope", scope_);
  request.body = FormEncode(form);
  return transport_.Send(request);
}

Result<storage::AccessToken> OAuth2ClientCredentials::Fetch() {
  const auto started = clock_();
  HttpResponse response = Post(basic_);
  if (!basic_ && WantsOtherClientAuth(response)) {
    HttpResponse with_basic = Post(true);
    if (with_basic.status == 200) basic_ = true;
    // Report the form's refusal unless Basic got further (an answer other than a refusal).
    if (with_basic.status == 200 || (with_basic.status != 0 && !WantsOtherClientAuth(with_basic))) {
      response = std::move(with_basic);
    }
  }
  if (response.status == 0) {
    return StatusFromTransportError(response.error, false, RequestKind::kRead, "OAuth2 token request to " + token_url_);
  }
  FLOE_ASSIGN_OR_RETURN(auto token, ParseOAuthTokenResponse(response.status, response.body));
  storage::AccessToken out{std::move(token.access_token), std::chrono::system_clock::time_point::max()};
  if (token.expires_in_seconds && *token.expires_in_seconds > 0) {
    out.expires = started + std::chrono::seconds(*token.expires_in_seconds);
  }
  return out;
}

}  // namespace floe::catalog::rest
