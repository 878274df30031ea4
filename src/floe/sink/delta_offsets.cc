#include "floe/sink/delta_offsets.h"

#include <charconv>
#include <string_view>

namespace floe::sink {

namespace {
constexpr std::string_view kAppIdPrefix = "floe:";
}  // namespace

std::string DeltaAppId(const std::string& topic, std::int32_t partition) {
  return std::string(kAppIdPrefix) + topic + ":" + std::to_string(partition);
}

Result<TopicOffsets> DeltaCommittedOffsets(const delta::TableState& state) {
  TopicOffsets out;
  for (const auto& [app_id, version] : state.txn_versions) {
    if (app_id.rfind(kAppIdPrefix, 0) != 0) continue;  // another writer's transactions
    // Topic names may not contain ':', so the last one separates the partition.
    const auto colon = app_id.rfind(':');
    std::int32_t partition = -1;
    const char* begin = app_id.data() + colon + 1;
    const char* end = app_id.data() + app_id.size();
    auto [ptr, ec] = std::from_chars(begin, end, partition);
    if (ec != std::errc() || ptr != end || colon <= kAppIdPrefix.size() || partition < 0) {
      return Status::InvalidArgument("txn appId '" + app_id + "' is not floe:<topic>:<partition>");
    }
    out[app_id.substr(kAppIdPrefix.size(), colon - kAppIdPrefix.size())][partition] = version;
  }
  return out;
}

std::map<std::string, std::int64_t> DeltaTxnVersions(const TopicOffsets& offsets) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [topic, partitions] : offsets) {
    for (const auto& [p, offset] : partitions) out[DeltaAppId(topic, p)] = offset;
  }
  return out;
}

}  // namespace floe::sink
