#pragma once
// Partitions of a consumer group's topics that no member owns while the group is stable.
//
// Cooperative rebalancing (KIP-429) moves a partition in two rounds: in the first its owner gives
// it up, and that owner then rejoins to start the second, which assigns it. A static member
// (group.instance.id, KIP-345) killed between the two and started again before its session times
// out is handed its last assignment without a rebalance: nobody starts the second round, and the
// partition it gave up stays without an owner until something else rebalances the group, which
// in a quiet group is never. (Kafka Streams records the follow-up rebalance in its assignment for
// this reason, KAFKA-9821; plain consumers have no such record.) GroupWatch (group_watch.h) looks
// at the group, and this decides when a partition has been without an owner long enough to act.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "floe/kafka/group_consumer.h"

namespace floe::kafka {

// The partitions of `partition_counts`' topics (topic -> number of partitions) that are not in
// `owned`, ordered by topic and partition.
std::vector<TopicPartition> Unowned(const std::map<std::string, std::int32_t>& partition_counts,
                                    const std::vector<TopicPartition>& owned);

class StrandedPartitions {
 public:
  using Clock = std::chrono::steady_clock;
  explicit StrandedPartitions(std::chrono::milliseconds grace) : grace_(grace) {}

  // One look at the group at `now`. Returns the partitions that were without an owner at this
  // look and at every look in a stable group before it over at least `grace`, or nothing. A
  // partition owned at some look starts over; a look at a group that is rebalancing (not
  // stable) starts every partition over, since ownership is in flux then.
  std::vector<TopicPartition> Observe(Clock::time_point now, bool stable, const std::vector<TopicPartition>& unowned);
  // Forgets everything seen: after the group was made to rebalance.
  void Reset() { since_.clear(); }

 private:
  std::chrono::milliseconds grace_;
  std::map<std::pair<std::string, std::int32_t>, Clock::time_point> since_;  // first look without an owner
};

}  // namespace floe::kafka
