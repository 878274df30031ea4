#pragma once
// One consumed Kafka record. Records from librdkafka keep their message: payload views point
// into it, so decoding reads them in place without a copy. Records built from RecordData own
// their bytes (tests, and the materializer's fake consumer), with the same accessors.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct rd_kafka_message_s;  // librdkafka's rd_kafka_message_t

namespace floe::kafka {

// Views into the record's message (or owned data): valid while the record holds it.
struct Header {
  std::string_view key;
  std::optional<std::string_view> value;  // null header values are legal in Kafka
};

struct OwnedHeader {
  std::string key;
  std::optional<std::string> value;  // nullopt = null header value
};

// A record's contents, owned.
struct RecordData {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::int64_t timestamp_ms = -1;
  std::string timestamp_type = "CreateTime";
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::vector<OwnedHeader> headers;
};

class Record {
 public:
  // Takes ownership of a message librdkafka returned (it is destroyed with the record).
  explicit Record(rd_kafka_message_s* message);
  explicit Record(RecordData data);
  ~Record();
  Record(Record&&) noexcept;
  Record& operator=(Record&&) noexcept;

  // Valid while the record holds its message (until Release): the name librdkafka keeps for
  // the topic, which the message references; no copy per record.
  std::string_view topic() const { return topic_; }
  std::int32_t partition() const;
  std::int64_t offset() const;
  std::int64_t timestamp_ms() const;
  std::string_view timestamp_type() const;  // "CreateTime", "LogAppendTime" or "NoTimestampType"
  std::optional<std::int32_t> leader_epoch() const;
  std::optional<std::string_view> key() const;    // nullopt = null key
  std::optional<std::string_view> value() const;  // nullopt = tombstone
  std::vector<Header> headers() const;
  // The same into `out` (cleared first): a caller that reuses one vector allocates nothing per record.
  void Headers(std::vector<Header>& out) const;
  // "orders/3@42": how every error message names a record.
  std::string Position() const;
  // Frees the message (or the owned bytes) now, on the calling thread; afterwards the record
  // may only be destroyed or assigned to.
  void Release();

 private:
  struct MessageDeleter {
    void operator()(rd_kafka_message_s* message) const;
  };
  std::unique_ptr<rd_kafka_message_s, MessageDeleter> message_;
  std::unique_ptr<RecordData> owned_;  // set instead of message_
  std::string_view topic_;             // into message_'s topic or owned_->topic
};

}  // namespace floe::kafka
