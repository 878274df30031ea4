#pragma once
// Conversions between librdkafka's C++ API and Floe's types, shared by the consumer and its
// callbacks (consumer_callbacks.h): partition lists, log descriptions, error codes as Status.
#include <librdkafka/rdkafkacpp.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/core/result.h"
#include "floe/kafka/group_consumer.h"

namespace floe::kafka {

// librdkafka's partition lists are vectors of heap objects the caller must destroy.
class PartitionList {
 public:
  PartitionList() = default;
  explicit PartitionList(const std::vector<TopicPartition>& partitions);
  ~PartitionList();
  PartitionList(const PartitionList&) = delete;
  PartitionList& operator=(const PartitionList&) = delete;

  std::vector<RdKafka::TopicPartition*>& get() { return list_; }

 private:
  std::vector<RdKafka::TopicPartition*> list_;
};

std::vector<TopicPartition> FromRdKafka(const std::vector<RdKafka::TopicPartition*>& list);

// "beginning", "committed" or the number.
std::string DescribeOffset(std::int64_t offset);
// "orders/0 orders/3", or with offsets "orders/0@12 orders/3@beginning": for log lines.
std::string DescribePartitions(const std::vector<TopicPartition>& partitions, bool with_offsets);

Status FromCode(RdKafka::ErrorCode rc, std::string_view what);
// incremental_(un)assign report failure as an owned Error object instead of a code.
Status FromError(RdKafka::Error* raw, std::string_view what);
// Pause, resume and commit report per partition; the call itself succeeds regardless.
Status FirstPartitionError(const std::vector<RdKafka::TopicPartition*>& list, std::string_view what);

}  // namespace floe::kafka
