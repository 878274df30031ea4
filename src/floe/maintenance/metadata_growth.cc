#include "floe/maintenance/metadata_growth.h"

#include <algorithm>
#include <cstdio>

#include "floe/iceberg/table_metadata.h"

namespace floe::maintenance {
namespace {

// The schema, specs, sort orders and properties: small beside the snapshots, but not nothing.
constexpr std::int64_t kFixedBytes = 8 << 10;

std::string Megabytes(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

bool WritesIceberg(const TopicConfig& topic) {
  return std::find(topic.formats.begin(), topic.formats.end(), TableFormat::kIceberg) != topic.formats.end();
}

}  // namespace

MetadataGrowth EstimateMetadataGrowth(const TopicConfig& topic, int partitions) {
  const MaintenanceConfig& m = topic.maintenance;
  const std::int64_t interval_ms = std::max<std::int64_t>(1, topic.commit_interval.count());
  std::int64_t commits = m.snapshot_retention.count() / interval_ms;
  commits += commits / std::max(2, m.compaction.min_files);
  MetadataGrowth g;
  g.snapshots = m.enabled ? std::max<std::int64_t>(m.min_snapshots, std::min<std::int64_t>(m.max_snapshots, commits))
                          : commits;  // nothing expires: a week of commits is where it stands after a week
  g.bytes = g.snapshots * (kSnapshotBytes + kSnapshotBytesPerPartition * partitions) +
            iceberg::kDefaultMetadataPreviousVersionsMax * kMetadataLogEntryBytes + kFixedBytes;
  return g;
}

std::vector<std::string> MetadataGrowthWarnings(const FloeConfig& config) {
  std::vector<std::string> warnings;
  for (const auto& topic : config.topics) {
    if (!WritesIceberg(topic)) continue;
    const MetadataGrowth g = EstimateMetadataGrowth(topic);
    if (g.bytes <= kMetadataWarnBytes) continue;
    const std::string entry = topic.name.empty() ? "pattern " + topic.pattern : "topic " + topic.name;
    std::string why = topic.maintenance.enabled
                          ? "maintenance.max_snapshots " + std::to_string(topic.maintenance.max_snapshots) +
                                " and snapshot_retention keep " + std::to_string(g.snapshots) + " snapshots"
                          : "maintenance is disabled, so no snapshot expires (" + std::to_string(g.snapshots) +
                                " snapshots after one snapshot_retention of commits, and growing)";
    warnings.push_back(entry + ": the table's metadata file would grow to about " + Megabytes(g.bytes) + " (with " +
                       std::to_string(kAssumedPartitions) + " Kafka partitions): " + why +
                       ", each commit rewrites the whole file and every query reads it; lower max_snapshots or "
                       "snapshot_retention (docs/maintenance.md, \"How large the metadata grows\")");
  }
  return warnings;
}

}  // namespace floe::maintenance
