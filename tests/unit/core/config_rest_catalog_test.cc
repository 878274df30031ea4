// catalog.type rest in floe.yaml: OAuth2 client credentials, /v1/config's warehouse, SigV4
// (docs/rest-catalog-client.md, docs/configuration.md).
#include <gtest/gtest.h>

#include <cstdlib>

#include "floe/core/config.h"

namespace floe {
namespace {

std::string RestCatalogYaml(const std::string& catalog) {
  return "kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"/tmp/floe-wh\"\n"
         "catalog:\n  type: rest\n  uri: \"https://catalog.example/api\"\n" + catalog +
         "topics:\n  - name: orders\n    value: string\n";
}

void ExpectError(const std::string& catalog, const std::string& message) {
  auto c = ParseConfig(RestCatalogYaml(catalog), "floe.yaml");
  ASSERT_FALSE(c.ok()) << catalog;
  EXPECT_NE(c.status().message().find(message), std::string::npos) << c.status().message();
}

TEST(ConfigRestCatalog, OAuth2ClientCredentialsWithASecretReference) {
  ::setenv("FLOE_TEST_REST_CREDENTIAL", "floe-writer:s3cret", 1);
  auto c = ParseConfig(RestCatalogYaml("  credential: \"${env:FLOE_TEST_REST_CREDENTIAL}\"\n"
                                       "  oauth2_server_uri: \"https://idp.example/oauth2/token\"\n"
                                       "  scope: \"PRINCIPAL_ROLE:ALL\"\n  warehouse: lake\n"),
                       "floe.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->catalog.credential, "floe-writer:s3cret");
  EXPECT_EQ(c->catalog.oauth2_server_uri, "https://idp.example/oauth2/token");
  EXPECT_EQ(c->catalog.scope, "PRINCIPAL_ROLE:ALL");
  EXPECT_EQ(c->catalog.warehouse, "lake");
  EXPECT_FALSE(c->catalog.sigv4.has_value());
  auto defaults = ParseConfig(RestCatalogYaml("  credential: \"id:secret\"\n"), "floe.yaml");
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->catalog.scope, "catalog");
  EXPECT_EQ(defaults->catalog.oauth2_server_uri, "");
  ::unsetenv("FLOE_TEST_REST_CREDENTIAL");
}

TEST(ConfigRestCatalog, CredentialAndTokenAreExclusive) {
  ExpectError("  token: abc\n  credential: \"id:secret\"\n", "catalog.credential: not with catalog.token");
}

TEST(ConfigRestCatalog, RefusesIncompleteOAuth2Settings) {
  ExpectError("  credential: \"id:\"\n", "catalog.credential: has no secret after the ':'");
  ExpectError("  credential: \"\"\n", "catalog.credential: is empty");
  ExpectError("  credential: \"id:secret\"\n  oauth2_server_uri: idp.example/token\n",
              "catalog.oauth2_server_uri: must start with http:// or https://");
  ExpectError("  oauth2_server_uri: \"https://idp.example/token\"\n",
              "catalog.oauth2_server_uri: only with catalog.credential");
  ExpectError("  scope: catalog\n", "catalog.scope: only with catalog.credential");
  // A missing secret reference names the reference, never a value.
  auto c = ParseConfig(RestCatalogYaml("  credential: \"${env:FLOE_TEST_NO_SUCH_VARIABLE}\"\n"), "floe.yaml");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("FLOE_TEST_NO_SUCH_VARIABLE"), std::string::npos) << c.status().message();
}

TEST(ConfigRestCatalog, SigV4) {
  auto c = ParseConfig(RestCatalogYaml("  warehouse: \"123456789012\"\n  sigv4: {region: us-east-1, service: glue}\n"),
                       "floe.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->catalog.sigv4.has_value());
  EXPECT_EQ(c->catalog.sigv4->region, "us-east-1");
  EXPECT_EQ(c->catalog.sigv4->service, "glue");
  auto defaults = ParseConfig(RestCatalogYaml("  sigv4: {}\n"), "floe.yaml");
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->catalog.sigv4->service, "execute-api");
  ExpectError("  sigv4: {service: s3table}\n", "did you mean 's3tables'");
  ExpectError("  sigv4: {regoin: us-east-1}\n", "catalog.sigv4.regoin: unknown key");
}

TEST(ConfigRestCatalog, AccessDelegation) {
  auto none = ParseConfig(RestCatalogYaml(""), "floe.yaml");
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->catalog.access_delegation, "");
  auto vended = ParseConfig(RestCatalogYaml("  access_delegation: vended-credentials\n"), "floe.yaml");
  ASSERT_TRUE(vended.ok()) << vended.status().ToString();
  EXPECT_EQ(vended->catalog.access_delegation, "vended-credentials");
  ExpectError("  access_delegation: remote-signing\n", "catalog.access_delegation");
}

TEST(ConfigRestCatalog, RestKeysOnlyWithTypeRest) {
  auto c = ParseConfig("kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"/tmp/floe-wh\"\n"
                       "catalog: {credential: \"id:secret\", sigv4: {region: us-east-1}}\n"
                       "topics:\n  - name: orders\n    value: string\n",
                       "floe.yaml");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("catalog.credential: only with type: rest"), std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("catalog.sigv4: only with type: rest"), std::string::npos);
}

}  // namespace
}  // namespace floe
