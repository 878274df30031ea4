#include "floe/sink/iceberg_offsets.h"

#include <nlohmann/json.hpp>

#include <charconv>

namespace floe::sink {

namespace {

// Calls visit(snapshot) from main's head back through parents until it returns true.
template <typename Visit>
void WalkMain(const iceberg::TableMetadata& metadata, Visit visit) {
  auto id = metadata.RefSnapshotId(iceberg::kMainBranch);
  if (!id) id = metadata.current_snapshot_id;
  while (id) {
    const iceberg::Snapshot* snapshot = metadata.SnapshotById(*id);
    if (snapshot == nullptr || visit(*snapshot)) return;  // expired parents end the walk
    id = snapshot->parent_snapshot_id;
  }
}

}  // namespace

Result<TopicOffsets> ParseOffsets(std::string_view json_text) {
  auto j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status::InvalidArgument("floe.offsets is not a JSON object");
  TopicOffsets out;
  for (const auto& [topic, partitions] : j.items()) {
    if (!partitions.is_object()) return Status::InvalidArgument("floe.offsets['" + topic + "'] is not an object");
    auto& target = out[topic];
    for (const auto& [partition, offset] : partitions.items()) {
      std::int32_t p = -1;
      auto [end, ec] = std::from_chars(partition.data(), partition.data() + partition.size(), p);
      if (ec != std::errc() || end != partition.data() + partition.size() || p < 0 || !offset.is_number_integer() ||
          offset.get<std::int64_t>() < 0) {
        return Status::InvalidArgument("floe.offsets['" + topic + "']['" + partition + "'] is not partition -> offset");
      }
      target[p] = offset.get<std::int64_t>();
    }
  }
  return out;
}

std::string SerializeOffsets(const TopicOffsets& offsets) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [topic, partitions] : offsets) {
    nlohmann::json& t = j[topic] = nlohmann::json::object();
    for (const auto& [p, offset] : partitions) t[std::to_string(p)] = offset;
  }
  return j.dump();
}

Result<TopicOffsets> CommittedOffsets(const iceberg::TableMetadata& metadata) {
  Result<TopicOffsets> found = TopicOffsets{};
  WalkMain(metadata, [&](const iceberg::Snapshot& snapshot) {
    auto text = snapshot.SummaryValue(iceberg::kSummaryFloeOffsets);
    if (!text) return false;
    found = ParseOffsets(*text);
    if (!found.ok()) {
      found = found.status().WithContext("snapshot " + std::to_string(snapshot.snapshot_id));
    }
    return true;
  });
  return found;
}

bool HasCommit(const iceberg::TableMetadata& metadata, std::string_view commit_id) {
  bool found = false;
  WalkMain(metadata, [&](const iceberg::Snapshot& snapshot) {
    found = snapshot.SummaryValue(iceberg::kSummaryFloeCommitId) == commit_id;
    return found;
  });
  return found;
}

}  // namespace floe::sink
