#include "floe/iceberg/rewrite_manifests.h"

#include <charconv>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "floe/core/uuid.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/snapshot_commit_internal.h"
#include "floe/iceberg/table_scan_internal.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {
namespace {

template <typename T>
std::optional<T> NumberProperty(const TableMetadata& metadata, std::string_view key) {
  auto text = metadata.Property(key);
  if (!text) return std::nullopt;
  T v{};
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return v;
}

// What happens to each manifest of the list: kept (bin -1) or merged into bin `bin`.
struct Plan {
  std::vector<int> bin_of;              // per manifest of the list
  std::vector<std::vector<std::size_t>> bins;  // manifest indexes, two or more each
};

Plan PlanBins(const std::vector<ManifestFile>& manifests, const ManifestMergeSettings& settings) {
  Plan plan;
  plan.bin_of.assign(manifests.size(), -1);
  std::map<int, std::vector<std::size_t>> by_spec;  // data manifests, in list order
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    if (manifests[i].content == 0) by_spec[manifests[i].partition_spec_id].push_back(i);
  }
  for (const auto& [spec_id, indexes] : by_spec) {
    if (indexes.size() < static_cast<std::size_t>(settings.min_count_to_merge)) continue;
    std::vector<std::size_t> bin;
    std::int64_t bin_bytes = 0;
    auto close = [&]() {
      if (bin.size() >= 2) {
        for (std::size_t i : bin) plan.bin_of[i] = static_cast<int>(plan.bins.size());
        plan.bins.push_back(bin);
      }
      bin.clear();
      bin_bytes = 0;
    };
    for (std::size_t i : indexes) {
      const std::int64_t length = manifests[i].manifest_length;
      if (length >= settings.target_size_bytes) continue;  // big enough: kept, and does not break a bin
      if (!bin.empty() && bin_bytes + length > settings.target_size_bytes) close();
      bin.push_back(i);
      bin_bytes += length;
    }
    close();
  }
  return plan;
}

}  // namespace

ManifestMergeSettings ManifestMergeSettingsOf(const TableMetadata& metadata) {
  ManifestMergeSettings settings;
  if (auto v = NumberProperty<int>(metadata, kPropManifestMinCountToMerge); v && *v >= 2) {
    settings.min_count_to_merge = *v;
  }
  if (auto v = NumberProperty<std::int64_t>(metadata, kPropManifestTargetSizeBytes); v && *v > 0) {
    settings.target_size_bytes = *v;
  }
  return settings;
}

Result<ManifestMerge> PrepareMergeManifests(const TableMetadata& base, const ManifestMergeSettings& settings,
                                            bool plan_only) {
  if (settings.min_count_to_merge < 2) return Status::InvalidArgument("manifest merge: min count to merge must be at least 2");
  if (settings.target_size_bytes <= 0) return Status::InvalidArgument("manifest merge: target size must be positive");
  if (base.format_version != 2) {
    return Status::Unsupported("manifest merge: the table is format v" + std::to_string(base.format_version) +
                               "; Floe rewrites format v2 tables only");
  }
  ManifestMerge out;
  const Snapshot* parent = base.CurrentSnapshot();
  if (!parent) return out;
  if (parent->manifest_list.empty()) {
    return Status::Unsupported("manifest merge: snapshot " + std::to_string(parent->snapshot_id) +
                               " uses v1 inline manifests; rewrite the table with a newer writer");
  }
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(parent->manifest_list));
  out.manifests_before = manifests.size();
  const Plan plan = PlanBins(manifests, settings);
  for (const auto& bin : plan.bins) out.manifests_replaced += bin.size();
  out.manifests_created = plan.bins.size();
  out.manifests_after = out.manifests_before - out.manifests_replaced + out.manifests_created;
  if (plan.bins.empty() || plan_only) return out;

  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(base.location));
  const std::int64_t snapshot_id = NewSnapshotId(base);
  const std::int64_t sequence = base.NextSequenceNumber();
  const std::string tag = floe::NewUuid();
  std::size_t entries_processed = 0;
  std::vector<std::optional<ManifestFile>> merged(plan.bins.size());
  for (std::size_t b = 0; b < plan.bins.size(); ++b) {
    const int spec_id = manifests[plan.bins[b].front()].partition_spec_id;
    const schema::PartitionSpec* spec = base.SpecById(spec_id);
    const schema::Schema* schema = spec ? SchemaForSpec(base, *spec) : nullptr;
    if (!schema) {
      return Status::InvalidArgument("manifest merge: partition spec " + std::to_string(spec_id) +
                                     " is not usable with any schema of the table");
    }
    std::vector<ManifestEntry> entries;
    for (std::size_t i : plan.bins[b]) {
      FLOE_ASSIGN_OR_RETURN(auto read, ReadManifest(manifests[i], *schema, *spec));
      entries_processed += read.size();
      for (auto& e : read) {
        if (e.status == EntryStatus::kDeleted) continue;
        // ReadManifest filled in the inherited snapshot id and sequence numbers: written
        // explicitly now, as EXISTING entries must be.
        e.status = EntryStatus::kExisting;
        entries.push_back(std::move(e));
      }
    }
    if (entries.empty()) continue;  // only deletes of earlier snapshots: nothing to keep
    ManifestContext context{schema, spec, base.format_version};
    FLOE_ASSIGN_OR_RETURN(merged[b], WriteManifest(io, "metadata/" + tag + "-m" + std::to_string(b) + ".avro", context,
                                                   snapshot_id, sequence, entries));
  }
  std::vector<ManifestFile> list;
  std::size_t created = 0;
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const int bin = plan.bin_of[i];
    if (bin < 0) {
      list.push_back(manifests[i]);
    } else if (plan.bins[static_cast<std::size_t>(bin)].front() == i && merged[static_cast<std::size_t>(bin)]) {
      list.push_back(*merged[static_cast<std::size_t>(bin)]);
      ++created;
    }
  }
  out.manifests_created = created;
  out.manifests_after = list.size();
  const std::string list_path = "metadata/snap-" + std::to_string(snapshot_id) + "-1-" + tag + ".avro";
  FLOE_RETURN_IF_ERROR(WriteManifestList(io, list_path, snapshot_id, parent->snapshot_id, sequence, list));

  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id;
  snapshot.parent_snapshot_id = parent->snapshot_id;
  snapshot.sequence_number = sequence;
  snapshot.timestamp_ms = NowMillis();
  snapshot.manifest_list = io.Uri(list_path);
  snapshot.schema_id = base.current_schema_id;
  auto& s = snapshot.summary;
  s[std::string(kSummaryOperation)] = "replace";
  s["manifests-created"] = std::to_string(created);
  s["manifests-replaced"] = std::to_string(out.manifests_replaced);
  s["manifests-kept"] = std::to_string(out.manifests_before - out.manifests_replaced);
  s["entries-processed"] = std::to_string(entries_processed);
  for (const auto& [key, value] : parent->summary) {
    if (key.rfind("total-", 0) == 0 || key == kSummaryFloeOffsets) s[key] = value;
  }
  out.commit = CommitOnMain(base, snapshot);
  return out;
}

}  // namespace floe::iceberg
