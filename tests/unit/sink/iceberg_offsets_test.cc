#include "floe/sink/iceberg_offsets.h"

#include <gtest/gtest.h>

namespace floe::sink {
namespace {

iceberg::Snapshot MakeSnapshot(std::int64_t id, std::optional<std::int64_t> parent,
                               std::map<std::string, std::string, std::less<>> summary) {
  iceberg::Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.summary = std::move(summary);
  s.summary["operation"] = "append";
  return s;
}

iceberg::TableMetadata WithMain(std::vector<iceberg::Snapshot> snapshots, std::int64_t head) {
  iceberg::TableMetadata m;
  m.snapshots = std::move(snapshots);
  m.current_snapshot_id = head;
  iceberg::SnapshotRef main;
  main.snapshot_id = head;
  m.refs["main"] = main;
  return m;
}

TEST(CommittedOffsets, ParseAndSerializeRoundTrip) {
  auto parsed = ParseOffsets(R"({"orders": {"0": 42, "3": 7}, "b": {}})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ((*parsed)["orders"][0], 42);
  EXPECT_EQ((*parsed)["orders"][3], 7);
  auto again = ParseOffsets(SerializeOffsets(*parsed));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *parsed);
}

TEST(CommittedOffsets, RejectsMalformedValues) {
  for (const char* bad : {"[]", "{\"t\": 1}", "{\"t\": {\"x\": 1}}", "{\"t\": {\"-1\": 1}}", "{\"t\": {\"0\": -5}}",
                          "{\"t\": {\"0\": \"5\"}}", "{\"t\": {\"0\": 1.5}}", "not json"}) {
    EXPECT_EQ(ParseOffsets(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(CommittedOffsets, EmptyTableHasNoOffsets) {
  iceberg::TableMetadata m;
  auto offsets = CommittedOffsets(m);
  ASSERT_TRUE(offsets.ok());
  EXPECT_TRUE(offsets->empty());
  EXPECT_EQ(Find(*offsets, "orders", 0), std::nullopt);
}

TEST(CommittedOffsets, WalksBackPastSnapshotsWithoutFloeOffsets) {
  // 1 (Floe) <- 2 (Floe) <- 3 (compaction by someone else, no floe.offsets)
  auto m = WithMain({MakeSnapshot(1, std::nullopt, {{"floe.offsets", R"({"t": {"0": 5}})"}}),
                     MakeSnapshot(2, 1, {{"floe.offsets", R"({"t": {"0": 9, "1": 3}})"}, {"floe.commit-id", "c2"}}),
                     MakeSnapshot(3, 2, {})},
                    3);
  auto offsets = CommittedOffsets(m);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(Find(*offsets, "t", 0), 9);
  EXPECT_EQ(Find(*offsets, "t", 1), 3);
  EXPECT_EQ(Find(*offsets, "t", 2), std::nullopt);
  EXPECT_EQ(Find(*offsets, "other", 0), std::nullopt);
  EXPECT_TRUE(HasCommit(m, "c2"));
  EXPECT_FALSE(HasCommit(m, "c9"));
}

TEST(CommittedOffsets, FollowsMainNotOtherSnapshots) {
  // Snapshot 3 is newer but not on main's history (e.g. an abandoned branch).
  auto m = WithMain({MakeSnapshot(1, std::nullopt, {{"floe.offsets", R"({"t": {"0": 5}})"}}),
                     MakeSnapshot(3, std::nullopt, {{"floe.offsets", R"({"t": {"0": 99}})"}, {"floe.commit-id", "x"}})},
                    1);
  auto offsets = CommittedOffsets(m);
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(Find(*offsets, "t", 0), 5);
  EXPECT_FALSE(HasCommit(m, "x"));
}

TEST(CommittedOffsets, MalformedSummaryNamesTheSnapshot) {
  auto m = WithMain({MakeSnapshot(7, std::nullopt, {{"floe.offsets", "{oops"}})}, 7);
  auto offsets = CommittedOffsets(m);
  ASSERT_FALSE(offsets.ok());
  EXPECT_NE(offsets.status().ToString().find("snapshot 7"), std::string::npos) << offsets.status().ToString();
}

}  // namespace
}  // namespace floe::sink
