#include "floe/kafka/consumer.h"

#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <utility>

namespace floe::kafka {

Record::Record(std::unique_ptr<RdKafka::Message> message)
    : message_(std::move(message)), topic_(message_->topic_name()) {}
Record::~Record() = default;
Record::Record(Record&&) noexcept = default;
Record& Record::operator=(Record&&) noexcept = default;

std::int32_t Record::partition() const { return message_->partition(); }
std::int64_t Record::offset() const { return message_->offset(); }
std::int64_t Record::timestamp_ms() const { return message_->timestamp().timestamp; }

std::string_view Record::timestamp_type() const {
  switch (message_->timestamp().type) {
    case RdKafka::MessageTimestamp::MSG_TIMESTAMP_CREATE_TIME: return "CreateTime";
    case RdKafka::MessageTimestamp::MSG_TIMESTAMP_LOG_APPEND_TIME: return "LogAppendTime";
    default: return "NoTimestampType";
  }
}

std::optional<std::int32_t> Record::leader_epoch() const {
#if RD_KAFKA_VERSION >= 0x020100ff
  const std::int32_t epoch = rd_kafka_message_leader_epoch(message_->c_ptr());
  if (epoch >= 0) return epoch;
#endif
  // librdkafka < 2.1 (Debian 12 ships 2.0.2) does not expose the epoch: the column is null.
  return std::nullopt;
}

std::optional<std::string_view> Record::key() const {
  if (message_->key_pointer() == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(message_->key_pointer()), message_->key_len());
}

std::optional<std::string_view> Record::value() const {
  if (message_->payload() == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(message_->payload()), message_->len());
}

std::vector<Header> Record::headers() const {
  std::vector<Header> out;
  RdKafka::Headers* headers = message_->headers();
  if (headers == nullptr) return out;
  for (const auto& h : headers->get_all()) {
    Header header{h.key(), std::nullopt};
    if (h.value() != nullptr) header.value = std::string_view(static_cast<const char*>(h.value()), h.value_size());
    out.push_back(std::move(header));
  }
  return out;
}

std::string Record::Position() const {
  return topic_ + "/" + std::to_string(partition()) + "@" + std::to_string(offset());
}

Result<std::unique_ptr<Consumer>> Consumer::Create(const ConsumerOptions& options) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string error;
  // Floe's defaults first; the user's properties may override any of them.
  std::map<std::string, std::string> settings = {
      {"bootstrap.servers", options.bootstrap_servers},
      {"group.id", options.group_id},
      {"enable.auto.commit", "false"},        // the table, not Kafka, is the source of truth
      {"enable.auto.offset.store", "false"},
      {"auto.offset.reset", "earliest"},
      {"enable.partition.eof", "false"},
      {"client.id", "floe"},
  };
  for (const auto& [k, v] : options.properties) settings[k] = v;
  for (const auto& [k, v] : settings) {
    if (conf->set(k, v, error) != RdKafka::Conf::CONF_OK) {
      return Status::InvalidArgument("kafka property '" + k + "': " + error);
    }
  }
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), error));
  if (!consumer) return Status::InvalidArgument("cannot create Kafka consumer: " + error);
  return std::unique_ptr<Consumer>(new Consumer(std::move(consumer)));
}

Consumer::Consumer(std::unique_ptr<RdKafka::KafkaConsumer> consumer) : consumer_(std::move(consumer)) {}

Consumer::~Consumer() { (void)Close(); }

Status Consumer::Assign(const std::vector<TopicPartition>& partitions) {
  std::vector<RdKafka::TopicPartition*> list;
  for (const auto& tp : partitions) list.push_back(RdKafka::TopicPartition::create(tp.topic, tp.partition, tp.offset));
  const RdKafka::ErrorCode rc = consumer_->assign(list);
  RdKafka::TopicPartition::destroy(list);
  if (rc != RdKafka::ERR_NO_ERROR) return Status::Unavailable("kafka assign failed: " + RdKafka::err2str(rc));
  return Status::OK();
}

Result<std::vector<std::int32_t>> Consumer::Partitions(const std::string& topic, std::chrono::milliseconds timeout) {
  std::string error;
  std::unique_ptr<RdKafka::Topic> handle(RdKafka::Topic::create(consumer_.get(), topic, nullptr, error));
  if (!handle) return Status::InvalidArgument("kafka topic '" + topic + "': " + error);
  RdKafka::Metadata* raw = nullptr;
  const RdKafka::ErrorCode rc = consumer_->metadata(false, handle.get(), &raw, static_cast<int>(timeout.count()));
  std::unique_ptr<RdKafka::Metadata> metadata(raw);
  if (rc != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable("kafka metadata for '" + topic + "' failed: " + RdKafka::err2str(rc));
  }
  for (const auto* t : *metadata->topics()) {
    if (t->topic() != topic) continue;
    if (t->err() != RdKafka::ERR_NO_ERROR) {
      return Status::NotFound("kafka topic '" + topic + "': " + RdKafka::err2str(t->err()));
    }
    std::vector<std::int32_t> ids;
    for (const auto* p : *t->partitions()) ids.push_back(p->id());
    return ids;
  }
  return Status::NotFound("kafka topic '" + topic + "' does not exist");
}

Result<std::pair<std::int64_t, std::int64_t>> Consumer::Watermarks(const std::string& topic, std::int32_t partition,
                                                                   std::chrono::milliseconds timeout) {
  std::int64_t low = 0;
  std::int64_t high = 0;
  const RdKafka::ErrorCode rc =
      consumer_->query_watermark_offsets(topic, partition, &low, &high, static_cast<int>(timeout.count()));
  if (rc != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable("kafka watermarks for " + topic + "/" + std::to_string(partition) +
                               " failed: " + RdKafka::err2str(rc));
  }
  return std::make_pair(low, high);
}

Result<std::optional<Record>> Consumer::Poll(std::chrono::milliseconds timeout) {
  std::unique_ptr<RdKafka::Message> message(consumer_->consume(static_cast<int>(timeout.count())));
  switch (message->err()) {
    case RdKafka::ERR_NO_ERROR:
      return std::optional<Record>(Record(std::move(message)));
    case RdKafka::ERR__TIMED_OUT:
    case RdKafka::ERR__PARTITION_EOF:
      return std::optional<Record>();
    case RdKafka::ERR__TRANSPORT:
    case RdKafka::ERR__ALL_BROKERS_DOWN:
      // librdkafka reconnects by itself; the caller just polls again.
      spdlog::warn("kafka: {}", message->errstr());
      return std::optional<Record>();
    default:
      return Status::Unavailable("kafka consume error: " + message->errstr());
  }
}

Status Consumer::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  const RdKafka::ErrorCode rc = consumer_->close();
  if (rc != RdKafka::ERR_NO_ERROR) return Status::Unavailable("kafka consumer close: " + RdKafka::err2str(rc));
  return Status::OK();
}

}  // namespace floe::kafka
