#pragma once
// Keeps a consumer group from leaving partitions without an owner for ever.
//
// From a thread of its own, a GroupWatch looks at its consumer's group every `interval`
// (DescribeConsumerGroups, and the partition counts of the group's topics from metadata). When
// partitions of those topics have had no owner in a stable group for `grace`
// (stranded_partitions.h says how that happens: a static member restarted between the two rounds
// of a cooperative rebalance), it makes the group rebalance: it joins the group briefly with a
// second, dynamic member of its own (the "rebalance probe": same brokers, security settings and
// assignment strategy, no instance id, no offset commits), which the coordinator answers with a
// rebalance in which the leader assigns every partition, and then leaves. The probe reads no
// record into any table; the stranded partitions go on from their table offsets wherever they
// land. Groups on the KIP-848 protocol (group.protocol=consumer) are left alone: there the broker
// assigns and no member has to rejoin.
#include <librdkafka/rdkafka.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/admin_request.h"
#include "floe/kafka/consumer.h"
#include "floe/kafka/stranded_partitions.h"

namespace floe::kafka {

class GroupWatch {
 public:
  struct Timing {
    std::chrono::milliseconds interval{5000};
    // Longer than a member normally takes between the two rounds (its revoke callback, which
    // in Floe commits the partitions it gives up): acting early costs one needless rebalance.
    std::chrono::milliseconds grace{20000};
  };

  // Starts watching `consumer`'s group (options.group_id) for the topics of `subscription` (as
  // given to Subscribe; for '^' patterns, the topics the group's members own). Each probe the
  // group answered adds one to `rebalances`. Both must outlive this.
  GroupWatch(rd_kafka_t* consumer, ConsumerOptions options, std::vector<std::string> subscription, Timing timing,
             std::atomic<std::int64_t>* rebalances);
  ~GroupWatch();  // stops the thread, and a probe under way, and waits for them
  GroupWatch(const GroupWatch&) = delete;
  GroupWatch& operator=(const GroupWatch&) = delete;

 private:
  struct Look {
    // A classic consumer group, stable, with this watch's consumer among its members: a member
    // still joining would see its own topics without an owner.
    bool watchable = false;
    std::vector<TopicPartition> unowned;
  };

  void Run();
  // Waits `d` or until stopped; false once stopped.
  bool Sleep(std::chrono::milliseconds d);
  bool Stopping();
  // One admin request (`op`, named `what` in errors) with the watch's request timeout: `send`
  // issues it with the options and the queue given (admin_request.h). Stopping the watch stops
  // the wait.
  Result<AdminAnswer> Ask(rd_kafka_admin_op_t op, std::string_view what,
                          const std::function<void(rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>& send);
  Result<Look> LookAtGroup();
  // The number of partitions of each topic (none for a topic that does not exist), from one
  // DescribeTopics request for those not asked about in the last minute.
  Result<std::map<std::string, std::int32_t>> PartitionCounts(const std::vector<std::string>& topics);
  // The rebalance probe: joins as a dynamic member, waits until the group answered, leaves.
  void Probe(const std::vector<TopicPartition>& stranded);

  rd_kafka_t* consumer_;
  std::atomic<std::int64_t>* rebalances_;
  const ConsumerOptions options_;
  const std::vector<std::string> subscription_;
  const Timing timing_;
  StrandedPartitions stranded_;
  struct Count {
    std::int32_t partitions = 0;
    std::chrono::steady_clock::time_point read;
  };
  std::map<std::string, Count> counts_;
  std::string last_failure_;  // logged once until it changes
  // Probes in a row that left partitions without an owner: each doubles the wait before the
  // next (up to 32x the grace), so a cause the probe cannot cure does not rebalance the group
  // every half minute.
  int fruitless_probes_ = 0;
  std::chrono::steady_clock::time_point next_probe_{};

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace floe::kafka
