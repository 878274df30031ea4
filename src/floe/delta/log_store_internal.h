#pragma once
// The files of _delta_log/: their names, listing them, reading them, and creating a commit
// file only if it does not exist yet (the one atomic step Delta's concurrency rests on).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/storage/file_io.h"

namespace floe::delta {

inline constexpr const char* kLogDir = "_delta_log";

std::string CommitFileName(std::int64_t version);      // _delta_log/00000000000000000007.json
std::string CheckpointFileName(std::int64_t version);  // _delta_log/…07.checkpoint.parquet
inline constexpr const char* kLastCheckpoint = "_delta_log/_last_checkpoint";

struct LogListing {
  std::vector<std::int64_t> commits;  // versions with a JSON commit, ascending
  // Complete classic checkpoints: version -> their files (one, or every part of a multi-part one).
  std::vector<std::pair<std::int64_t, std::vector<std::string>>> checkpoints;  // ascending
  bool exists = false;  // _delta_log/ is there
};

Result<LogListing> ListLog(storage::FileIO& io);
// The file's bytes; kNotFound when it does not exist.
Result<std::string> ReadText(storage::FileIO& io, const std::string& relative);
// Creates `relative` with `content` unless it exists (then kConflict). Local file systems:
// written under a temporary name, then link(2)ed to the final name, which fails if the name
// exists — atomic, never overwriting; S3: a conditional PUT (storage::FileIO::PutIfAbsent).
// Stores without one: check-then-write (docs/storage.md).
Status PutIfAbsent(storage::FileIO& io, const std::string& relative, const std::string& content);
// Creates or replaces (checkpoints, _last_checkpoint: rewriting them is harmless).
Status PutReplace(storage::FileIO& io, const std::string& relative, const std::string& content);

}  // namespace floe::delta
