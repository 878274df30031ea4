// The maintenance: section (docs/maintenance.md): defaults, top-level values, per-topic
// overrides key by key, and the rules floe validate reports.
#include <gtest/gtest.h>

#include "floe/core/config.h"

namespace floe {
namespace {

constexpr const char* kMaintenanceBase = R"yaml(kafka:
  bootstrap_servers: "localhost:9092"
warehouse: "file:///tmp/wh"
defaults:
  target_file_size: 64MiB
)yaml";

Result<FloeConfig> ParseMaintenance(const std::string& rest) {
  return ParseConfig(std::string(kMaintenanceBase) + rest, "floe.yaml");
}

TEST(MaintenanceConfig, DefaultsWhenAbsent) {
  auto c = ParseMaintenance("topics:\n  - name: orders\n    value: json\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const MaintenanceConfig& m = c->topics[0].maintenance;
  EXPECT_TRUE(m.enabled);
  EXPECT_EQ(m.interval, std::chrono::minutes(5));
  EXPECT_TRUE(m.compaction.enabled);
  EXPECT_EQ(m.compaction.min_files, 5);
  EXPECT_EQ(m.compaction.target_file_size, 64LL << 20);  // the topic's
  EXPECT_EQ(m.snapshot_retention, std::chrono::hours(24 * 7));
  EXPECT_EQ(m.min_snapshots, 10);
  EXPECT_EQ(m.max_snapshots, 500);  // bounds the metadata file at any commit rate (issue 34)
  EXPECT_EQ(m.orphan_age, std::chrono::hours(24));
  EXPECT_DOUBLE_EQ(c->maintenance.cpu_share, 0.25);
}

TEST(MaintenanceConfig, TopicOverridesKeyByKey) {
  auto c = ParseMaintenance(R"yaml(maintenance:
  interval: 30s
  snapshot_retention: 2d
  min_snapshots: 3
  orphan_age: 2h
  cpu_share: 0.5
  compaction: {min_files: 4, target_file_size: 32MiB}
topics:
  - name: orders
    value: json
  - name: clicks
    value: json
    target_file_size: 16MiB
    maintenance:
      interval: 5s
      compaction: {enabled: false}
  - name: audit
    value: json
    maintenance: {enabled: false}
)yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const MaintenanceConfig& orders = c->topics[0].maintenance;
  EXPECT_EQ(orders.interval, std::chrono::seconds(30));
  EXPECT_EQ(orders.snapshot_retention, std::chrono::hours(48));
  EXPECT_EQ(orders.min_snapshots, 3);
  EXPECT_EQ(orders.orphan_age, std::chrono::hours(2));
  EXPECT_EQ(orders.compaction.min_files, 4);
  EXPECT_EQ(orders.compaction.target_file_size, 32LL << 20);
  const MaintenanceConfig& clicks = c->topics[1].maintenance;
  EXPECT_EQ(clicks.interval, std::chrono::seconds(5));
  EXPECT_FALSE(clicks.compaction.enabled);
  EXPECT_EQ(clicks.compaction.min_files, 4);                   // inherited
  EXPECT_EQ(clicks.compaction.target_file_size, 32LL << 20);  // the section's, not the topic's
  EXPECT_EQ(clicks.snapshot_retention, std::chrono::hours(48));
  EXPECT_FALSE(c->topics[2].maintenance.enabled);
  EXPECT_DOUBLE_EQ(c->maintenance.cpu_share, 0.5);
}

TEST(MaintenanceConfig, ReportsEveryBrokenRule) {
  auto c = ParseMaintenance(R"yaml(maintenance:
  interval: 100ms
  orphan_age: 10m
  min_snapshots: 0
  cpu_share: 1.5
  compaction: {min_files: 1, target_file_size: 10KB, enable: true}
topics:
  - name: orders
    value: json
    maintenance:
      cpu_share: 0.1
      snapshot_retention: 3
)yaml");
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_NE(m.find("maintenance.interval: must be at least 1s"), std::string::npos) << m;
  EXPECT_NE(m.find("maintenance.orphan_age: must be at least 1h"), std::string::npos) << m;
  EXPECT_NE(m.find("maintenance.min_snapshots: must be between 1"), std::string::npos) << m;
  EXPECT_NE(m.find("maintenance.cpu_share: must be greater than 0 and at most 1"), std::string::npos) << m;
  EXPECT_NE(m.find("maintenance.compaction.min_files: must be between 2"), std::string::npos) << m;
  EXPECT_NE(m.find("maintenance.compaction.target_file_size: must be at least 1MiB"), std::string::npos) << m;
  EXPECT_NE(m.find("maintenance.compaction.enable: unknown key (did you mean 'enabled'?)"), std::string::npos) << m;
  EXPECT_NE(m.find("topics[0].maintenance.cpu_share: only in the top-level maintenance section"), std::string::npos)
      << m;
  EXPECT_NE(m.find("topics[0].maintenance.snapshot_retention: '3' is not a duration"), std::string::npos) << m;
}

TEST(MaintenanceConfig, MaxSnapshotsIsAtLeastMinSnapshots) {
  auto c = ParseMaintenance(R"yaml(maintenance: {max_snapshots: 50}
topics:
  - name: orders
    value: json
  - name: clicks
    value: json
    maintenance: {min_snapshots: 60}
  - name: audit
    value: json
    maintenance: {max_snapshots: 0}
)yaml");
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_NE(m.find("topics[1].maintenance.max_snapshots: must be at least min_snapshots (60), got 50"),
            std::string::npos) << m;
  EXPECT_NE(m.find("topics[2].maintenance.max_snapshots: must be between 1 and 1000000"), std::string::npos) << m;
  EXPECT_EQ(m.find("topics[0]"), std::string::npos) << m;
  c = ParseMaintenance("maintenance: {max_snapshots: 50}\ntopics:\n  - name: orders\n    value: json\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->topics[0].maintenance.max_snapshots, 50);
}

TEST(MaintenanceConfig, OrphanAgeLeavesCommitsTimeToLand) {
  auto c = ParseMaintenance(R"yaml(maintenance: {orphan_age: 1h}
topics:
  - name: orders
    value: json
    commit_interval: 45m
)yaml");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("topics[0].maintenance.orphan_age: must be at least twice commit_interval"),
            std::string::npos)
      << c.status().message();
}

}  // namespace
}  // namespace floe
