#include "floe/iceberg/fast_append.h"

#include "floe/core/uuid.h"
#include "floe/iceberg/manifest_internal.h"
#include "floe/iceberg/snapshot_commit_internal.h"
#include "floe/storage/file_io.h"

namespace floe::iceberg {
namespace {

// The parent's count, 0 without a parent or when it is missing or malformed (a foreign
// writer's): counting restarts rather than failing the commit.
std::int64_t ParentCount(const Snapshot* parent, std::string_view key) {
  return parent ? SummaryCount(*parent, key).value_or(0) : 0;
}

}  // namespace

Result<PreparedCommit> PrepareFastAppend(const TableMetadata& base, const AppendFiles& append) {
  const schema::Schema* schema = base.CurrentSchema();
  const schema::PartitionSpec* spec = base.DefaultSpec();
  if (!schema || !spec) return Status::InvalidArgument("table metadata has no current schema or default spec");
  FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(base.location));
  PreparedCommit commit;
  commit.snapshot_id = NewSnapshotId(base);
  const std::int64_t sequence = base.NextSequenceNumber();
  const Snapshot* parent = base.CurrentSnapshot();
  const std::string tag = floe::NewUuid();

  std::vector<ManifestFile> manifests;
  std::int64_t added_records = 0;
  std::int64_t added_bytes = 0;
  if (!append.files.empty()) {
    std::vector<ManifestEntry> entries;
    for (const auto& f : append.files) {
      ManifestEntry e;
      e.status = EntryStatus::kAdded;
      e.snapshot_id = commit.snapshot_id;  // sequence numbers stay null: inherited from the list
      e.data_file = f;
      e.data_file.spec_id = spec->spec_id;
      added_records += f.record_count;
      added_bytes += f.file_size_in_bytes;
      entries.push_back(std::move(e));
    }
    ManifestContext context{schema, spec, base.format_version};
    FLOE_ASSIGN_OR_RETURN(auto manifest, WriteManifest(io, "metadata/" + tag + "-m0.avro", context, commit.snapshot_id,
                                                       sequence, entries));
    manifests.push_back(std::move(manifest));
  }
  if (parent) {
    if (parent->manifest_list.empty()) {
      return Status::Unsupported("the current snapshot uses v1 inline manifests; rewrite the table with a newer writer");
    }
    FLOE_ASSIGN_OR_RETURN(auto existing, ReadManifestList(parent->manifest_list));
    for (auto& m : existing) manifests.push_back(std::move(m));
  }
  FLOE_ASSIGN_OR_RETURN(auto snapshot, WriteChildSnapshot(base, parent, commit.snapshot_id, sequence, "append",
                                                          manifests));
  auto& s = snapshot.summary;
  s["added-data-files"] = std::to_string(append.files.size());
  s["added-records"] = std::to_string(added_records);
  s["added-files-size"] = std::to_string(added_bytes);
  s["total-data-files"] = std::to_string(ParentCount(parent, "total-data-files") +
                                         static_cast<std::int64_t>(append.files.size()));
  s["total-records"] = std::to_string(ParentCount(parent, "total-records") + added_records);
  s["total-files-size"] = std::to_string(ParentCount(parent, "total-files-size") + added_bytes);
  s["total-delete-files"] = std::to_string(ParentCount(parent, "total-delete-files"));
  s["total-position-deletes"] = std::to_string(ParentCount(parent, "total-position-deletes"));
  s["total-equality-deletes"] = std::to_string(ParentCount(parent, "total-equality-deletes"));
  for (const auto& [k, v] : append.summary) s[k] = v;

  return CommitOnMain(base, snapshot);
}

}  // namespace floe::iceberg
