#pragma once
// Fencing without a coordinator (docs/architecture.md, "Exactly-once commit protocol"): a
// partition's data may be committed only if the table still says the partition stands where
// that data began. A stale owner after a rebalance finds the table moved on and drops its
// data instead of committing duplicates. Every committer runs this on the table state its
// commit is built on, inside its conflict-retry loop, so the check and the compare-and-swap
// see the same state.
#include <cstddef>
#include <vector>

#include "floe/sink/table_sink.h"
#include "floe/sink/topic_offsets.h"

namespace floe::sink {

struct FenceOutcome {
  std::vector<std::size_t> taken;      // indexes into the flushes that may commit
  std::vector<FencedPartition> fenced;  // the others, with where the table stands
  TopicOffsets next;                    // the table's offsets with the taken partitions moved on
  bool nothing_to_commit() const { return taken.empty(); }
};

FenceOutcome Fence(const TopicOffsets& table_offsets, const std::vector<PartitionFlush>& flushes);

// Before writing files: the flushes that may still commit, and the ones already fenced (not
// written at all). Files pack the rows of several partitions (data_files.h), so a partition
// fenced after the files were written makes its file-mates write theirs again; fencing first
// keeps that to a race with another writer during the write.
struct PreFence {
  std::vector<PartitionFlush> taken;
  std::vector<FencedPartition> fenced;
};
PreFence FenceBeforeWriting(const TopicOffsets& table_offsets, const std::vector<PartitionFlush>& flushes);

// How often a sink writes files again after partitions were fenced during a write
// (CommitReport::rewrite) before it gives up with kConflict (retried later by the pipeline).
inline constexpr int kMaxRewrites = 3;
Status TooManyRewrites(const std::string& table);

}  // namespace floe::sink
