#include "floe/kafka/group_watch.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string_view>
#include <utility>

#include "floe/kafka/admin_request.h"
#include "floe/kafka/rdkafka_interop.h"

namespace floe::kafka {

namespace {

constexpr std::chrono::milliseconds kRequestTimeout{10000};
constexpr std::chrono::minutes kCountsMaxAge{1};
// How long the probe waits for the group to answer its JoinGroup: the coordinator answers once
// every member has rejoined, which each does at its next heartbeat, after its revoke callback.
constexpr std::chrono::seconds kProbeJoinTimeout{60};

// Each worker of a group watches it: a random share of the interval added to the grace keeps
// them from all probing at once (one probe is enough; more are harmless, just more rebalances).
std::chrono::milliseconds Staggered(const GroupWatch::Timing& timing) {
  std::random_device seed;
  std::uniform_int_distribution<std::int64_t> extra(0, timing.interval.count());
  return timing.grace + std::chrono::milliseconds(extra(seed));
}

struct TopicsCleanup {
  void operator()(rd_kafka_TopicCollection_t* t) const { rd_kafka_TopicCollection_destroy(t); }
};

// Told only whether the group answered the probe's JoinGroup.
class ProbeListener final : public RebalanceListener {
 public:
  void OnAssigned(std::vector<TopicPartition>&) override {}
  void OnRevoked(const std::vector<TopicPartition>&, bool) override {}
};

}  // namespace

GroupWatch::GroupWatch(rd_kafka_t* consumer, ConsumerOptions options, std::vector<std::string> subscription,
                       Timing timing, std::atomic<std::int64_t>* rebalances)
    : consumer_(consumer),
      rebalances_(rebalances),
      options_(std::move(options)),
      subscription_(std::move(subscription)),
      timing_(timing),
      stranded_(Staggered(timing)),
      thread_([this] { Run(); }) {}

GroupWatch::~GroupWatch() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool GroupWatch::Stopping() {
  std::lock_guard lock(mutex_);
  return stopping_;
}

bool GroupWatch::Sleep(std::chrono::milliseconds d) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, d, [this] { return stopping_; });
}

void GroupWatch::Run() {
  while (Sleep(timing_.interval)) {
    auto look = LookAtGroup();
    if (Stopping()) break;
    if (!look.ok()) {
      // A broker outage, a group the principal may not describe: nothing to act on; say it once.
      if (look.status().message() != last_failure_) {
        last_failure_ = look.status().message();
        spdlog::info("kafka: cannot check group {} for partitions without an owner: {}", options_.group_id,
                     last_failure_);
      }
      stranded_.Reset();
      continue;
    }
    last_failure_.clear();
    const auto now = StrandedPartitions::Clock::now();
    if (look->watchable && look->unowned.empty()) fruitless_probes_ = 0;
    const auto stranded = stranded_.Observe(now, look->watchable, look->unowned);
    if (stranded.empty() || now < next_probe_) continue;
    Probe(stranded);
    stranded_.Reset();
    next_probe_ = StrandedPartitions::Clock::now() + timing_.grace * (1 << std::min(fruitless_probes_, 5));
    ++fruitless_probes_;
  }
}

Result<AdminAnswer> GroupWatch::Ask(rd_kafka_admin_op_t op, std::string_view what,
                                    const std::function<void(rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>& send) {
  return RequestAdmin(
      consumer_, op, what, kRequestTimeout,
      [&](rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) {
        send(options, queue);
        return Status::OK();
      },
      [this] { return Stopping(); });
}

Result<GroupWatch::Look> GroupWatch::LookAtGroup() {
  const char* groups[] = {options_.group_id.c_str()};
  FLOE_ASSIGN_OR_RETURN(const AdminAnswer event,
                        Ask(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, "DescribeConsumerGroups",
                            [&](rd_kafka_AdminOptions_t* admin, rd_kafka_queue_t* queue) {
                              rd_kafka_DescribeConsumerGroups(consumer_, groups, 1, admin, queue);
                            }));
  size_t count = 0;
  const auto** described =
      rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(event.get()), &count);
  if (count != 1) return Status::Unavailable("DescribeConsumerGroups answered for " + std::to_string(count) + " groups");
  const rd_kafka_ConsumerGroupDescription_t* group = described[0];
  if (const rd_kafka_error_t* failed = rd_kafka_ConsumerGroupDescription_error(group)) {
    return Status::Unavailable(std::string("DescribeConsumerGroups: ") + rd_kafka_error_string(failed));
  }
  Look look;
  const size_t members = rd_kafka_ConsumerGroupDescription_member_count(group);
  std::unique_ptr<char, std::function<void(char*)>> self(rd_kafka_memberid(consumer_),
                                                          [this](char* id) { rd_kafka_mem_free(consumer_, id); });
  bool self_present = false;
  for (size_t i = 0; self && i < members; ++i) {
    const char* id = rd_kafka_MemberDescription_consumer_id(rd_kafka_ConsumerGroupDescription_member(group, i));
    self_present = self_present || (id != nullptr && std::string_view(id) == self.get());
  }
  look.watchable = rd_kafka_ConsumerGroupDescription_type(group) == RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC &&
                   rd_kafka_ConsumerGroupDescription_state(group) == RD_KAFKA_CONSUMER_GROUP_STATE_STABLE &&
                   self_present;
  if (!look.watchable) return look;
  std::vector<TopicPartition> owned;
  std::set<std::string> topics;
  for (const auto& name : subscription_) {
    if (!name.empty() && name.front() != '^') topics.insert(name);
  }
  for (size_t i = 0; i < members; ++i) {
    const rd_kafka_MemberDescription_t* member = rd_kafka_ConsumerGroupDescription_member(group, i);
    const rd_kafka_topic_partition_list_t* list =
        rd_kafka_MemberAssignment_partitions(rd_kafka_MemberDescription_assignment(member));
    for (int j = 0; list != nullptr && j < list->cnt; ++j) {
      owned.push_back({list->elems[j].topic, list->elems[j].partition, 0});
      topics.insert(list->elems[j].topic);
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto counts, PartitionCounts({topics.begin(), topics.end()}));
  look.unowned = Unowned(counts, owned);
  return look;
}

Result<std::map<std::string, std::int32_t>> GroupWatch::PartitionCounts(const std::vector<std::string>& topics) {
  const auto now = std::chrono::steady_clock::now();
  std::vector<const char*> stale;
  for (const auto& topic : topics) {
    const auto cached = counts_.find(topic);
    if (cached == counts_.end() || now - cached->second.read > kCountsMaxAge) stale.push_back(topic.c_str());
  }
  if (!stale.empty()) {
    std::unique_ptr<rd_kafka_TopicCollection_t, TopicsCleanup> names(
        rd_kafka_TopicCollection_of_topic_names(stale.data(), stale.size()));
    FLOE_ASSIGN_OR_RETURN(const AdminAnswer event,
                          Ask(RD_KAFKA_ADMIN_OP_DESCRIBETOPICS, "DescribeTopics",
                              [&](rd_kafka_AdminOptions_t* admin, rd_kafka_queue_t* queue) {
                                rd_kafka_DescribeTopics(consumer_, names.get(), admin, queue);
                              }));
    size_t count = 0;
    const auto** described = rd_kafka_DescribeTopics_result_topics(rd_kafka_event_DescribeTopics_result(event.get()), &count);
    for (size_t i = 0; i < count; ++i) {
      const rd_kafka_error_t* failed = rd_kafka_TopicDescription_error(described[i]);
      if (failed != nullptr && rd_kafka_error_code(failed) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        continue;  // not created yet, deleted, not ours to describe: no partitions to own
      }
      size_t partitions = 0;
      rd_kafka_TopicDescription_partitions(described[i], &partitions);
      counts_.insert_or_assign(rd_kafka_TopicDescription_name(described[i]),
                               Count{static_cast<std::int32_t>(partitions), now});
    }
  }
  std::map<std::string, std::int32_t> counts;
  for (const auto& topic : topics) {
    const auto cached = counts_.find(topic);
    if (cached != counts_.end()) counts[topic] = cached->second.partitions;
  }
  return counts;
}

void GroupWatch::Probe(const std::vector<TopicPartition>& stranded) {
  spdlog::warn(
      "kafka: {} of group {} have had no owner for {} s or more while the group was stable (a static member restarted "
      "between the two rounds of a cooperative rebalance leaves the partitions it gave up to nobody); joining the "
      "group briefly with a second member so that it rebalances",
      DescribePartitions(stranded, false), options_.group_id,
      std::chrono::duration_cast<std::chrono::seconds>(timing_.grace).count());
  ConsumerOptions probe = options_;
  probe.instance_id.clear();
  probe.properties.erase("group.instance.id");  // the probe must never fence this worker
  probe.properties.erase("debug");
  probe.properties["enable.auto.commit"] = "false";
  probe.properties["client.id"] = (options_.properties.count("client.id") ? options_.properties.at("client.id")
                                                                           : std::string("floe")) +
                                  "-rebalance-probe";
  probe.watch_group = false;
  probe.log_name = "kafka rebalance probe";
  auto consumer = Consumer::Create(probe);
  if (!consumer.ok()) {
    spdlog::warn("kafka rebalance probe: {}", consumer.status().ToString());
    return;
  }
  ProbeListener listener;
  Status status = (*consumer)->Subscribe(subscription_, &listener);
  const auto deadline = std::chrono::steady_clock::now() + kProbeJoinTimeout;
  while (status.ok() && !(*consumer)->JoinedGroup() && std::chrono::steady_clock::now() < deadline) {
    if (Stopping()) break;
    status = (*consumer)->Poll(std::chrono::milliseconds(100)).status();  // a record read is dropped
  }
  const bool joined = (*consumer)->JoinedGroup();
  const Status closed = (*consumer)->Close();
  if (!status.ok() || !closed.ok()) {
    spdlog::warn("kafka rebalance probe: {}", (status.ok() ? closed : status).ToString());
  } else if (joined) {
    rebalances_->fetch_add(1);
    spdlog::info("kafka rebalance probe: joined group {} and left it: the group rebalanced", options_.group_id);
  } else {
    spdlog::warn("kafka rebalance probe: group {} did not answer within {} s; will look again", options_.group_id,
                 kProbeJoinTimeout.count());
  }
}

}  // namespace floe::kafka
