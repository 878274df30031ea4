#pragma once
// A thin, Status-returning layer over librdkafka's C++ consumer. It owns no policy: the
// pipeline decides what to subscribe, where to seek and when to commit.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"

namespace RdKafka {
class KafkaConsumer;
class Message;
}  // namespace RdKafka

namespace floe::kafka {

struct Header {
  std::string key;
  std::optional<std::string_view> value;  // null header values are legal in Kafka
};

// One consumed record. Payload views point into the librdkafka message it owns, so
// decoding reads them in place without a copy.
class Record {
 public:
  explicit Record(std::unique_ptr<RdKafka::Message> message);
  ~Record();
  Record(Record&&) noexcept;
  Record& operator=(Record&&) noexcept;

  const std::string& topic() const { return topic_; }
  std::int32_t partition() const;
  std::int64_t offset() const;
  std::int64_t timestamp_ms() const;
  std::string_view timestamp_type() const;  // "CreateTime", "LogAppendTime" or "NoTimestampType"
  std::optional<std::int32_t> leader_epoch() const;
  std::optional<std::string_view> key() const;    // nullopt = null key
  std::optional<std::string_view> value() const;  // nullopt = tombstone
  std::vector<Header> headers() const;
  // "orders/3@42": how every error message names a record.
  std::string Position() const;

 private:
  std::unique_ptr<RdKafka::Message> message_;
  std::string topic_;
};

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;  // next offset to read
};

struct ConsumerOptions {
  std::string bootstrap_servers;
  std::string group_id = "floe";
  std::map<std::string, std::string> properties;  // librdkafka pass-through, applied last
};

class Consumer {
 public:
  static Result<std::unique_ptr<Consumer>> Create(const ConsumerOptions& options);
  ~Consumer();

  // Manual assignment (no group rebalancing): read exactly these partitions from these offsets.
  Status Assign(const std::vector<TopicPartition>& partitions);
  // The partition ids of a topic, from broker metadata.
  Result<std::vector<std::int32_t>> Partitions(const std::string& topic, std::chrono::milliseconds timeout);
  // [low, high) offsets on the broker: high is the offset the next produced record gets.
  Result<std::pair<std::int64_t, std::int64_t>> Watermarks(const std::string& topic, std::int32_t partition,
                                                           std::chrono::milliseconds timeout);
  // The next record, nullopt on timeout or end of partition; broker errors that librdkafka
  // recovers from by itself are logged and not returned.
  Result<std::optional<Record>> Poll(std::chrono::milliseconds timeout);
  Status Close();

 private:
  explicit Consumer(std::unique_ptr<RdKafka::KafkaConsumer> consumer);
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  bool closed_ = false;
};

}  // namespace floe::kafka
