#include "floe/sink/fencing.h"

#include <algorithm>

namespace floe::sink {

FenceOutcome Fence(const TopicOffsets& table_offsets, const std::vector<PartitionFlush>& flushes) {
  FenceOutcome out;
  out.next = table_offsets;
  for (std::size_t i = 0; i < flushes.size(); ++i) {
    const auto& f = flushes[i];
    const auto now = Find(table_offsets, f.topic, f.partition);
    if (now != f.expected) {
      out.fenced.push_back({f.topic, f.partition, now});  // someone else committed it since our data began
      continue;
    }
    out.next[f.topic][f.partition] = f.next_offset;
    out.taken.push_back(i);
  }
  return out;
}

PreFence FenceBeforeWriting(const TopicOffsets& table_offsets, const std::vector<PartitionFlush>& flushes) {
  FenceOutcome fence = Fence(table_offsets, flushes);
  PreFence out;
  out.fenced = std::move(fence.fenced);
  for (std::size_t i : fence.taken) out.taken.push_back(flushes[i]);
  return out;
}

Status TooManyRewrites(const std::string& table) {
  return Status::Conflict("table " + table + ": partitions kept being fenced by another writer while files were written (" +
                          std::to_string(kMaxRewrites) + " times); trying again later");
}

const FencedPartition* CommitReport::FindFenced(const std::string& topic, std::int32_t partition) const {
  auto it = std::find_if(fenced.begin(), fenced.end(),
                         [&](const FencedPartition& f) { return f.topic == topic && f.partition == partition; });
  return it == fenced.end() ? nullptr : &*it;
}

bool CommitReport::IsFenced(const std::string& topic, std::int32_t partition) const {
  return FindFenced(topic, partition) != nullptr;
}

}  // namespace floe::sink
