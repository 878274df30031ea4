#include "floe/iceberg/replace_files.h"

#include <set>
#include <string_view>
#include <utility>

#include "floe/core/uuid.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/snapshot_commit_internal.h"
#include "floe/iceberg/table_scan_internal.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {
namespace {

bool IsLive(const ManifestEntry& e) { return e.status != EntryStatus::kDeleted; }

std::string ListSome(const std::set<std::string>& paths) {
  std::string out;
  int n = 0;
  for (const auto& p : paths) {
    if (n == 3) {
      out += ", … (" + std::to_string(paths.size()) + " in all)";
      break;
    }
    out += (n++ ? ", " : "") + p;
  }
  return out;
}

}  // namespace

// Outside the anonymous namespace like ReplacedManifestsState (declared in the header), which
// holds two of them.
struct ReplaceTotals {
  std::int64_t files = 0;
  std::int64_t records = 0;
  std::int64_t bytes = 0;
  void Add(const DataFile& f) {
    ++files;
    records += f.record_count;
    bytes += f.file_size_in_bytes;
  }
};

// What a replace wrote, for a retry on fresh metadata (RebaseReplaceFiles).
struct ReplacedManifestsState {
  std::string table_uuid;
  std::int64_t snapshot_id = 0;        // kept across retries: the written manifests name it
  std::int64_t written_sequence = 0;   // the sequence number the manifests were written with
  std::vector<ManifestFile> front;     // the added files' manifests, then the rewritten ones
  std::set<std::string> replaced;      // parent manifests the rewritten ones take the place of
  std::set<std::string> dropped;       // parent manifests without a live entry, left out
  ReplaceTotals deleted, added;
  std::size_t changed_partitions = 0;
  std::map<std::string, std::string> extra_summary;
};

namespace {

// Writes the manifest list `list` and returns the commit of the replace snapshot on `base`,
// whose current snapshot is `parent`. `totals`: the table's totals after the replace, when known.
Result<PreparedCommit> CommitReplace(const TableMetadata& base, const Snapshot& parent,
                                     const ReplacedManifestsState& state, std::int64_t sequence,
                                     const std::vector<ManifestFile>& list,
                                     const std::optional<ReplaceTotals>& totals) {
  FLOE_ASSIGN_OR_RETURN(auto snapshot,
                        WriteChildSnapshot(base, &parent, state.snapshot_id, sequence, "replace", list));
  auto& s = snapshot.summary;
  s["added-data-files"] = std::to_string(state.added.files);
  s["added-records"] = std::to_string(state.added.records);
  s["added-files-size"] = std::to_string(state.added.bytes);
  s["deleted-data-files"] = std::to_string(state.deleted.files);
  s["deleted-records"] = std::to_string(state.deleted.records);
  s["removed-files-size"] = std::to_string(state.deleted.bytes);
  s["changed-partition-count"] = std::to_string(state.changed_partitions);
  if (totals) {
    s["total-data-files"] = std::to_string(totals->files);
    s["total-records"] = std::to_string(totals->records);
    s["total-files-size"] = std::to_string(totals->bytes);
    s["total-delete-files"] = "0";
    s["total-position-deletes"] = "0";
    s["total-equality-deletes"] = "0";
  }
  // The pipeline reads its committed offsets from the current snapshot: carried from the parent.
  if (auto offsets = parent.SummaryValue(kSummaryFloeOffsets)) s[std::string(kSummaryFloeOffsets)] = std::string(*offsets);
  for (const auto& [k, v] : state.extra_summary) s.emplace(k, v);  // never overrides the entries above
  return CommitOnMain(base, snapshot);
}

}  // namespace

Result<RebasableReplace> PrepareRebasableReplace(const TableMetadata& base, const std::vector<std::string>& files_to_delete,
                                                 const std::vector<DataFile>& files_to_add,
                                                 const std::map<std::string, std::string>& summary) {
  if (base.format_version != 2) {
    return Status::Unsupported("replace files: the table is format v" + std::to_string(base.format_version) +
                               "; Floe rewrites format v2 tables only");
  }
  const schema::Schema* schema = base.CurrentSchema();
  if (!schema) return Status::InvalidArgument("table metadata has no current schema");
  if (files_to_delete.empty()) return Status::InvalidArgument("replace files: no files to delete");
  std::set<std::string> to_delete;
  for (const auto& p : files_to_delete) {
    if (!to_delete.insert(p).second) return Status::InvalidArgument("replace files: " + p + " is to be deleted twice");
  }
  std::set<std::string> added_paths;
  for (const auto& f : files_to_add) {
    if (!added_paths.insert(f.file_path).second) {
      return Status::InvalidArgument("replace files: " + f.file_path + " is to be added twice");
    }
    if (to_delete.count(f.file_path)) {
      return Status::InvalidArgument("replace files: " + f.file_path + " is both deleted and added");
    }
    if (!base.SpecById(f.spec_id)) {
      return Status::InvalidArgument("replace files: " + f.file_path + " names partition spec " +
                                     std::to_string(f.spec_id) + ", which the table does not have");
    }
  }
  const Snapshot* parent = base.CurrentSnapshot();
  if (!parent) {
    return Status::Conflict("replace files: the table has no current snapshot, so " + ListSome(to_delete) +
                            " cannot be live");
  }
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadSnapshotManifests(base, *parent));
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(base.location));

  auto state = std::make_shared<ReplacedManifestsState>();
  state->table_uuid = base.table_uuid;
  state->snapshot_id = NewSnapshotId(base);
  state->extra_summary = summary;
  const std::int64_t sequence = base.NextSequenceNumber();
  state->written_sequence = sequence;
  const std::string tag = floe::NewUuid();
  int manifest_index = 0;
  auto next_manifest_path = [&]() { return "metadata/" + tag + "-m" + std::to_string(manifest_index++) + ".avro"; };

  ReplaceTotals& deleted = state->deleted;
  ReplaceTotals& added = state->added;
  ReplaceTotals after;
  std::set<std::string> found;
  std::set<std::string> live_paths;  // live after this commit (before the added files)
  std::set<std::pair<int, std::vector<PartitionValue>>> changed_partitions;
  std::vector<ManifestFile> carried;
  // The touched manifests' entries, one rewritten manifest per spec: a compaction takes files
  // from many manifests (one per ingestion commit), which become one.
  std::map<int, std::vector<ManifestEntry>> rewritten_by_spec;
  for (auto& [manifest, entries] : manifests) {
    bool live = false, touched = false;
    for (const auto& e : entries) {
      if (!IsLive(e)) continue;
      live = true;
      if (to_delete.count(e.data_file.file_path)) touched = true;
    }
    if (!live) {  // only deletes of earlier snapshots: nothing a reader of this one needs
      state->dropped.insert(manifest.manifest_path);
      continue;
    }
    if (!touched) {
      for (const auto& e : entries) {
        if (!IsLive(e)) continue;
        after.Add(e.data_file);
        live_paths.insert(e.data_file.file_path);
      }
      carried.push_back(std::move(manifest));
      continue;
    }
    state->replaced.insert(manifest.manifest_path);
    std::vector<ManifestEntry>& out = rewritten_by_spec[manifest.partition_spec_id];
    for (auto& e : entries) {
      if (!IsLive(e)) continue;
      const std::string& path = e.data_file.file_path;
      if (to_delete.count(path)) {
        if (!found.insert(path).second) {
          return Status::InvalidArgument("snapshot " + std::to_string(parent->snapshot_id) + " lists " + path +
                                         " as live twice");
        }
        e.status = EntryStatus::kDeleted;
        e.snapshot_id = state->snapshot_id;  // sequence numbers stay those of the file
        deleted.Add(e.data_file);
        changed_partitions.emplace(e.data_file.spec_id, e.data_file.partition);
      } else {
        e.status = EntryStatus::kExisting;  // snapshot id and sequence numbers as they were
        after.Add(e.data_file);
        live_paths.insert(path);
      }
      out.push_back(std::move(e));
    }
  }
  std::vector<ManifestFile> rewritten;
  for (const auto& [spec_id, entries] : rewritten_by_spec) {
    const schema::PartitionSpec* spec = base.SpecById(spec_id);
    if (!spec) return Status::InvalidArgument("a manifest names partition spec " + std::to_string(spec_id) +
                                              ", which the table does not have");
    ManifestContext context{SchemaForSpec(base, *spec), spec, base.format_version};
    FLOE_ASSIGN_OR_RETURN(auto written,
                          WriteManifest(io, next_manifest_path(), context, state->snapshot_id, sequence, entries));
    rewritten.push_back(std::move(written));
  }
  if (found.size() != to_delete.size()) {
    std::set<std::string> missing;
    for (const auto& p : to_delete) {
      if (!found.count(p)) missing.insert(p);
    }
    return Status::Conflict("replace files: " + ListSome(missing) + " not live in snapshot " +
                            std::to_string(parent->snapshot_id) +
                            ": another commit already removed it (or it never was in the table); plan again");
  }

  std::map<int, std::vector<ManifestEntry>> added_by_spec;
  for (const auto& f : files_to_add) {
    if (live_paths.count(f.file_path)) {
      return Status::InvalidArgument("replace files: " + f.file_path + " is already in the table");
    }
    ManifestEntry e;
    e.status = EntryStatus::kAdded;
    e.snapshot_id = state->snapshot_id;  // sequence numbers stay null: inherited from the list
    e.data_file = f;
    added.Add(f);
    changed_partitions.emplace(f.spec_id, f.partition);
    added_by_spec[f.spec_id].push_back(std::move(e));
  }
  if (added.records != deleted.records) {
    return Status::InvalidArgument("replace files: the files to delete hold " + std::to_string(deleted.records) +
                                   " records, the files to add " + std::to_string(added.records) +
                                   ": a rewrite must keep the table's rows");
  }
  state->changed_partitions = changed_partitions.size();
  // The list: one new manifest per spec of the added files, the rewritten manifests, then the
  // parent's manifests the replace did not touch.
  for (const auto& [spec_id, entries] : added_by_spec) {
    const schema::PartitionSpec* spec = base.SpecById(spec_id);
    const schema::Schema* spec_schema = SchemaForSpec(base, *spec);
    if (!spec_schema) {
      return Status::InvalidArgument("replace files: no schema of the table has the source columns of partition spec " +
                                     std::to_string(spec_id));
    }
    ManifestContext context{spec_schema, spec, base.format_version};
    FLOE_ASSIGN_OR_RETURN(auto written, WriteManifest(io, next_manifest_path(), context, state->snapshot_id, sequence,
                                                      entries));
    state->front.push_back(std::move(written));
  }
  for (auto& m : rewritten) state->front.push_back(std::move(m));
  std::vector<ManifestFile> list = state->front;
  for (auto& m : carried) list.push_back(std::move(m));
  // Exact: every manifest of the parent was read (the table has no delete files).
  const ReplaceTotals totals{after.files + added.files, after.records + added.records, after.bytes + added.bytes};
  FLOE_ASSIGN_OR_RETURN(auto commit, CommitReplace(base, *parent, *state, sequence, list, totals));
  return RebasableReplace{std::move(commit), std::move(state)};
}

Result<PreparedCommit> PrepareReplaceFiles(const TableMetadata& base, const std::vector<std::string>& files_to_delete,
                                           const std::vector<DataFile>& files_to_add,
                                           const std::map<std::string, std::string>& summary) {
  FLOE_ASSIGN_OR_RETURN(auto replace, PrepareRebasableReplace(base, files_to_delete, files_to_add, summary));
  return std::move(replace.commit);
}

Result<std::optional<PreparedCommit>> RebaseReplaceFiles(const TableMetadata& fresh, const RebasableReplace& previous) {
  const ReplacedManifestsState* state = previous.state.get();
  const Snapshot* parent = fresh.CurrentSnapshot();
  if (!state || !parent || parent->manifest_list.empty() || fresh.format_version != 2 ||
      fresh.table_uuid != state->table_uuid || fresh.SnapshotById(state->snapshot_id)) {
    return std::optional<PreparedCommit>();
  }
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(parent->manifest_list));
  std::vector<ManifestFile> rest;
  std::size_t replaced_found = 0;
  for (auto& m : manifests) {
    if (m.content != 0) return std::optional<PreparedCommit>();  // delete files: PrepareReplaceFiles refuses them
    if (state->replaced.count(m.manifest_path)) {
      ++replaced_found;
    } else if (!state->dropped.count(m.manifest_path)) {
      rest.push_back(std::move(m));
    }
  }
  if (replaced_found != state->replaced.size()) return std::optional<PreparedCommit>();

  // The written manifests are listed as added by this commit: their sequence number is the
  // fresh one, which the added files' entries (written without one) inherit; the rewritten
  // manifests' entries carry their sequence numbers explicitly.
  const std::int64_t sequence = fresh.NextSequenceNumber();
  std::vector<ManifestFile> list = state->front;
  for (auto& m : list) {
    m.sequence_number = sequence;
    if (m.min_sequence_number == state->written_sequence) m.min_sequence_number = sequence;
  }
  for (auto& m : rest) list.push_back(std::move(m));
  // The winner's totals, with this replace's swap (the records do not change).
  std::optional<ReplaceTotals> totals;
  auto files = SummaryCount(*parent, "total-data-files");
  auto records = SummaryCount(*parent, "total-records");
  auto bytes = SummaryCount(*parent, "total-files-size");
  if (files && records && bytes) {
    totals = ReplaceTotals{*files - state->deleted.files + state->added.files, *records,
                           *bytes - state->deleted.bytes + state->added.bytes};
  }
  FLOE_ASSIGN_OR_RETURN(auto commit, CommitReplace(fresh, *parent, *state, sequence, list, totals));
  return std::optional<PreparedCommit>(std::move(commit));
}

}  // namespace floe::iceberg
