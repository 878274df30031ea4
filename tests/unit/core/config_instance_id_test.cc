// kafka.instance_id (docs/configuration.md, docs/reliability.md): static group membership. The
// id may come from the environment like a secret; it must follow Kafka's id rules, and may not
// be given twice (also as kafka.properties.group.instance.id).
#include <gtest/gtest.h>

#include <cstdlib>

#include "floe/core/config.h"

namespace floe {
namespace {

Result<FloeConfig> Parse(const std::string& kafka_extra) {
  return ParseConfig("kafka:\n  bootstrap_servers: \"localhost:9092\"\n" + kafka_extra +
                         "warehouse: \"file:///tmp/wh\"\ntopics:\n  - name: orders\n    value: json\n",
                     "floe.yaml");
}

TEST(InstanceIdConfig, UnsetMeansADynamicMember) {
  auto c = Parse("");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->kafka.instance_id, "");
}

TEST(InstanceIdConfig, TakesALiteralOrTheEnvironment) {
  auto literal = Parse("  instance_id: floe-0\n");
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(literal->kafka.instance_id, "floe-0");

  ::setenv("FLOE_TEST_POD_NAME", "floe-2", 1);
  auto from_env = Parse("  instance_id: \"${env:FLOE_TEST_POD_NAME}\"\n");
  ::unsetenv("FLOE_TEST_POD_NAME");
  ASSERT_TRUE(from_env.ok()) << from_env.status().ToString();
  EXPECT_EQ(from_env->kafka.instance_id, "floe-2");
}

TEST(InstanceIdConfig, RefusesEmptyIllegalAndDoubleIds) {
  ::setenv("FLOE_TEST_EMPTY", "", 1);
  auto empty = Parse("  instance_id: \"${env:FLOE_TEST_EMPTY}\"\n");
  ::unsetenv("FLOE_TEST_EMPTY");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("kafka.instance_id: is empty"), std::string::npos) << empty.status().message();

  auto unset = Parse("  instance_id: \"${env:FLOE_TEST_NOT_SET_ANYWHERE}\"\n");
  ASSERT_FALSE(unset.ok());
  EXPECT_NE(unset.status().message().find("FLOE_TEST_NOT_SET_ANYWHERE"), std::string::npos)
      << unset.status().message();

  auto illegal = Parse("  instance_id: \"floe 0/a\"\n");
  ASSERT_FALSE(illegal.ok());
  EXPECT_NE(illegal.status().message().find("letters, digits, '.', '_' and '-'"), std::string::npos)
      << illegal.status().message();

  auto twice = Parse("  instance_id: a\n  properties:\n    group.instance.id: b\n");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("is set twice"), std::string::npos) << twice.status().message();
}

}  // namespace
}  // namespace floe
