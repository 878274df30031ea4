#pragma once
// How large a table's Iceberg metadata file grows under a topic's settings, estimated before
// anything runs, so that `floe validate` (and `floe run` at start) can warn about a
// configuration that would make every commit rewrite, and every query read, megabytes of
// metadata (docs/maintenance.md, "How large the metadata grows").
//
// The estimate, per topic entry:
//   commits kept  = snapshot_retention / commit_interval, the snapshots ingestion adds in the
//                   retention window, plus one compaction snapshot per compaction.min_files
//                   commits (one data file per commit: the worst case for compaction);
//   snapshots     = max(min_snapshots, min(max_snapshots, commits kept));
//   bytes         = snapshots x (kSnapshotBytes + kSnapshotBytesPerPartition x partitions)
//                   + the metadata-log (write.metadata.previous-versions-max entries) + the schema.
// Kafka partitions are not known without the broker: the estimate assumes
// kAssumedPartitions, and the warning says so.
#include <cstdint>
#include <string>
#include <vector>

#include "floe/core/config.h"

namespace floe::maintenance {

// Measured on Floe's tables (bench/results/table-health-metadata.md: 32 partitions, 1 s
// commits, 20 minutes): a snapshot's JSON (ids, sequence number, manifest list path, summary)
// and its snapshot-log entry, without floe.offsets, ~700 bytes; floe.offsets per Kafka
// partition (the partition and its offset, escaped inside the summary string), ~14; a
// metadata-log entry, 178. (635 KB for 535 snapshots at 32 partitions.)
inline constexpr std::int64_t kSnapshotBytes = 700;
inline constexpr std::int64_t kSnapshotBytesPerPartition = 14;
inline constexpr std::int64_t kMetadataLogEntryBytes = 178;
inline constexpr int kAssumedPartitions = 32;
// Above this a warning: a few MB written per commit, read before every query plan.
inline constexpr std::int64_t kMetadataWarnBytes = 4LL << 20;

struct MetadataGrowth {
  std::int64_t snapshots = 0;  // kept at the steady state
  std::int64_t bytes = 0;      // of the metadata file then
};

MetadataGrowth EstimateMetadataGrowth(const TopicConfig& topic, int partitions = kAssumedPartitions);

// One warning per topic entry (Iceberg tables with maintenance enabled: without it nothing
// expires and the file grows without bound, which the warning says) whose estimate exceeds
// kMetadataWarnBytes, naming the entry, the estimate and the setting to change.
std::vector<std::string> MetadataGrowthWarnings(const FloeConfig& config);

}  // namespace floe::maintenance
