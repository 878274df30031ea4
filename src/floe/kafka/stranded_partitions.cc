#include "floe/kafka/stranded_partitions.h"

#include <set>

namespace floe::kafka {

std::vector<TopicPartition> Unowned(const std::map<std::string, std::int32_t>& partition_counts,
                                    const std::vector<TopicPartition>& owned) {
  std::set<std::pair<std::string, std::int32_t>> taken;
  for (const auto& tp : owned) taken.emplace(tp.topic, tp.partition);
  std::vector<TopicPartition> unowned;
  for (const auto& [topic, count] : partition_counts) {
    for (std::int32_t p = 0; p < count; ++p) {
      if (taken.count({topic, p}) == 0) unowned.push_back({topic, p, 0});
    }
  }
  return unowned;
}

std::vector<TopicPartition> StrandedPartitions::Observe(Clock::time_point now, bool stable,
                                                        const std::vector<TopicPartition>& unowned) {
  if (!stable) {
    since_.clear();
    return {};
  }
  std::map<std::pair<std::string, std::int32_t>, Clock::time_point> still;
  std::vector<TopicPartition> stranded;
  for (const auto& tp : unowned) {
    const auto key = std::make_pair(tp.topic, tp.partition);
    const auto seen = since_.find(key);
    const Clock::time_point first = seen == since_.end() ? now : seen->second;
    still.emplace(key, first);
    if (now - first >= grace_) stranded.push_back({tp.topic, tp.partition, 0});
  }
  since_ = std::move(still);
  return stranded;
}

}  // namespace floe::kafka
