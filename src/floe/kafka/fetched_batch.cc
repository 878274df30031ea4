#include "floe/kafka/fetched_batch.h"

#include <librdkafka/rdkafka.h>

#include <cstring>

namespace floe::kafka {

namespace {

bool Is(const rd_kafka_message_t* message, const std::string& topic, std::int32_t partition) {
  return message != nullptr && message->partition == partition && message->rkt != nullptr &&
         std::strcmp(rd_kafka_topic_name(message->rkt), topic.c_str()) == 0;
}

}  // namespace

FetchedBatch::~FetchedBatch() { Clear(); }

int FetchedBatch::Fill(rd_kafka_queue_s* queue, int timeout_ms) {
  Clear();
  messages_.resize(kMaxMessages);
  ssize_t n = rd_kafka_consume_batch_queue(queue, 0, messages_.data(), messages_.size());
  // Nothing queued: wait for one message only, so it is not held back until a batch fills.
  if (n == 0 && timeout_ms > 0) n = rd_kafka_consume_batch_queue(queue, timeout_ms, messages_.data(), 1);
  messages_.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return static_cast<int>(n);
}

rd_kafka_message_s* FetchedBatch::Next() {
  while (next_ < messages_.size()) {
    if (rd_kafka_message_t* message = messages_[next_++]) return message;
  }
  return nullptr;
}

void FetchedBatch::DropPartition(const std::string& topic, std::int32_t partition) {
  for (std::size_t i = next_; i < messages_.size(); ++i) {
    if (!Is(messages_[i], topic, partition)) continue;
    rd_kafka_message_destroy(messages_[i]);
    messages_[i] = nullptr;
  }
}

std::optional<std::int64_t> FetchedBatch::FirstOffset(const std::string& topic, std::int32_t partition) const {
  for (std::size_t i = next_; i < messages_.size(); ++i) {
    if (Is(messages_[i], topic, partition) && messages_[i]->err == RD_KAFKA_RESP_ERR_NO_ERROR) return messages_[i]->offset;
  }
  return std::nullopt;
}

std::map<std::pair<std::string, std::int32_t>, std::int64_t> FetchedBatch::FirstOffsets() const {
  std::map<std::pair<std::string, std::int32_t>, std::int64_t> first;
  for (std::size_t i = next_; i < messages_.size(); ++i) {
    const rd_kafka_message_t* m = messages_[i];
    if (m == nullptr || m->err != RD_KAFKA_RESP_ERR_NO_ERROR || m->rkt == nullptr) continue;
    first.try_emplace({rd_kafka_topic_name(m->rkt), m->partition}, m->offset);
  }
  return first;
}

void FetchedBatch::Clear() {
  for (std::size_t i = next_; i < messages_.size(); ++i) {
    if (messages_[i] != nullptr) rd_kafka_message_destroy(messages_[i]);
  }
  messages_.clear();
  next_ = 0;
}

}  // namespace floe::kafka
