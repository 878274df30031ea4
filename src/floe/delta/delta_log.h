#pragma once
// The Delta Lake transaction log (_delta_log/) as a library: replaying it into a table state
// and committing new versions with put-if-absent. Floe's exactly-once progress lives in the
// log as `txn` actions (docs/architecture.md, "Exactly-once commit protocol").
// Spec: https://github.com/delta-io/delta/blob/master/PROTOCOL.md
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/delta/protocol.h"
#include "floe/schema/types.h"
#include "floe/storage/file_io.h"

namespace floe::delta {

// One data file already written (Parquet with field ids, columns under their physical names).
struct AddFile {
  std::string path;  // relative to the table root, unencoded; percent-encoded into the log
  std::map<std::string, std::optional<std::string>> partition_values;  // Delta's string form; nullopt = null
  std::int64_t size = 0;
  std::int64_t modification_time_ms = 0;
  std::string stats_json;  // see StatsJson (stats.h); empty = no stats
};

// The replayed log at one version.
struct TableState {
  std::int64_t version = -1;  // -1: no table yet
  schema::Schema schema;      // with the field ids (from column mapping metadata)
  std::vector<std::string> partition_columns;
  std::map<std::string, std::string> configuration;
  std::map<std::string, std::int64_t> txn_versions;  // appId -> version (Floe: "floe:<topic>:<partition>" -> next offset)
  std::int64_t num_files = 0;                        // live add files

  // What a commit or checkpoint needs to carry the table forward.
  Protocol protocol;
  std::string table_id;            // metaData.id
  std::string schema_string;       // metaData.schemaString as read (kept for checkpoints)
  nlohmann::json metadata_action;  // the newest metaData action, as read
  std::map<std::string, nlohmann::json> files;       // live add actions by path (as in the log)
  std::map<std::string, nlohmann::json> tombstones;  // remove actions by path
  std::map<std::string, nlohmann::json> txn_actions;  // newest txn action by appId
};

// Replays _delta_log: the newest checkpoint (from _last_checkpoint, or by listing) plus the
// later JSON commits. Reads tables written by others too (delta-rs / Spark JSON commits and
// classic Parquet checkpoints, single-file or multi-part). No _delta_log: version -1.
Result<TableState> LoadState(storage::FileIO& table_root);

struct Commit {
  std::optional<schema::Schema> schema;        // set: a metaData action (creation or evolution)
  std::vector<std::string> partition_columns;  // at creation
  // At creation: extra table configuration. Floe sets delta.columnMapping.mode itself
  // ("name" unless given here: "id" or "none"), see docs/delta.md.
  std::map<std::string, std::string> configuration;
  std::vector<AddFile> adds;
  // Live files to remove: paths as keys of TableState::files (as the log spells them). Each
  // remove action copies its add's partitionValues, size and stats (extendedFileMetadata)
  // and has deletionTimestamp = the commit time. A path not live in `base` is kConflict
  // (someone removed it since the caller planned). Floe removes a file only when its rows
  // live on in other files (compaction, a dual-format table's Delta following Iceberg's), so
  // removes carry dataChange: false and streaming readers skip them.
  std::vector<std::string> removes;
  // false: the adds only rearrange data (compaction): they carry dataChange: false too.
  bool data_change = true;
  std::map<std::string, std::int64_t> txns;  // appId -> version
  std::string operation = "WRITE";           // commitInfo.operation
  std::map<std::string, std::string> commit_info;  // more commitInfo fields (e.g. floe.skipped)
};

// Writes version base.version + 1 by put-if-absent (docs/delta.md, "Concurrency"): kConflict
// when that version exists, and the caller reloads and retries. Returns the version written.
// Version 0 also writes `protocol` and the first metaData. Every `checkpoint_interval`
// versions (0: never) a classic single-file Parquet checkpoint and _last_checkpoint follow;
// a failed checkpoint is logged, not returned (the commit stands, readers replay JSON).
Result<std::int64_t> CommitVersion(storage::FileIO& table_root, const TableState& base, const Commit& commit,
                                   int checkpoint_interval = 10);

// The actions of `commit` on `base` as JSON, in log order (commitInfo first). Exposed for
// tests and for the checkpoint writer's state computation.
Result<std::vector<nlohmann::json>> CommitActions(const TableState& base, const Commit& commit,
                                                  std::int64_t now_ms);

}  // namespace floe::delta
