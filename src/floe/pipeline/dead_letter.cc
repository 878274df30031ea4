#include "floe/pipeline/dead_letter.h"

namespace floe::pipeline {

std::vector<kafka::OwnedHeader> DeadLetterHeaders(const kafka::Record& record, const Status& reason) {
  std::vector<kafka::OwnedHeader> out;
  for (const auto& h : record.headers()) {
    out.push_back({std::string(h.key), h.value ? std::optional<std::string>(std::string(*h.value)) : std::nullopt});
  }
  out.push_back({kErrorHeaderTopic, std::string(record.topic())});
  out.push_back({kErrorHeaderPartition, std::to_string(record.partition())});
  out.push_back({kErrorHeaderOffset, std::to_string(record.offset())});
  out.push_back({kErrorHeaderReason, reason.message()});
  return out;
}

}  // namespace floe::pipeline
