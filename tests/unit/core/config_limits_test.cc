// The hostile-input limits in floe.yaml: max_record_size (defaults and per topic) and the served
// catalog's max_request_size and request_timeout, with their defaults and lower bounds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/core/config.h"

namespace floe {
namespace {

// No schema_registry: the topics below are value: bytes.
constexpr const char* kLimitsBase = "kafka: {bootstrap_servers: b}\nwarehouse: /w\n";

TEST(ConfigLimits, Defaults) {
  auto c = ParseConfig(std::string(kLimitsBase) + "topics: [{name: t, value: bytes}]\n", "f.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->topics[0].max_record_size, 32LL << 20);
  EXPECT_EQ(c->catalog.max_request_size, 16LL << 20);
  EXPECT_EQ(c->catalog.request_timeout.count(), 30'000);
}

TEST(ConfigLimits, DefaultsAndTopicsOverride) {
  auto c = ParseConfig(std::string(kLimitsBase) +
                           "defaults: {max_record_size: 1MiB}\n"
                           "catalog: {max_request_size: 64KiB, request_timeout: 2s}\n"
                           "topics: [{name: a, value: bytes}, {name: b, value: bytes, max_record_size: 200MB}]\n",
                       "f.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->topics[0].max_record_size, 1LL << 20);
  EXPECT_EQ(c->topics[1].max_record_size, 200'000'000);
  EXPECT_EQ(c->catalog.max_request_size, 64 * 1024);
  EXPECT_EQ(c->catalog.request_timeout.count(), 2000);
}

TEST(ConfigLimits, LowerBoundsAndUnits) {
  for (const char* bad : {"topics: [{name: a, value: bytes, max_record_size: 100B}]\n",
                          "topics: [{name: a, value: bytes, max_record_size: 10}]\n",
                          "catalog: {max_request_size: 10B}\ntopics: [{name: a, value: bytes}]\n",
                          "catalog: {request_timeout: 5ms}\ntopics: [{name: a, value: bytes}]\n"}) {
    auto c = ParseConfig(std::string(kLimitsBase) + bad, "f.yaml");
    EXPECT_FALSE(c.ok()) << bad;
  }
}

TEST(ConfigLimits, AllowedLocationsArePathsOrUris) {
  auto c = ParseConfig(std::string(kLimitsBase) +
                           "catalog: {allowed_locations: [/data/lake, 's3://other/tables']}\n"
                           "topics: [{name: a, value: bytes}]\n",
                       "f.yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->catalog.allowed_locations, (std::vector<std::string>{"/data/lake", "s3://other/tables"}));
  auto bad = ParseConfig(std::string(kLimitsBase) + "catalog: {allowed_locations: [data/lake]}\ntopics: [{name: a, value: bytes}]\n",
                         "f.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("catalog.allowed_locations[0]"), std::string::npos) << bad.status().message();
}

}  // namespace
}  // namespace floe
