#pragma once
// Where each Kafka partition stands in a table: the exactly-once bookkeeping of DESIGN.md.
// Every Floe commit writes, in the snapshot summary, `floe.offsets` = the next offset to read
// for every (topic, partition) the table has ever covered — the parent's map with this
// commit's partitions moved forward — so the newest snapshot that carries the key knows
// everything. Snapshots written by others (compaction, engines' own writes) may lack it;
// readers walk back through parents to the newest one that has it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::pipeline {

using PartitionOffsets = std::map<std::int32_t, std::int64_t>;  // partition -> next offset
using TopicOffsets = std::map<std::string, PartitionOffsets, std::less<>>;

// {"orders": {"0": 42, "1": 7}}
Result<TopicOffsets> ParseOffsets(std::string_view json_text);
std::string SerializeOffsets(const TopicOffsets& offsets);

// The offsets of the newest snapshot of `main`'s history that has floe.offsets (empty
// when none does). A malformed value is kInvalidArgument naming the snapshot: Floe will not
// guess where a partition stands.
Result<TopicOffsets> CommittedOffsets(const iceberg::TableMetadata& metadata);

// The committed next offset of one partition; nullopt when no Floe commit covered it.
std::optional<std::int64_t> Find(const TopicOffsets& offsets, std::string_view topic, std::int32_t partition);

// Whether a snapshot in `main`'s history carries this floe.commit-id: how a committer that
// lost its connection mid-commit learns that the commit landed after all.
bool HasCommit(const iceberg::TableMetadata& metadata, std::string_view commit_id);

}  // namespace floe::pipeline
