#include "floe/sink/skipped_records.h"

#include <nlohmann/json.hpp>

namespace floe::sink {

std::optional<std::string> SkippedRecordsJson(const std::vector<PartitionFlush>& flushes,
                                              const std::vector<std::size_t>& taken) {
  nlohmann::json skipped = nlohmann::json::object();
  for (std::size_t i : taken) {
    const auto& f = flushes[i];
    if (f.skipped.empty()) continue;
    auto& offsets = skipped[f.topic][std::to_string(f.partition)];
    for (auto offset : f.skipped) offsets.push_back(offset);
  }
  if (skipped.empty()) return std::nullopt;
  // Topic names come from Kafka and may not be UTF-8: never throw while committing.
  return skipped.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace floe::sink
