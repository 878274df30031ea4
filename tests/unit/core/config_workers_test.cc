// workers: (docs/configuration.md, "Workers"): unset means the available cores (0 in the
// struct, resolved by pipeline::WorkerCount: worker_pool_test.cc); a whole number from 1 to 256
// otherwise.
#include <gtest/gtest.h>

#include "floe/core/config.h"

namespace floe {
namespace {

constexpr const char* kWorkersBase = R"yaml(kafka:
  bootstrap_servers: "localhost:9092"
warehouse: "file:///tmp/wh"
topics:
  - name: orders
    value: json
)yaml";

Result<FloeConfig> ParseWorkers(const std::string& rest) {
  return ParseConfig(std::string(kWorkersBase) + rest, "floe.yaml");
}

TEST(WorkersConfig, UnsetMeansTheAvailableCores) {
  auto c = ParseWorkers("");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->workers, 0);
}

TEST(WorkersConfig, TakesAWholeNumberFromOneTo256) {
  auto c = ParseWorkers("workers: 4\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->workers, 4);
  for (const char* bad : {"0", "-1", "257", "two", "1.5"}) {
    auto refused = ParseWorkers(std::string("workers: ") + bad + "\n");
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("workers"), std::string::npos) << refused.status().message();
    EXPECT_NE(refused.status().message().find("from 1 to 256"), std::string::npos) << refused.status().message();
  }
}

}  // namespace
}  // namespace floe
