// The Azure default chain's sources for the conditional put's tokens: which one the environment
// selects, and the token requests Microsoft documents for each.
#include "floe/storage/azure_access_token.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "support/temp_dir.h"

namespace floe::storage {
namespace {

using Env = std::map<std::string, std::string>;

constexpr const char* kTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
constexpr const char* kClient = "6d3f1a2b-0c4e-4f5a-9b8c-7d6e5f4a3b2c";

EnvLookup Lookup(const Env& env) {
  return [env](const char* name) {
    auto it = env.find(name);
    return it == env.end() ? std::string() : it->second;
  };
}

AzureTokenSource Resolve(const Env& env) {
  auto source = ResolveAzureTokenSource(Lookup(env));
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  return source.ok() ? *source : AzureTokenSource{};
}

const Env kEverything = {{"AZURE_TENANT_ID", kTenant},
                         {"AZURE_CLIENT_ID", kClient},
                         {"AZURE_CLIENT_SECRET", "s3cret-value"},
                         {"AZURE_FEDERATED_TOKEN_FILE", "/var/run/secrets/azure/tokens/azure-identity-token"},
                         {"IDENTITY_ENDPOINT", "http://localhost:42356/msi/token"},
                         {"IDENTITY_HEADER", "header-secret"}};

TEST(AzureTokenSource, TheChainTakesTheFirstConfiguredSourceInTheSdksOrder) {
  Env env = kEverything;
  EXPECT_EQ(Resolve(env).kind, AzureTokenSourceKind::kClientSecret);
  env.erase("AZURE_CLIENT_SECRET");
  EXPECT_EQ(Resolve(env).kind, AzureTokenSourceKind::kWorkloadIdentity);
  env.erase("AZURE_FEDERATED_TOKEN_FILE");
  EXPECT_EQ(Resolve(env).kind, AzureTokenSourceKind::kAppService);
  env.erase("IDENTITY_HEADER");  // an endpoint without its header is not App Service's
  const auto imds = Resolve(env);
  EXPECT_EQ(imds.kind, AzureTokenSourceKind::kImds);
  EXPECT_EQ(imds.endpoint, "http://169.254.169.254");
  EXPECT_EQ(Resolve({{"AZURE_POD_IDENTITY_AUTHORITY_HOST", "https://127.0.0.1:8443/"}}).endpoint,
            "https://127.0.0.1:8443");
  // A tenant without a client (or the reverse) is no service principal.
  EXPECT_EQ(Resolve({{"AZURE_TENANT_ID", kTenant}, {"AZURE_CLIENT_SECRET", "x"}}).kind, AzureTokenSourceKind::kImds);
}

TEST(AzureTokenSource, NamesTheSourceButNeverItsSecrets) {
  for (Env env : {kEverything, Env{{"IDENTITY_ENDPOINT", "http://localhost:1/msi/token"}, {"IDENTITY_HEADER", "header-secret"}}}) {
    const auto source = Resolve(env);
    EXPECT_EQ(source.name.find("s3cret-value"), std::string::npos) << source.name;
    EXPECT_EQ(source.name.find("header-secret"), std::string::npos) << source.name;
  }
  const auto sp = Resolve(kEverything);
  EXPECT_NE(sp.name.find("environment service principal"), std::string::npos) << sp.name;
  EXPECT_NE(sp.name.find(kClient), std::string::npos) << sp.name;
}

TEST(AzureTokenSource, AuthorityHostMustBeHttpsAndTheTenantATenant) {
  Env env = kEverything;
  EXPECT_EQ(Resolve(env).authority, "https://login.microsoftonline.com");
  env["AZURE_AUTHORITY_HOST"] = "https://login.microsoftonline.us/";
  EXPECT_EQ(Resolve(env).authority, "https://login.microsoftonline.us");
  env["AZURE_AUTHORITY_HOST"] = "http://127.0.0.1:9000";
  auto refused = ResolveAzureTokenSource(Lookup(env));
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("https"), std::string::npos);
  env.erase("AZURE_AUTHORITY_HOST");
  env["AZURE_TENANT_ID"] = "../evil";
  EXPECT_EQ(ResolveAzureTokenSource(Lookup(env)).status().code(), StatusCode::kInvalidArgument);
}

TEST(AzureTokenSource, AzureTokenCredentialsNarrowsTheChainAsTheSdkDoes) {
  Env env = kEverything;
  env["AZURE_TOKEN_CREDENTIALS"] = "prod";
  EXPECT_EQ(Resolve(env).kind, AzureTokenSourceKind::kClientSecret);
  env["AZURE_TOKEN_CREDENTIALS"] = " managedidentitycredential ";
  EXPECT_EQ(Resolve(env).kind, AzureTokenSourceKind::kAppService);
  env["AZURE_TOKEN_CREDENTIALS"] = "WorkloadIdentityCredential";
  EXPECT_EQ(Resolve(env).kind, AzureTokenSourceKind::kWorkloadIdentity);
  env["AZURE_TOKEN_CREDENTIALS"] = "AzureCliCredential";
  const auto cli = Resolve(env);
  EXPECT_EQ(cli.kind, AzureTokenSourceKind::kNone);
  EXPECT_NE(cli.name.find("Azure CLI"), std::string::npos) << cli.name;
  env["AZURE_TOKEN_CREDENTIALS"] = "EnvironmentCredential";
  env.erase("AZURE_CLIENT_SECRET");
  const auto none = Resolve(env);
  EXPECT_EQ(none.kind, AzureTokenSourceKind::kNone);
  EXPECT_NE(none.name.find("AZURE_CLIENT_SECRET"), std::string::npos) << none.name;
  env["AZURE_TOKEN_CREDENTIALS"] = "everything";
  EXPECT_EQ(ResolveAzureTokenSource(Lookup(env)).status().code(), StatusCode::kInvalidArgument);
}

TEST(AzureTokenSource, SourcesFloeCannotUseStopTheChainWithAReason) {
  // The data path would sign with the certificate: another identity must not commit instead.
  Env env = kEverything;
  env.erase("AZURE_CLIENT_SECRET");
  env["AZURE_CLIENT_CERTIFICATE_PATH"] = "/etc/floe/sp.pem";
  const auto cert = Resolve(env);
  EXPECT_EQ(cert.kind, AzureTokenSourceKind::kNone);
  EXPECT_NE(cert.name.find("AZURE_CLIENT_CERTIFICATE_PATH"), std::string::npos);
  const auto arc = Resolve({{"IDENTITY_ENDPOINT", "http://localhost:40342/metadata/identity/oauth2/token"},
                            {"IMDS_ENDPOINT", "http://localhost:40342"}});
  EXPECT_EQ(arc.kind, AzureTokenSourceKind::kNone);
  EXPECT_NE(arc.name.find("IMDS_ENDPOINT"), std::string::npos);
  EXPECT_EQ(BuildAzureTokenRequest(arc).status().code(), StatusCode::kUnsupported);
}

TEST(AzureTokenRequest, ClientSecretIsTheClientCredentialsGrantForStorage) {
  Env env = kEverything;
  env["AZURE_AUTHORITY_HOST"] = "https://127.0.0.1:8443";
  auto r = BuildAzureTokenRequest(Resolve(env));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->url, std::string("https://127.0.0.1:8443/") + kTenant + "/oauth2/v2.0/token");
  EXPECT_EQ(r->form, (std::map<std::string, std::string>{{"grant_type", "client_credentials"},
                                                         {"client_id", kClient},
                                                         {"client_secret", "s3cret-value"},
                                                         {"scope", "https://storage.azure.com/.default"}}));
  EXPECT_TRUE(r->headers.empty());
  EXPECT_EQ(r->what.find("s3cret-value"), std::string::npos);
  env["AZURE_TENANT_ID"] = "adfs";  // Azure Stack's ADFS has the v1 endpoint only
  EXPECT_EQ(BuildAzureTokenRequest(Resolve(env))->url, "https://127.0.0.1:8443/adfs/oauth2/token");
}

TEST(AzureTokenRequest, WorkloadIdentityReadsTheRotatedTokenFileEveryTime) {
  test_support::TempDir dir;
  const auto file = dir.path() / "azure-identity-token";
  Env env = kEverything;
  env.erase("AZURE_CLIENT_SECRET");
  env["AZURE_FEDERATED_TOKEN_FILE"] = file.string();
  const auto source = Resolve(env);
  EXPECT_EQ(BuildAzureTokenRequest(source).status().code(), StatusCode::kIoError);  // not there yet
  std::ofstream(file) << "eyJhbGciOiJSUzI1NiJ9.first.sig\n";
  auto first = BuildAzureTokenRequest(source);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->url, std::string("https://login.microsoftonline.com/") + kTenant + "/oauth2/v2.0/token");
  EXPECT_EQ(first->form, (std::map<std::string, std::string>{
                             {"grant_type", "client_credentials"},
                             {"client_id", kClient},
                             {"client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
                             {"client_assertion", "eyJhbGciOiJSUzI1NiJ9.first.sig"},
                             {"scope", "https://storage.azure.com/.default"}}));
  std::ofstream(file) << "eyJhbGciOiJSUzI1NiJ9.second.sig";
  EXPECT_EQ(BuildAzureTokenRequest(source)->form.at("client_assertion"), "eyJhbGciOiJSUzI1NiJ9.second.sig");
}

TEST(AzureTokenRequest, ManagedIdentityEndpointsGetTheStorageResource) {
  auto app = BuildAzureTokenRequest(Resolve({{"IDENTITY_ENDPOINT", "http://localhost:42356/msi/token"},
                                             {"IDENTITY_HEADER", "header-secret"}}));
  ASSERT_TRUE(app.ok());
  EXPECT_EQ(app->url, "http://localhost:42356/msi/token?api-version=2019-08-01&resource=https%3A%2F%2Fstorage.azure.com%2F");
  EXPECT_EQ(app->headers, std::vector<std::string>{"X-IDENTITY-HEADER: header-secret"});
  EXPECT_TRUE(app->form.empty());  // a GET
  EXPECT_EQ(app->what.find("header-secret"), std::string::npos);
  auto imds = BuildAzureTokenRequest(Resolve({}));
  ASSERT_TRUE(imds.ok());
  EXPECT_EQ(imds->url, "http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01"
                       "&resource=https%3A%2F%2Fstorage.azure.com%2F");
  EXPECT_EQ(imds->headers, std::vector<std::string>{"Metadata: true"});
  EXPECT_TRUE(imds->form.empty());
  EXPECT_EQ(imds->connect_timeout, std::chrono::seconds(1));
}

TEST(AzureTokenFetch, AnImdsThatNeverAnsweredMeansNoSourceNotAFailure) {
  // Nothing listens on port 1: off Azure, the chain's last source is not there.
  auto fetch = AzureTokenFetch(Resolve({{"AZURE_POD_IDENTITY_AUTHORITY_HOST", "http://127.0.0.1:1"}}));
  auto token = fetch();
  ASSERT_EQ(token.status().code(), StatusCode::kUnsupported) << token.status().ToString();
  EXPECT_NE(token.status().message().find("AZURE_CLIENT_SECRET"), std::string::npos);
  EXPECT_NE(token.status().message().find("IMDS http://127.0.0.1:1"), std::string::npos);
  // A configured source that fails is an error naming it.
  Env env = kEverything;
  env["AZURE_AUTHORITY_HOST"] = "https://127.0.0.1:1";
  auto sp = AzureTokenFetch(Resolve(env))();
  EXPECT_EQ(sp.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(sp.status().message().find("environment service principal"), std::string::npos);
  EXPECT_EQ(sp.status().message().find("s3cret-value"), std::string::npos);
}

TEST(AzureTokenFetch, OnceImdsAnsweredItsFailuresAreErrorsNeverNoSource) {
  // After a first token, kUnsupported would turn Delta's commits into check-then-write.
  httplib::Server imds;
  std::atomic<bool> up = true;
  std::string seen_query;
  imds.Get("/metadata/identity/oauth2/token", [&](const httplib::Request& req, httplib::Response& res) {
    seen_query = req.get_param_value("api-version") + " " + req.get_param_value("resource") + " " +
                 req.get_header_value("Metadata");
    if (!up) {
      res.status = 503;
      return;
    }
    res.set_content(R"({"access_token":"imds-token","expires_in":"3599","token_type":"Bearer"})", "application/json");
  });
  const int port = imds.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { imds.listen_after_bind(); });  // bound and listening already: no wait
  auto fetch = AzureTokenFetch(Resolve({{"AZURE_POD_IDENTITY_AUTHORITY_HOST", "http://127.0.0.1:" + std::to_string(port)}}));
  auto first = fetch();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->value, "imds-token");
  EXPECT_EQ(seen_query, "2018-02-01 https://storage.azure.com/ true");
  up = false;
  EXPECT_EQ(fetch().status().code(), StatusCode::kUnavailable);
  imds.stop();
  serving.join();
  EXPECT_EQ(fetch().status().code(), StatusCode::kUnavailable);  // gone: still an error
}

}  // namespace
}  // namespace floe::storage
