// catalog.vend_credentials in floe.yaml (docs/storage.md, "How engines read the tables").
#include <gtest/gtest.h>

#include "floe/core/config.h"

namespace floe {
namespace {

std::string VendingYaml(const std::string& s3) {
  return "kafka: {bootstrap_servers: \"localhost:9092\"}\nwarehouse: \"s3://acme-lake/floe\"\n"
         "catalog: {uri: \"sqlite:///tmp/c.db\", vend_credentials: true}\nstorage:\n  s3: " + s3 +
         "\ntopics:\n  - name: orders\n    value: string\n";
}

TEST(ConfigVendCredentials, NeedsTheRoleItVendsSessionsOf) {
  auto with_role = ParseConfig(VendingYaml("{role_arn: \"arn:aws:iam::123456789012:role/floe\"}"), "floe.yaml");
  ASSERT_TRUE(with_role.ok()) << with_role.status().ToString();
  EXPECT_TRUE(with_role->catalog.vend_credentials);

  auto without = ParseConfig(VendingYaml("{region: us-east-1}"), "floe.yaml");
  ASSERT_FALSE(without.ok());
  EXPECT_NE(without.status().message().find("catalog.vend_credentials: needs storage.s3.role_arn"), std::string::npos)
      << without.status().message();
}

}  // namespace
}  // namespace floe
