// The served REST catalog's OAuth2 token endpoint and token checks (rest_catalog_auth.h), called
// directly with a fake clock: what the endpoint answers (spec's OAuthTokenResponse / OAuthError),
// client authentication in the form or with HTTP Basic, expiry, and the static catalog.token.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "floe/server/rest_catalog_auth.h"

namespace floe::server {
namespace {

using nlohmann::json;

CatalogAuthConfig Clients() {
  CatalogAuthConfig auth;
  auth.clients = {{"writer", "w-secret", Scope::kWrite}, {"reader", "r+secret%", Scope::kRead}};
  auth.token_ttl = std::chrono::seconds(60);
  return auth;
}

HttpRequest TokenRequest(const std::string& body, const std::string& authorization = "") {
  HttpRequest request;
  request.method = "POST";
  request.path = "/v1/oauth/tokens";
  request.body = body;
  if (!authorization.empty()) request.headers.emplace("authorization", authorization);
  return request;
}

HttpRequest WithBearer(const std::string& token) {
  HttpRequest request;
  request.method = "GET";
  request.path = "/v1/namespaces";
  request.headers.emplace("authorization", "Bearer " + token);
  return request;
}

class TokenIssuerTest : public ::testing::Test {
 protected:
  std::chrono::steady_clock::time_point now_{};
  TokenIssuer issuer_{"static-token", Clients(), [this] { return now_; }};
};

TEST_F(TokenIssuerTest, IssuesExpiringTokensWithTheClientsScope) {
  auto answer = issuer_.TokenEndpoint(TokenRequest("grant_type=client_credentials&client_id=writer&client_secret=w-secret&scope=catalog"));
  ASSERT_EQ(answer.status, 200) << answer.body;
  const auto body = json::parse(answer.body);
  EXPECT_EQ(body["token_type"], "bearer");
  EXPECT_EQ(body["expires_in"], 60);
  EXPECT_EQ(answer.headers.at("Cache-Control"), "no-store");
  const std::string token = body["access_token"];
  EXPECT_EQ(token.size(), 43u);
  EXPECT_EQ(issuer_.Authorize(WithBearer(token)), Scope::kWrite);
  now_ += std::chrono::seconds(59);
  EXPECT_EQ(issuer_.Authorize(WithBearer(token)), Scope::kWrite);
  now_ += std::chrono::seconds(1);
  EXPECT_EQ(issuer_.Authorize(WithBearer(token)), std::nullopt);  // expired
}

TEST_F(TokenIssuerTest, FormEncodedSecretsAndHttpBasic) {
  // '+' is a space in a form and %25 a '%': "r+secret%" travels as r%2Bsecret%25.
  auto form = issuer_.TokenEndpoint(TokenRequest("grant_type=client_credentials&client_id=reader&client_secret=r%2Bsecret%25"));
  ASSERT_EQ(form.status, 200) << form.body;
  EXPECT_EQ(issuer_.Authorize(WithBearer(json::parse(form.body)["access_token"])), Scope::kRead);
  // base64("reader:r+secret%"), the secret raw as Iceberg's client sends it.
  auto basic = issuer_.TokenEndpoint(TokenRequest("grant_type=client_credentials", "Basic cmVhZGVyOnIrc2VjcmV0JQ=="));
  ASSERT_EQ(basic.status, 200) << basic.body;
}

TEST_F(TokenIssuerTest, RefusalsFollowTheOAuthErrorModel) {
  auto expect = [this](const HttpRequest& request, int status, const std::string& error) {
    auto answer = issuer_.TokenEndpoint(request);
    EXPECT_EQ(answer.status, status) << answer.body;
    EXPECT_EQ(json::parse(answer.body)["error"], error) << answer.body;
    for (const char* secret : {"w-secret", "not-it-42"}) {  // never echoes what was sent
      EXPECT_EQ(answer.body.find(secret), std::string::npos) << answer.body;
    }
  };
  expect(TokenRequest("grant_type=client_credentials&client_id=writer&client_secret=not-it-42"), 401, "invalid_client");
  expect(TokenRequest("grant_type=client_credentials&client_id=nobody&client_secret=w-secret"), 401, "invalid_client");
  expect(TokenRequest("grant_type=client_credentials"), 401, "invalid_client");
  expect(TokenRequest("grant_type=client_credentials", "Basic !!!"), 401, "invalid_client");
  expect(TokenRequest("grant_type=password&username=a"), 400, "unsupported_grant_type");
  expect(TokenRequest("client_id=writer"), 400, "invalid_request");
  expect(TokenRequest("grant_type=%zz"), 400, "invalid_request");
}

TEST_F(TokenIssuerTest, StaticTokenWritesAndUnknownTokensDoNot) {
  EXPECT_EQ(issuer_.Authorize(WithBearer("static-token")), Scope::kWrite);
  EXPECT_EQ(issuer_.Authorize(WithBearer("static-tokenX")), std::nullopt);
  EXPECT_EQ(issuer_.Authorize(WithBearer("")), std::nullopt);
  HttpRequest basic;
  basic.headers.emplace("authorization", "Basic c3RhdGljLXRva2Vu");
  EXPECT_EQ(issuer_.Authorize(basic), std::nullopt);
}

TEST(SameSecret, ComparesWholeValues) {
  EXPECT_TRUE(SameSecret("abc", "abc"));
  EXPECT_FALSE(SameSecret("abc", "abd"));
  EXPECT_FALSE(SameSecret("ab", "abc"));
  EXPECT_FALSE(SameSecret("abcabc", "abc"));
  EXPECT_FALSE(SameSecret("", ""));  // an unset secret matches nothing
}

}  // namespace
}  // namespace floe::server
