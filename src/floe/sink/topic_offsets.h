#pragma once
// Where each Kafka partition stands in a table, whatever the table format: the next offset to
// read per (topic, partition). This is the exactly-once bookkeeping of docs/architecture.md —
// the table, not Kafka, is the source of truth — and each format stores it its own way
// (iceberg_offsets.h: the snapshot summary; delta_offsets.h: txn actions).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace floe::sink {

using PartitionOffsets = std::map<std::int32_t, std::int64_t>;  // partition -> next offset
using TopicOffsets = std::map<std::string, PartitionOffsets, std::less<>>;

// The committed next offset of one partition; nullopt when no Floe commit covered it.
std::optional<std::int64_t> Find(const TopicOffsets& offsets, std::string_view topic, std::int32_t partition);

}  // namespace floe::sink
