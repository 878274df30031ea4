// The metadata-size estimate behind floe validate's warning (maintenance/metadata_growth.h):
// the defaults stay under the warning at any commit rate; a count or a retention that keeps
// megabytes of snapshots, or maintenance turned off, is named with the setting to change.
#include "floe/maintenance/metadata_growth.h"

#include <gtest/gtest.h>

namespace floe::maintenance {
namespace {

Result<FloeConfig> Parse(const std::string& topics) {
  return ParseConfig("kafka:\n  bootstrap_servers: \"localhost:9092\"\nwarehouse: \"file:///tmp/wh\"\n" + topics,
                     "floe.yaml");
}

TEST(MetadataGrowth, DefaultsStayUnderAMegabyteAtAnyCommitRate) {
  for (const char* interval : {"1s", "10s", "60s"}) {
    auto c = Parse(std::string("topics:\n  - name: orders\n    value: json\n    commit_interval: ") + interval + "\n");
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    const MetadataGrowth g = EstimateMetadataGrowth(c->topics[0]);
    EXPECT_EQ(g.snapshots, 500) << interval;  // max_snapshots: a week of commits is more
    EXPECT_LT(g.bytes, 1'000'000) << interval;
    EXPECT_TRUE(MetadataGrowthWarnings(*c).empty()) << interval;
  }
}

TEST(MetadataGrowth, RetentionBoundsTheCountAtSlowCommits) {
  auto c = Parse("topics:\n  - name: orders\n    value: json\n    commit_interval: 10m\n"
                 "    maintenance: {snapshot_retention: 1d, orphan_age: 1d}\n");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  // 144 commits a day, plus one compaction per 5 of them.
  EXPECT_EQ(EstimateMetadataGrowth(c->topics[0]).snapshots, 144 + 28);
}

TEST(MetadataGrowth, WarnsAboutLargeCountsAndDisabledMaintenance) {
  auto c = Parse(R"yaml(topics:
  - name: orders
    value: json
    commit_interval: 1s
    maintenance: {max_snapshots: 100000}
  - pattern: "^audit\\..*"
    value: json
    maintenance: {enabled: false}
  - name: deltas
    value: json
    formats: [delta]
    maintenance: {enabled: false}
  - name: small
    value: json
    maintenance: {max_snapshots: 2000}
)yaml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const auto warnings = MetadataGrowthWarnings(*c);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("topic orders: the table's metadata file would grow to about"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("max_snapshots 100000"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("lower max_snapshots or snapshot_retention"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("pattern ^audit\\..*"), std::string::npos) << warnings[1];
  EXPECT_NE(warnings[1].find("maintenance is disabled"), std::string::npos) << warnings[1];
  // 2000 snapshots at 32 partitions: about 3.2 MB, under the warning.
  EXPECT_LT(EstimateMetadataGrowth(c->topics[3]).bytes, kMetadataWarnBytes);
}

}  // namespace
}  // namespace floe::maintenance
