#include "floe/kafka/list_offsets.h"

#include <librdkafka/rdkafka.h>

#include <array>
#include <map>
#include <memory>
#include <string>

#include "floe/kafka/admin_request.h"

namespace floe::kafka {

namespace {

struct ListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* p) const { rd_kafka_topic_partition_list_destroy(p); }
};

std::string Name(const std::string& topic, std::int32_t partition) { return topic + "/" + std::to_string(partition); }

// What query_watermark_offsets would ask with: the client's own isolation.level.
rd_kafka_IsolationLevel_t IsolationOf(rd_kafka_t* handle) {
  std::array<char, 32> value{};
  size_t size = value.size();
  const rd_kafka_conf_t* conf = rd_kafka_conf(handle);
  if (rd_kafka_conf_get(conf, "isolation.level", value.data(), &size) == RD_KAFKA_CONF_OK &&
      std::string(value.data()) == "read_uncommitted") {
    return RD_KAFKA_ISOLATION_LEVEL_READ_UNCOMMITTED;
  }
  return RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED;
}

// One ListOffsets call: `spec` (earliest or latest) of every partition, by topic and partition.
Result<std::map<std::pair<std::string, std::int32_t>, std::int64_t>> ListOffsets(
    rd_kafka_t* handle, const std::vector<TopicPartition>& partitions, rd_kafka_OffsetSpec_t spec,
    std::chrono::milliseconds timeout) {
  std::unique_ptr<rd_kafka_topic_partition_list_t, ListDeleter> list(
      rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size())));
  for (const auto& tp : partitions) {
    rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition)->offset = spec;
  }
  FLOE_ASSIGN_OR_RETURN(
      const AdminAnswer event,
      RequestAdmin(handle, RD_KAFKA_ADMIN_OP_LISTOFFSETS, "kafka list offsets", timeout,
                   [&](rd_kafka_AdminOptions_t* options, rd_kafka_queue_t* queue) -> Status {
                     if (rd_kafka_error_t* error = rd_kafka_AdminOptions_set_isolation_level(options, IsolationOf(handle))) {
                       const std::string why = rd_kafka_error_string(error);
                       rd_kafka_error_destroy(error);
                       return Status::Internal("kafka list offsets: " + why);
                     }
                     rd_kafka_ListOffsets(handle, list.get(), options, queue);
                     return Status::OK();
                   }));
  const rd_kafka_ListOffsets_result_t* result = rd_kafka_event_ListOffsets_result(event.get());
  if (result == nullptr) return Status::Internal("kafka list offsets: unexpected event type");
  size_t count = 0;
  const rd_kafka_ListOffsetsResultInfo_t** infos = rd_kafka_ListOffsets_result_infos(result, &count);
  std::map<std::pair<std::string, std::int32_t>, std::int64_t> offsets;
  for (size_t i = 0; i < count; ++i) {
    const rd_kafka_topic_partition_t* tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
    if (tp->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::Unavailable("kafka watermarks for " + Name(tp->topic, tp->partition) +
                                 " failed: " + rd_kafka_err2str(tp->err));
    }
    offsets[{tp->topic, tp->partition}] = tp->offset;
  }
  return offsets;
}

}  // namespace

Result<std::vector<std::pair<std::int64_t, std::int64_t>>> ListWatermarks(rd_kafka_s* handle,
                                                                          const std::vector<TopicPartition>& partitions,
                                                                          std::chrono::milliseconds timeout) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  if (partitions.empty()) return out;
  // Two calls: ListOffsets takes one spec per partition. Each is one request per leader.
  FLOE_ASSIGN_OR_RETURN(auto low, ListOffsets(handle, partitions, RD_KAFKA_OFFSET_SPEC_EARLIEST, timeout));
  FLOE_ASSIGN_OR_RETURN(auto high, ListOffsets(handle, partitions, RD_KAFKA_OFFSET_SPEC_LATEST, timeout));
  out.reserve(partitions.size());
  for (const auto& tp : partitions) {
    const auto l = low.find({tp.topic, tp.partition});
    const auto h = high.find({tp.topic, tp.partition});
    if (l == low.end() || h == high.end()) {
      return Status::Unavailable("kafka watermarks for " + Name(tp.topic, tp.partition) + ": no answer for it");
    }
    out.emplace_back(l->second, h->second);
  }
  return out;
}

}  // namespace floe::kafka
