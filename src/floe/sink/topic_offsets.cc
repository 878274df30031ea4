#include "floe/sink/topic_offsets.h"

namespace floe::sink {

std::optional<std::int64_t> Find(const TopicOffsets& offsets, std::string_view topic, std::int32_t partition) {
  auto t = offsets.find(topic);
  if (t == offsets.end()) return std::nullopt;
  auto p = t->second.find(partition);
  if (p == t->second.end()) return std::nullopt;
  return p->second;
}

}  // namespace floe::sink
