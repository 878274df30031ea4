#pragma once
// The Iceberg codec of a table's offsets (topic_offsets.h). Every Floe commit writes, in the
// snapshot summary, `floe.offsets` = the next offset to read for every (topic, partition) the table has ever covered — the parent's map with this
// commit's partitions moved forward — so the newest snapshot that carries the key knows
// everything. Snapshots written by others (compaction, engines' own writes) may lack it;
// readers walk back through parents to the newest one that has it.
#include <string>
#include <string_view>

#include "floe/core/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/sink/topic_offsets.h"

namespace floe::sink {

// {"orders": {"0": 42, "1": 7}}
Result<TopicOffsets> ParseOffsets(std::string_view json_text);
std::string SerializeOffsets(const TopicOffsets& offsets);

// The offsets of the newest snapshot of `main`'s history that has floe.offsets (empty
// when none does). A malformed value is kInvalidArgument naming the snapshot: Floe will not
// guess where a partition stands.
Result<TopicOffsets> CommittedOffsets(const iceberg::TableMetadata& metadata);

// Whether a snapshot in `main`'s history carries this floe.commit-id: how a committer that
// lost its connection mid-commit learns that the commit landed after all.
bool HasCommit(const iceberg::TableMetadata& metadata, std::string_view commit_id);

}  // namespace floe::sink
