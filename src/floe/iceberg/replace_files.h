#pragma once
// Replace files (Iceberg's RewriteFiles, snapshot operation "replace"): what compaction
// commits. Some live data files are swapped for others holding the same rows, so the table's
// content does not change; readers of older snapshots (time travel) still see the old files.
//
// The new snapshot's manifest list has, in order:
//   - one new manifest per partition spec of `files_to_add`: the new files, status ADDED;
//   - the manifests that listed a removed file, rewritten as one manifest per partition spec:
//     the removed files with status DELETED and this snapshot's id, the other live files
//     EXISTING with their original snapshot ids and sequence numbers (entries already DELETED
//     are dropped). One, not one per manifest: a compaction under 1 s commits takes files from
//     as many manifests as commits, and the table's manifest count must shrink with its files;
//   - every other manifest of the parent that still has live files, unchanged.
// The summary carries added-/deleted-data-files, -records, added-files-size,
// removed-files-size, exact totals, and the parent's floe.offsets unchanged: the pipeline
// reads its committed offsets from the current snapshot, which a compaction must not lose.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/iceberg/data_file.h"
#include "floe/iceberg/fast_append.h"
#include "floe/iceberg/table_metadata.h"

namespace floe::iceberg {

// `files_to_delete`: paths (exactly as the manifests have them) of files that must be live
// in `base`'s current snapshot — kConflict otherwise (another commit already removed them:
// re-plan). `files_to_add`: partition tuples follow the spec `spec_id` names (compaction
// keeps the spec and tuple of the files it merges). The records removed must equal the
// records added (kInvalidArgument otherwise: a rewrite must not change data). Tables with
// delete files are kUnsupported (see table_scan.h). `summary` adds snapshot summary entries.
//
// Writes the manifests and the manifest list under <location>/metadata/ and returns the
// commit: requirements assert-table-uuid and assert-ref-snapshot-id(main = base's current
// snapshot); updates add-snapshot and set-snapshot-ref main. On kConflict from the catalog,
// call again with fresh metadata.
Result<PreparedCommit> PrepareReplaceFiles(const TableMetadata& base, const std::vector<std::string>& files_to_delete,
                                           const std::vector<DataFile>& files_to_add,
                                           const std::map<std::string, std::string>& summary = {});

struct ReplacedManifestsState;  // replace_files.cc

// A prepared replace that can be rebased after a lost race (RebaseReplaceFiles).
struct RebasableReplace {
  PreparedCommit commit;
  std::shared_ptr<const ReplacedManifestsState> state;  // what the replace wrote
};

// PrepareReplaceFiles, keeping what it wrote for RebaseReplaceFiles.
Result<RebasableReplace> PrepareRebasableReplace(const TableMetadata& base, const std::vector<std::string>& files_to_delete,
                                                 const std::vector<DataFile>& files_to_add,
                                                 const std::map<std::string, std::string>& summary = {});

// The same replace on fresh metadata after the catalog said kConflict (another writer's commit
// won), without reading or rewriting any manifest: a streaming writer's fast appends only add
// manifests in front of the list, so while fresh's current snapshot still lists every manifest
// the replace rewrote (manifests are immutable: same path, same entries, so the files to delete
// are still live), the new manifest list is fresh's list with those manifests swapped for the
// rewritten ones and the new files' manifest in front; the winner's manifests stay as they are.
// One manifest list is read and one written, so a compaction keeps up with 1 s ingestion commits
// however many manifests the table has. Same snapshot id (the written manifests name it), fresh
// sequence number, fresh's floe.offsets (the winner's: a replace never moves them) and totals
// derived from fresh's. nullopt when the rebase is not possible — a rewritten manifest is gone
// (a compaction or manifest merge ran meanwhile), the table was replaced (uuid), it gained delete
// files or the snapshot id got taken: call PrepareReplaceFiles again on the fresh metadata.
Result<std::optional<PreparedCommit>> RebaseReplaceFiles(const TableMetadata& fresh, const RebasableReplace& previous);

}  // namespace floe::iceberg
