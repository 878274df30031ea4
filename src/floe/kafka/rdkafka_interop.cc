#include "floe/kafka/rdkafka_interop.h"

#include <memory>

namespace floe::kafka {

PartitionList::PartitionList(const std::vector<TopicPartition>& partitions) {
  list_.reserve(partitions.size());
  for (const auto& tp : partitions) {
    list_.push_back(RdKafka::TopicPartition::create(tp.topic, tp.partition, tp.offset));
  }
}

PartitionList::~PartitionList() { RdKafka::TopicPartition::destroy(list_); }

std::vector<TopicPartition> FromRdKafka(const std::vector<RdKafka::TopicPartition*>& list) {
  std::vector<TopicPartition> out;
  out.reserve(list.size());
  for (const auto* tp : list) out.push_back({tp->topic(), tp->partition(), tp->offset()});
  return out;
}

std::string DescribeOffset(std::int64_t offset) {
  if (offset == kOffsetBeginning) return "beginning";
  if (offset == kOffsetCommitted) return "committed";
  return std::to_string(offset);
}

std::string DescribePartitions(const std::vector<TopicPartition>& partitions, bool with_offsets) {
  std::string out;
  for (const auto& tp : partitions) {
    if (!out.empty()) out += ' ';
    out += tp.topic + "/" + std::to_string(tp.partition);
    if (with_offsets) out += "@" + DescribeOffset(tp.offset);
  }
  return out.empty() ? "(none)" : out;
}

Status FromCode(RdKafka::ErrorCode rc, std::string_view what) {
  if (rc == RdKafka::ERR_NO_ERROR) return Status::OK();
  return Status::Unavailable("kafka " + std::string(what) + " failed: " + RdKafka::err2str(rc));
}

Status FromError(RdKafka::Error* raw, std::string_view what) {
  std::unique_ptr<RdKafka::Error> error(raw);
  if (!error) return Status::OK();
  return Status::Unavailable("kafka " + std::string(what) + " failed: " + error->str());
}

Status FirstPartitionError(const std::vector<RdKafka::TopicPartition*>& list, std::string_view what) {
  for (const auto* tp : list) {
    if (tp->err() != RdKafka::ERR_NO_ERROR) {
      return Status::Unavailable("kafka " + std::string(what) + " of " + tp->topic() + "/" +
                                 std::to_string(tp->partition()) + " failed: " + RdKafka::err2str(tp->err()));
    }
  }
  return Status::OK();
}

}  // namespace floe::kafka
