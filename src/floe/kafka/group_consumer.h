#pragma once
// What the pipeline needs of a Kafka consumer-group member, as an interface: Consumer
// (consumer.h) is librdkafka's, and tests drive the materializer with a fake one
// (tests/unit/pipeline/fake_consumer.h). The contract of each call is documented on Consumer.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/record.h"

namespace floe::kafka {

// Logical offsets, with librdkafka's values (RdKafka::Topic::OFFSET_*).
inline constexpr std::int64_t kOffsetBeginning = -2;    // the partition's low watermark
inline constexpr std::int64_t kOffsetCommitted = -1001;  // the group's committed offset, else auto.offset.reset

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;  // next offset to read
};

// Told about group rebalances. Both calls run on the thread calling Poll() or Close(), and
// must not throw (an exception is caught, logged and turned into an error from Poll()).
class RebalanceListener {
 public:
  virtual ~RebalanceListener() = default;
  // Partitions newly given to this member (incremental with cooperative-sticky; the whole new
  // assignment with an eager strategy). Each entry arrives with offset kOffsetCommitted; the
  // listener sets it to the next offset to read (or kOffsetBeginning), and the consumer then
  // assigns the partitions at exactly those offsets. Never called with an empty list.
  virtual void OnAssigned(std::vector<TopicPartition>& partitions) = 0;
  // Partitions being taken away (offsets unspecified). lost=false: an orderly revoke, the
  // listener may still commit its work for them before returning; lost=true: the member lost
  // them (session timeout, fatal group error), someone else may own them already. Never called
  // with an empty list.
  virtual void OnRevoked(const std::vector<TopicPartition>& partitions, bool lost) = 0;
};

// The brokers have not been reachable since `since`: librdkafka reported every broker
// connection down, and nothing has reached them since (a record, an answered request).
struct BrokerOutage {
  std::chrono::system_clock::time_point since;
  std::string reason;
};

class GroupConsumer {
 public:
  virtual ~GroupConsumer() = default;
  virtual Status Subscribe(const std::vector<std::string>& topics, RebalanceListener* listener) = 0;
  virtual Status Pause(const std::vector<TopicPartition>& partitions) = 0;
  virtual Status Resume(const std::vector<TopicPartition>& partitions) = 0;
  virtual Status Seek(const TopicPartition& tp, std::chrono::milliseconds timeout) = 0;
  virtual Status CommitOffsets(const std::vector<TopicPartition>& partitions) = 0;
  virtual std::vector<TopicPartition> Assignment() const = 0;
  virtual Result<std::vector<std::int32_t>> Partitions(const std::string& topic, std::chrono::milliseconds timeout) = 0;
  virtual Result<std::pair<std::int64_t, std::int64_t>> Watermarks(const std::string& topic, std::int32_t partition,
                                                                   std::chrono::milliseconds timeout) = 0;
  // Watermarks(topic, partition) of many partitions, in their order (offset fields ignored).
  // This default asks one partition at a time; Consumer asks one request per leader broker.
  virtual Result<std::vector<std::pair<std::int64_t, std::int64_t>>> WatermarksOf(
      const std::vector<TopicPartition>& partitions, std::chrono::milliseconds timeout) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const auto& tp : partitions) {
      FLOE_ASSIGN_OR_RETURN(auto watermarks, Watermarks(tp.topic, tp.partition, timeout));
      out.push_back(watermarks);
    }
    return out;
  }
  // The watermarks the last fetch response of the partition carried, without asking a broker;
  // nullopt until the partition was fetched.
  virtual std::optional<std::pair<std::int64_t, std::int64_t>> CachedWatermarks(const std::string& /*topic*/,
                                                                                std::int32_t /*partition*/) {
    return std::nullopt;
  }
  // An InvalidArgument error is fatal (the brokers refuse the configured credentials or
  // certificates; the client failed for good, e.g. another worker has the same instance id);
  // other errors are worth a warning and another Poll.
  virtual Result<std::optional<Record>> Poll(std::chrono::milliseconds timeout) = 0;
  // Whether the brokers are out of reach right now (/status, /metrics); callable from any thread.
  // A consumer that never loses its brokers (a test fake) may keep this default.
  virtual std::optional<BrokerOutage> Outage() const { return std::nullopt; }
  // How many times this member made its group rebalance because partitions of its topics had
  // no owner (kafka/group_watch.h); callable from any thread.
  virtual std::int64_t StrandedPartitionRebalances() const { return 0; }
  // Where reading of an assigned partition stands: the offset after the last record Poll()
  // returned, or past the transaction markers and aborted transactions' records the consumer
  // passed over since (read_committed never returns those); nullopt when not known (nothing
  // read since the assignment or the last Seek). A consumer that never passes offsets over
  // (a test fake) may keep this default.
  virtual std::optional<std::int64_t> ReadPosition(const std::string& /*topic*/, std::int32_t /*partition*/) {
    return std::nullopt;
  }
  virtual Status Close() = 0;
};

}  // namespace floe::kafka
