#include "floe/iceberg/replace_files.h"

#include <set>
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

struct Totals {
  std::int64_t files = 0;
  std::int64_t records = 0;
  std::int64_t bytes = 0;
  void Add(const DataFile& f) {
    ++files;
    records += f.record_count;
    bytes += f.file_size_in_bytes;
  }
};

}  // namespace

Result<PreparedCommit> PrepareReplaceFiles(const TableMetadata& base, const std::vector<std::string>& files_to_delete,
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

  PreparedCommit commit;
  commit.snapshot_id = NewSnapshotId(base);
  const std::int64_t sequence = base.NextSequenceNumber();
  const std::string tag = floe::NewUuid();
  int manifest_index = 0;
  auto next_manifest_path = [&]() { return "metadata/" + tag + "-m" + std::to_string(manifest_index++) + ".avro"; };

  Totals deleted, added, after;
  std::set<std::string> found;
  std::set<std::string> live_paths;  // live after this commit (before the added files)
  std::set<std::pair<int, std::vector<PartitionValue>>> changed_partitions;
  std::vector<ManifestFile> rewritten, carried;
  for (auto& [manifest, entries] : manifests) {
    bool live = false, touched = false;
    for (const auto& e : entries) {
      if (!IsLive(e)) continue;
      live = true;
      if (to_delete.count(e.data_file.file_path)) touched = true;
    }
    if (!live) continue;  // only deletes of earlier snapshots: nothing a reader of this one needs
    if (!touched) {
      for (const auto& e : entries) {
        if (!IsLive(e)) continue;
        after.Add(e.data_file);
        live_paths.insert(e.data_file.file_path);
      }
      carried.push_back(std::move(manifest));
      continue;
    }
    std::vector<ManifestEntry> out;
    for (auto& e : entries) {
      if (!IsLive(e)) continue;
      const std::string& path = e.data_file.file_path;
      if (to_delete.count(path)) {
        if (!found.insert(path).second) {
          return Status::InvalidArgument("snapshot " + std::to_string(parent->snapshot_id) + " lists " + path +
                                         " as live twice");
        }
        e.status = EntryStatus::kDeleted;
        e.snapshot_id = commit.snapshot_id;  // sequence numbers stay those of the file
        deleted.Add(e.data_file);
        changed_partitions.emplace(e.data_file.spec_id, e.data_file.partition);
      } else {
        e.status = EntryStatus::kExisting;  // snapshot id and sequence numbers as they were
        after.Add(e.data_file);
        live_paths.insert(path);
      }
      out.push_back(std::move(e));
    }
    const schema::PartitionSpec* spec = base.SpecById(manifest.partition_spec_id);
    ManifestContext context{SchemaForSpec(base, *spec), spec, base.format_version};
    FLOE_ASSIGN_OR_RETURN(auto written, WriteManifest(io, next_manifest_path(), context, commit.snapshot_id, sequence, out));
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
    e.snapshot_id = commit.snapshot_id;  // sequence numbers stay null: inherited from the list
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
  std::vector<ManifestFile> list;
  for (const auto& [spec_id, entries] : added_by_spec) {
    const schema::PartitionSpec* spec = base.SpecById(spec_id);
    const schema::Schema* spec_schema = SchemaForSpec(base, *spec);
    if (!spec_schema) {
      return Status::InvalidArgument("replace files: no schema of the table has the source columns of partition spec " +
                                     std::to_string(spec_id));
    }
    ManifestContext context{spec_schema, spec, base.format_version};
    FLOE_ASSIGN_OR_RETURN(auto written, WriteManifest(io, next_manifest_path(), context, commit.snapshot_id, sequence,
                                                      entries));
    list.push_back(std::move(written));
  }
  for (auto& m : rewritten) list.push_back(std::move(m));
  for (auto& m : carried) list.push_back(std::move(m));
  const std::string list_path = "metadata/snap-" + std::to_string(commit.snapshot_id) + "-1-" + tag + ".avro";
  FLOE_RETURN_IF_ERROR(WriteManifestList(io, list_path, commit.snapshot_id, parent->snapshot_id, sequence, list));

  Snapshot snapshot;
  snapshot.snapshot_id = commit.snapshot_id;
  snapshot.parent_snapshot_id = parent->snapshot_id;
  snapshot.sequence_number = sequence;
  snapshot.timestamp_ms = NowMillis();
  snapshot.manifest_list = io.Uri(list_path);
  snapshot.schema_id = schema->schema_id;
  auto& s = snapshot.summary;
  s[std::string(kSummaryOperation)] = "replace";
  s["added-data-files"] = std::to_string(added.files);
  s["added-records"] = std::to_string(added.records);
  s["added-files-size"] = std::to_string(added.bytes);
  s["deleted-data-files"] = std::to_string(deleted.files);
  s["deleted-records"] = std::to_string(deleted.records);
  s["removed-files-size"] = std::to_string(deleted.bytes);
  s["changed-partition-count"] = std::to_string(changed_partitions.size());
  // Exact: every manifest of the parent was read (the table has no delete files).
  s["total-data-files"] = std::to_string(after.files + added.files);
  s["total-records"] = std::to_string(after.records + added.records);
  s["total-files-size"] = std::to_string(after.bytes + added.bytes);
  s["total-delete-files"] = "0";
  s["total-position-deletes"] = "0";
  s["total-equality-deletes"] = "0";
  if (auto offsets = parent->SummaryValue(kSummaryFloeOffsets)) s[std::string(kSummaryFloeOffsets)] = std::string(*offsets);
  for (const auto& [k, v] : summary) s.emplace(k, v);  // never overrides the entries above

  return CommitOnMain(base, snapshot);
}

}  // namespace floe::iceberg
