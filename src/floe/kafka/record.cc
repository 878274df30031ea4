#include "floe/kafka/record.h"

#include <librdkafka/rdkafka.h>

namespace floe::kafka {

void Record::MessageDeleter::operator()(rd_kafka_message_s* message) const { rd_kafka_message_destroy(message); }

Record::Record(rd_kafka_message_s* message)
    : message_(message), topic_(message->rkt != nullptr ? rd_kafka_topic_name(message->rkt) : "") {}
Record::Record(RecordData data) : owned_(std::make_unique<RecordData>(std::move(data))), topic_(owned_->topic) {}
Record::~Record() = default;
Record::Record(Record&&) noexcept = default;
Record& Record::operator=(Record&&) noexcept = default;

void Record::Release() {
  topic_ = {};
  message_.reset();
  owned_.reset();
}

std::int32_t Record::partition() const { return owned_ ? owned_->partition : message_->partition; }
std::int64_t Record::offset() const { return owned_ ? owned_->offset : message_->offset; }

std::int64_t Record::timestamp_ms() const {
  if (owned_) return owned_->timestamp_ms;
  rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
  return rd_kafka_message_timestamp(message_.get(), &type);
}

std::string_view Record::timestamp_type() const {
  if (owned_) return owned_->timestamp_type;
  rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
  (void)rd_kafka_message_timestamp(message_.get(), &type);
  switch (type) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME: return "CreateTime";
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME: return "LogAppendTime";
    default: return "NoTimestampType";
  }
}

std::optional<std::int32_t> Record::leader_epoch() const {
  if (owned_) return std::nullopt;
#if RD_KAFKA_VERSION >= 0x020100ff
  const std::int32_t epoch = rd_kafka_message_leader_epoch(message_.get());
  if (epoch >= 0) return epoch;
#endif
  // librdkafka < 2.1 (Debian 12 ships 2.0.2) does not expose the epoch: the column is null.
  return std::nullopt;
}

std::optional<std::string_view> Record::key() const {
  if (owned_) return owned_->key ? std::optional<std::string_view>(*owned_->key) : std::nullopt;
  if (message_->key == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(message_->key), message_->key_len);
}

std::optional<std::string_view> Record::value() const {
  if (owned_) return owned_->value ? std::optional<std::string_view>(*owned_->value) : std::nullopt;
  if (message_->payload == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(message_->payload), message_->len);
}

std::vector<Header> Record::headers() const {
  std::vector<Header> out;
  Headers(out);
  return out;
}

void Record::Headers(std::vector<Header>& out) const {
  out.clear();
  if (owned_) {
    for (const auto& h : owned_->headers) {
      out.push_back({h.key, h.value ? std::optional<std::string_view>(*h.value) : std::nullopt});
    }
    return;
  }
  rd_kafka_headers_t* headers = nullptr;
  if (rd_kafka_message_headers(message_.get(), &headers) != RD_KAFKA_RESP_ERR_NO_ERROR || headers == nullptr) return;
  const char* name = nullptr;
  const void* value = nullptr;
  std::size_t size = 0;
  for (std::size_t i = 0; rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i) {
    Header header{name, std::nullopt};
    if (value != nullptr) header.value = std::string_view(static_cast<const char*>(value), size);
    out.push_back(header);
  }
}

std::string Record::Position() const {
  return std::string(topic_) + "/" + std::to_string(partition()) + "@" + std::to_string(offset());
}

}  // namespace floe::kafka
