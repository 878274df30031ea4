// Unowned and StrandedPartitions (stranded_partitions.h): which partitions no member of a stable group
// owns, and when they have been so long that GroupWatch makes the group rebalance.
#include "floe/kafka/stranded_partitions.h"

#include <gtest/gtest.h>

namespace floe::kafka {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::vector<std::pair<std::string, std::int32_t>> Keys(const std::vector<TopicPartition>& partitions) {
  std::vector<std::pair<std::string, std::int32_t>> keys;
  for (const auto& tp : partitions) keys.emplace_back(tp.topic, tp.partition);
  return keys;
}

using Keyed = std::vector<std::pair<std::string, std::int32_t>>;

TEST(UnownedTest, EveryPartitionOfEveryTopicThatNoMemberOwns) {
  const std::vector<TopicPartition> owned = {{"orders", 2, 0}, {"orders", 3, 0}, {"users", 0, 0}};
  EXPECT_EQ(Keys(Unowned({{"orders", 4}, {"users", 1}, {"empty", 0}}, owned)),
            (Keyed{{"orders", 0}, {"orders", 1}}));
  EXPECT_EQ(Keys(Unowned({{"orders", 2}}, {})), (Keyed{{"orders", 0}, {"orders", 1}}));
  // A member owning a partition of a topic outside the counts changes nothing.
  EXPECT_TRUE(Unowned({{"users", 1}}, owned).empty());
}

TEST(StrandedPartitionsTest, StrandedOnlyOnceUnownedAtEveryStableLookForTheGrace) {
  StrandedPartitions stranded(seconds(20));
  const auto t0 = StrandedPartitions::Clock::time_point{} + seconds(1000);
  const std::vector<TopicPartition> two = {{"orders", 0, 0}, {"orders", 1, 0}};
  EXPECT_TRUE(stranded.Observe(t0, true, two).empty());
  EXPECT_TRUE(stranded.Observe(t0 + seconds(10), true, two).empty());
  EXPECT_TRUE(stranded.Observe(t0 + milliseconds(19999), true, two).empty());
  EXPECT_EQ(Keys(stranded.Observe(t0 + seconds(20), true, two)), (Keyed{{"orders", 0}, {"orders", 1}}));
}

TEST(StrandedPartitionsTest, APartitionOwnedAtSomeLookStartsOver) {
  StrandedPartitions stranded(seconds(20));
  const auto t0 = StrandedPartitions::Clock::time_point{} + seconds(1000);
  EXPECT_TRUE(stranded.Observe(t0, true, {{"orders", 0, 0}, {"orders", 1, 0}}).empty());
  EXPECT_TRUE(stranded.Observe(t0 + seconds(10), true, {{"orders", 1, 0}}).empty());  // 0 got an owner
  EXPECT_EQ(Keys(stranded.Observe(t0 + seconds(25), true, {{"orders", 0, 0}, {"orders", 1, 0}})),
            (Keyed{{"orders", 1}}));
  // 0 is without an owner again since t0 + 25 s.
  EXPECT_EQ(Keys(stranded.Observe(t0 + seconds(44), true, {{"orders", 0, 0}, {"orders", 1, 0}})),
            (Keyed{{"orders", 1}}));
  EXPECT_EQ(Keys(stranded.Observe(t0 + seconds(45), true, {{"orders", 0, 0}, {"orders", 1, 0}})),
            (Keyed{{"orders", 0}, {"orders", 1}}));
}

TEST(StrandedPartitionsTest, ARebalancingGroupOrAResetStartsEveryPartitionOver) {
  StrandedPartitions stranded(seconds(20));
  const auto t0 = StrandedPartitions::Clock::time_point{} + seconds(1000);
  const std::vector<TopicPartition> one = {{"orders", 0, 0}};
  EXPECT_TRUE(stranded.Observe(t0, true, one).empty());
  EXPECT_TRUE(stranded.Observe(t0 + seconds(15), false, one).empty());  // rebalancing: ownership in flux
  EXPECT_TRUE(stranded.Observe(t0 + seconds(25), true, one).empty());
  EXPECT_TRUE(stranded.Observe(t0 + seconds(44), true, one).empty());
  EXPECT_EQ(Keys(stranded.Observe(t0 + seconds(45), true, one)), (Keyed{{"orders", 0}}));
  stranded.Reset();
  EXPECT_TRUE(stranded.Observe(t0 + seconds(50), true, one).empty());
  EXPECT_TRUE(stranded.Observe(t0 + seconds(60), true, {}).empty());
}

}  // namespace
}  // namespace floe::kafka
