#include "floe/iceberg/rewrite_manifests.h"

#include <charconv>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "floe/core/uuid.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/snapshot_commit_internal.h"
#include "floe/iceberg/table_scan_internal.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {

// What a merge wrote, for a retry on fresh metadata (RebaseMergeManifests).
struct MergedManifestsState {
  std::int64_t snapshot_id = 0;  // kept across retries: the merged manifests name it
  std::size_t entries_processed = 0;
  struct Bin {
    std::set<std::string> replaced;      // manifest paths
    std::optional<ManifestFile> merged;  // nullopt: the bin had no live entry
  };
  std::vector<Bin> bins;
};

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

// The manifest list and the snapshot of a merge whose merged manifests are written, on
// `base` whose current snapshot `parent` lists `manifests`. nullopt when a manifest the merge
// replaces is not in that list any more (or the snapshot id got taken): plan again.
Result<std::optional<ManifestMerge>> CommitMerge(const TableMetadata& base, const Snapshot& parent,
                                                 const std::vector<ManifestFile>& manifests,
                                                 std::shared_ptr<const MergedManifestsState> state) {
  std::map<std::string, std::size_t> bin_of;
  for (std::size_t b = 0; b < state->bins.size(); ++b) {
    for (const auto& path : state->bins[b].replaced) bin_of.emplace(path, b);
  }
  std::size_t found = 0;
  for (const auto& m : manifests) found += bin_of.count(m.manifest_path);
  if (found != bin_of.size() || base.SnapshotById(state->snapshot_id)) return std::optional<ManifestMerge>();

  const std::int64_t sequence = base.NextSequenceNumber();
  ManifestMerge out;
  out.manifests_before = manifests.size();
  out.manifests_replaced = bin_of.size();
  std::vector<ManifestFile> list;
  std::vector<bool> placed(state->bins.size(), false);
  for (const auto& m : manifests) {
    auto it = bin_of.find(m.manifest_path);
    if (it == bin_of.end()) {
      list.push_back(m);
      continue;
    }
    // The merged manifest takes the place of its bin's first manifest.
    if (placed[it->second]) continue;
    placed[it->second] = true;
    if (const auto& merged = state->bins[it->second].merged) {
      list.push_back(*merged);
      list.back().sequence_number = sequence;  // a manifest added by this commit
      ++out.manifests_created;
    }
  }
  out.manifests_after = list.size();
  FLOE_ASSIGN_OR_RETURN(auto snapshot,
                        WriteChildSnapshot(base, &parent, state->snapshot_id, sequence, "replace", list));
  auto& s = snapshot.summary;
  s["manifests-created"] = std::to_string(out.manifests_created);
  s["manifests-replaced"] = std::to_string(out.manifests_replaced);
  s["manifests-kept"] = std::to_string(out.manifests_before - out.manifests_replaced);
  s["entries-processed"] = std::to_string(state->entries_processed);
  for (const auto& [key, value] : parent.summary) {
    if (key.rfind("total-", 0) == 0 || key == kSummaryFloeOffsets) s[key] = value;
  }
  out.commit = CommitOnMain(base, snapshot);
  out.reusable = std::move(state);
  return std::optional<ManifestMerge>(std::move(out));
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
  auto state = std::make_shared<MergedManifestsState>();
  state->snapshot_id = NewSnapshotId(base);
  // Written with this sequence number; a rebase lists them with its own (their entries are
  // all EXISTING with explicit sequence numbers, so nothing inherits it).
  const std::int64_t sequence = base.NextSequenceNumber();
  const std::string tag = floe::NewUuid();
  for (std::size_t b = 0; b < plan.bins.size(); ++b) {
    MergedManifestsState::Bin& bin = state->bins.emplace_back();
    for (std::size_t i : plan.bins[b]) bin.replaced.insert(manifests[i].manifest_path);
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
      state->entries_processed += read.size();
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
    FLOE_ASSIGN_OR_RETURN(bin.merged, WriteManifest(io, "metadata/" + tag + "-m" + std::to_string(b) + ".avro", context,
                                                    state->snapshot_id, sequence, entries));
  }
  FLOE_ASSIGN_OR_RETURN(auto merge, CommitMerge(base, *parent, manifests, std::move(state)));
  if (!merge) return Status::Internal("manifest merge: the plan does not match the manifests it was made on");
  return std::move(*merge);
}

Result<std::optional<ManifestMerge>> RebaseMergeManifests(const TableMetadata& fresh, const ManifestMerge& previous) {
  if (!previous.reusable) return std::optional<ManifestMerge>();
  const Snapshot* parent = fresh.CurrentSnapshot();
  if (!parent || parent->manifest_list.empty()) return std::optional<ManifestMerge>();
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(parent->manifest_list));
  return CommitMerge(fresh, *parent, manifests, previous.reusable);
}

}  // namespace floe::iceberg
