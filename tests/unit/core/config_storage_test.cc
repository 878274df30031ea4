// floe.yaml's storage: section (docs/storage.md).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>

#include "config_test_util.h"
#include "floe/core/config.h"

namespace floe {
namespace {

std::string StorageYaml(const std::string& storage, const std::string& warehouse = "s3://acme-lake/floe") {
  return "kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"" + warehouse +
         "\"\ncatalog: {uri: \"sqlite:///tmp/c.db\"}\n" + storage + "topics:\n  - name: orders\n    value: string\n";
}

TEST(ConfigStorage, S3WithStaticKeysFromReferences) {
  ::setenv("FLOE_TEST_AWS_KEY", "AKIAEXAMPLE", 1);
  ::setenv("FLOE_TEST_AWS_SECRET", "wJalrXUtnFEMI", 1);
  auto r = ParseConfig(StorageYaml(R"(storage:
  s3:
    region: us-east-1
    endpoint: "http://127.0.0.1:8333"
    path_style: true
    credentials: static
    access_key_id: "${env:FLOE_TEST_AWS_KEY}"
    secret_access_key: "${env:FLOE_TEST_AWS_SECRET}"
    sse: {type: AES256}
  delta_single_writer: true
)"),
                       "floe.yaml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->storage.s3.has_value());
  const auto& s3 = *r->storage.s3;
  EXPECT_EQ(s3.region, "us-east-1");
  EXPECT_EQ(s3.endpoint, "http://127.0.0.1:8333");
  EXPECT_TRUE(s3.path_style);
  EXPECT_EQ(s3.credentials, S3CredentialsKind::kStatic);
  EXPECT_EQ(s3.access_key_id, "AKIAEXAMPLE");
  EXPECT_EQ(s3.secret_access_key, "wJalrXUtnFEMI");
  EXPECT_EQ(s3.sse_type, "AES256");
  EXPECT_TRUE(r->storage.delta_single_writer);
}

TEST(ConfigStorage, DefaultChainWithRole) {
  auto r = ParseConfig(StorageYaml(R"(storage:
  s3:
    role_arn: "arn:aws:iam::123456789012:role/floe-writer"
    external_id: acme
)"),
                       "floe.yaml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->storage.s3->credentials, S3CredentialsKind::kDefault);
  EXPECT_EQ(r->storage.s3->role_arn, "arn:aws:iam::123456789012:role/floe-writer");
  EXPECT_FALSE(r->storage.delta_single_writer);
}

TEST(ConfigStorage, UnknownKeysSuggestTheRightOne) {
  const std::string e = ConfigErrors(StorageYaml("storage:\n  s3:\n    regoin: us-east-1\n    pathstyle: true\n"));
  EXPECT_NE(e.find("storage.s3.regoin: unknown key (did you mean 'region'?)"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'path_style'?"), std::string::npos) << e;
  EXPECT_NE(ConfigErrors(StorageYaml("storag:\n  s3: {}\n")).find("did you mean 'storage'?"), std::string::npos);
}

TEST(ConfigStorage, RulesBetweenFields) {
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    credentials: static\n")).find("storage.s3.access_key_id: required"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    access_key_id: x\n")).find("only with credentials: static"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    endpoint: \"localhost:9000\"\n")).find("http:// or https://"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    path_style: true\n")).find("needs an endpoint"), std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    external_id: x\n")).find("only with role_arn"), std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    sse: {type: aws:kms, kms_key_id: k}\n")).find("not supported yet"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3:\n    credentials: sometimes\n")).find("is not one of: default, static"),
            std::string::npos);
  EXPECT_NE(ConfigErrors(StorageYaml("storage:\n  s3: {}\n", "/tmp/wh")).find("is not an s3:// URI"), std::string::npos);
}

TEST(ConfigStorage, Gcs) {
  ::setenv("FLOE_TEST_GCS_PROJECT", "acme-project", 1);
  auto r = ParseConfig(StorageYaml("storage:\n  gcs:\n    endpoint: \"http://127.0.0.1:4443\"\n"
                                   "    credentials: service_account_file\n    service_account_file: /run/secrets/gcs.json\n"
                                   "    project_id: \"${env:FLOE_TEST_GCS_PROJECT}\"\n",
                                   "gs://acme-lake/floe"),
                       "floe.yaml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->storage.gcs.has_value());
  EXPECT_EQ(r->storage.gcs->endpoint, "http://127.0.0.1:4443");
  EXPECT_EQ(r->storage.gcs->credentials, GcsCredentialsKind::kServiceAccountFile);
  EXPECT_EQ(r->storage.gcs->service_account_file, "/run/secrets/gcs.json");
  EXPECT_EQ(r->storage.gcs->project_id, "acme-project");
  auto anon = ParseConfig(StorageYaml("storage:\n  gcs: {credentials: anonymous}\n", "gs://b/wh"), "floe.yaml");
  ASSERT_TRUE(anon.ok()) << anon.status().ToString();
  EXPECT_EQ(anon->storage.gcs->credentials, GcsCredentialsKind::kAnonymous);
}

TEST(ConfigStorage, GcsRulesBetweenFields) {
  auto errors = [](const std::string& gcs, const std::string& warehouse = "gs://b/wh") {
    return ConfigErrors(StorageYaml("storage:\n  gcs: " + gcs + "\n", warehouse));
  };
  EXPECT_NE(errors("{credentials: service_account_file}").find("storage.gcs.service_account_file: required"),
            std::string::npos);
  EXPECT_NE(errors("{service_account_file: /k.json}").find("only with credentials: service_account_file"),
            std::string::npos);
  EXPECT_NE(errors("{credentials: service_account_file, service_account_file: k.json}").find("absolute path"),
            std::string::npos);
  EXPECT_NE(errors("{credentials: token}").find("is not one of: default, anonymous, service_account_file"),
            std::string::npos);
  EXPECT_NE(errors("{endpoint: \"localhost:4443\"}").find("http:// or https://"), std::string::npos);
  EXPECT_NE(errors("{}", "s3://b/wh").find("is not a gs:// URI"), std::string::npos);
  EXPECT_NE(errors("{projectid: p}").find("did you mean 'project_id'?"), std::string::npos);
}

const char* kAzureWarehouse = "abfss://floe@acct.dfs.core.windows.net/wh";

TEST(ConfigStorage, AzureWithAKeyFromAFileAndAReaderSas) {
  const std::string key_file = ::testing::TempDir() + "/azure-key";
  FILE* f = std::fopen(key_file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("c2VjcmV0LWtleQ==\n", f);
  std::fclose(f);
  ::setenv("FLOE_TEST_AZURE_SAS", "?sv=2021-12-02&sp=rl&sig=abc", 1);
  auto r = ParseConfig(StorageYaml("storage:\n  azure:\n    account: acct\n    endpoint: \"http://127.0.0.1:10000/acct\"\n"
                                   "    credentials: key\n    account_key: \"${file:" + key_file + "}\"\n"
                                   "    reader_sas_token: \"${env:FLOE_TEST_AZURE_SAS}\"\n",
                                   kAzureWarehouse),
                       "floe.yaml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->storage.azure.has_value());
  const auto& a = *r->storage.azure;
  EXPECT_EQ(a.account, "acct");
  EXPECT_EQ(a.endpoint, "http://127.0.0.1:10000/acct");
  EXPECT_EQ(a.credentials, AzureCredentialsKind::kKey);
  EXPECT_EQ(a.account_key, "c2VjcmV0LWtleQ==");
  EXPECT_EQ(a.reader_sas_token, "sv=2021-12-02&sp=rl&sig=abc");  // the pasted '?' dropped
}

TEST(ConfigStorage, AzureSasAndDefault) {
  auto sas = ParseConfig(StorageYaml("storage:\n  azure: {account: acct, credentials: sas, sas_token: \"sv=1&sig=x\"}\n",
                                     "az://floe/wh"),
                         "floe.yaml");
  ASSERT_TRUE(sas.ok()) << sas.status().ToString();
  EXPECT_EQ(sas->storage.azure->credentials, AzureCredentialsKind::kSas);
  EXPECT_EQ(sas->storage.azure->sas_token, "sv=1&sig=x");
  auto def = ParseConfig(StorageYaml("storage:\n  azure: {account: acct}\n", kAzureWarehouse), "floe.yaml");
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->storage.azure->credentials, AzureCredentialsKind::kDefault);
}

TEST(ConfigStorage, AzureRulesBetweenFields) {
  auto errors = [](const std::string& azure, const std::string& warehouse = kAzureWarehouse) {
    return ConfigErrors(StorageYaml("storage:\n  azure: " + azure + "\n", warehouse));
  };
  EXPECT_NE(errors("{credentials: key}").find("storage.azure.account: required"), std::string::npos);
  EXPECT_NE(errors("{account: acct, credentials: key}").find("storage.azure.account_key: required"),
            std::string::npos);
  EXPECT_NE(errors("{account: acct, credentials: sas}").find("storage.azure.sas_token: required"), std::string::npos);
  EXPECT_NE(errors("{account: acct, account_key: k}").find("only with credentials: key"), std::string::npos);
  EXPECT_NE(errors("{account: acct, credentials: key, account_key: k, sas_token: s}").find("only with credentials: sas"),
            std::string::npos);
  EXPECT_NE(errors("{account: acct, credentials: token}").find("is not one of: default, key, sas"), std::string::npos);
  EXPECT_NE(errors("{account: acct, endpoint: \"127.0.0.1:10000\"}").find("http:// or https://"), std::string::npos);
  EXPECT_NE(errors("{account: other}").find("differs from the account in the warehouse URI ('acct')"),
            std::string::npos);
  EXPECT_NE(errors("{account: acct}", "s3://b/wh").find("is not an abfs://, abfss:// or az:// URI"), std::string::npos);
  EXPECT_NE(errors("{acount: acct}").find("did you mean 'account'?"), std::string::npos);
}

TEST(ConfigStorage, AzureSecretsNeverAppearInErrors) {
  ::setenv("FLOE_TEST_AZURE_KEY", "azure-secret-key", 1);
  const std::string e = ConfigErrors(StorageYaml(
      "storage:\n  azure: {account: acct, account_key: \"${env:FLOE_TEST_AZURE_KEY}\"}\n", kAzureWarehouse));
  EXPECT_NE(e.find("only with credentials: key"), std::string::npos) << e;
  EXPECT_EQ(e.find("azure-secret-key"), std::string::npos) << e;
}

TEST(ConfigStorage, SecretsNeverAppearInErrors) {
  ::setenv("FLOE_TEST_AWS_SECRET", "wJalrXUtnFEMI", 1);
  ::unsetenv("FLOE_TEST_UNSET_KEY");
  const std::string e = ConfigErrors(StorageYaml(R"(storage:
  s3:
    credentials: static
    access_key_id: "${env:FLOE_TEST_UNSET_KEY}"
    secret_access_key: "${env:FLOE_TEST_AWS_SECRET}"
    reader_access_key_id: "${env:FLOE_TEST_AWS_SECRET}"
)"));
  EXPECT_NE(e.find("storage.s3.access_key_id: ${env:FLOE_TEST_UNSET_KEY}: the environment variable is not set"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("reader_access_key_id and reader_secret_access_key go together"), std::string::npos) << e;
  EXPECT_EQ(e.find("wJalrXUtnFEMI"), std::string::npos) << e;
}

TEST(ConfigStorage, OtherSecretFieldsTakeReferences) {
  ::setenv("FLOE_TEST_SASL", "kafka-pass", 1);
  ::setenv("FLOE_TEST_TOKEN", "catalog-token", 1);
  auto r = ParseConfig(R"(kafka:
  bootstrap_servers: "localhost:9092"
  properties: {sasl.password: "${env:FLOE_TEST_SASL}"}
schema_registry: {url: "http://localhost:8081", bearer_token: "${env:FLOE_TEST_TOKEN}"}
warehouse: /tmp/wh
catalog: {token: "${env:FLOE_TEST_TOKEN}"}
topics: [{name: orders, value: string}]
)",
                       "floe.yaml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->kafka.properties.at("sasl.password"), "kafka-pass");
  EXPECT_EQ(r->schema_registry->bearer_token, "catalog-token");
  EXPECT_EQ(r->catalog.token, "catalog-token");
}

}  // namespace
}  // namespace floe
