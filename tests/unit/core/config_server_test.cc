// The settings of the servers Floe runs (config_server.cc): catalog.tls / admin.tls and
// catalog.auth's OAuth2 clients, with the mistakes `floe validate` must name.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "floe/core/config.h"

namespace floe {
namespace {

class ConfigServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("floe-config-server-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "cert.pem") << "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    std::ofstream(dir_ / "key.pem") << "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n";
    std::ofstream(dir_ / "not-pem.txt") << "hello\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string File(const std::string& name) const { return (dir_ / name).string(); }
  std::string Tls(const std::string& cert, const std::string& key) const {
    return "{cert: \"" + File(cert) + "\", key: \"" + File(key) + "\"}";
  }

  static Result<FloeConfig> Parse(const std::string& catalog, const std::string& admin = "") {
    return ParseConfig("kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"/tmp/floe-wh\"\n"
                       "catalog:\n  listen: \"127.0.0.1:8181\"\n" + catalog + admin +
                           "topics:\n  - name: orders\n    value: string\n",
                       "floe.yaml");
  }
  static void ExpectError(const Result<FloeConfig>& c, const std::string& message) {
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.status().message().find(message), std::string::npos) << c.status().message();
  }

  std::filesystem::path dir_;
};

TEST_F(ConfigServerTest, TlsForTheCatalogAndTheAdminApi) {
  auto c = Parse("  tls: " + Tls("cert.pem", "key.pem") + "\n",
                 "admin:\n  listen: \"127.0.0.1:9090\"\n  tls: " + Tls("cert.pem", "key.pem") + "\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->catalog.tls.has_value());
  EXPECT_EQ(c->catalog.tls->cert_file, File("cert.pem"));
  EXPECT_EQ(c->catalog.tls->key_file, File("key.pem"));
  ASSERT_TRUE(c->admin.tls.has_value());
  EXPECT_FALSE(Parse("").value().catalog.tls.has_value());
}

TEST_F(ConfigServerTest, TlsFilesMustBeReadablePem) {
  ExpectError(Parse("  tls: " + Tls("missing.pem", "key.pem") + "\n"), "catalog.tls.cert: cannot read");
  ExpectError(Parse("  tls: " + Tls("cert.pem", "not-pem.txt") + "\n"), "catalog.tls.key: '" + File("not-pem.txt") +
                                                                             "' is not a PEM file");
  ExpectError(Parse("  tls: {cert: \"" + File("cert.pem") + "\"}\n"), "catalog.tls.key: required value is missing");
  ExpectError(Parse("", "admin:\n  tls: {cert: a, key: b, ca: c}\n"), "admin.tls.ca: unknown key");
}

TEST_F(ConfigServerTest, OAuthClientsWithScopesAndSecretReferences) {
  ::setenv("FLOE_TEST_READER_SECRET", "r3ader", 1);
  auto c = Parse("  auth:\n    token_ttl: 15m\n    clients:\n"
                 "      - {id: floe-writer, secret: w, scope: write}\n"
                 "      - {id: dashboards, secret: \"${env:FLOE_TEST_READER_SECRET}\"}\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(c->catalog.auth.has_value());
  EXPECT_EQ(c->catalog.auth->token_ttl, std::chrono::minutes(15));
  ASSERT_EQ(c->catalog.auth->clients.size(), 2u);
  EXPECT_EQ(c->catalog.auth->clients[0].scope, CatalogAuthConfig::Scope::kWrite);
  EXPECT_EQ(c->catalog.auth->clients[1].secret, "r3ader");
  EXPECT_EQ(c->catalog.auth->clients[1].scope, CatalogAuthConfig::Scope::kRead);  // the safe default
  ::unsetenv("FLOE_TEST_READER_SECRET");
  auto defaults = Parse("  auth: {clients: [{id: a, secret: b}]}\n");
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->catalog.auth->token_ttl, std::chrono::hours(1));
}

TEST_F(ConfigServerTest, OAuthClientMistakes) {
  ExpectError(Parse("  auth: {clients: []}\n"), "catalog.auth.clients: expected a list of clients");
  ExpectError(Parse("  auth: {clients: [{id: a}]}\n"), "catalog.auth.clients[0].secret: required value is missing");
  ExpectError(Parse("  auth: {clients: [{id: a, secret: b, scope: admin}]}\n"),
              "catalog.auth.clients[0].scope: 'admin' is not one of: read, write");
  ExpectError(Parse("  auth: {clients: [{id: a, secret: b}, {id: a, secret: c}]}\n"),
              "catalog.auth.clients[1].id: 'a' is configured twice");
  ExpectError(Parse("  auth: {token_ttl: 500ms, clients: [{id: a, secret: b}]}\n"),
              "catalog.auth.token_ttl: must be at least 1s");
  auto missing = Parse("  auth: {clients: [{id: a, secret: \"${env:FLOE_TEST_NO_SUCH_SECRET}\"}]}\n");
  ExpectError(missing, "FLOE_TEST_NO_SUCH_SECRET");
}

TEST_F(ConfigServerTest, OnlyTheBuiltInCatalogIsServed) {
  auto c = ParseConfig("kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"/tmp/floe-wh\"\n"
                       "catalog:\n  type: rest\n  uri: \"https://catalog.example\"\n"
                       "  auth: {clients: [{id: a, secret: b}]}\ntopics:\n  - name: orders\n    value: string\n",
                       "floe.yaml");
  ExpectError(c, "catalog.auth: only with type: builtin");
}

TEST(ConfigSchemaRegistry, CaFileOnlyWithHttps) {
  auto c = ParseConfig("kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"/tmp/floe-wh\"\n"
                       "schema_registry: {url: \"https://registry.example\", ca_file: /etc/floe/ca.pem}\n"
                       "topics:\n  - name: orders\n",
                       "floe.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->schema_registry->ca_file, "/etc/floe/ca.pem");
  auto plain = ParseConfig("kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"/tmp/floe-wh\"\n"
                           "schema_registry: {url: \"http://registry.example\", ca_file: /etc/floe/ca.pem}\n"
                           "topics:\n  - name: orders\n",
                           "floe.yaml");
  ASSERT_FALSE(plain.ok());
  EXPECT_NE(plain.status().message().find("schema_registry.ca_file: only with an https:// url"), std::string::npos);
}

}  // namespace
}  // namespace floe
