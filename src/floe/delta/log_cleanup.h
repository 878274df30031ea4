#pragma once
// Which _delta_log files a metadata cleanup may delete (PROTOCOL.md, "Metadata Cleanup"),
// given the cutoff time: the log mechanics of maintenance/delta_cleanup.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"
#include "floe/storage/file_io.h"

namespace floe::delta {

struct ExpiredLog {
  // The newest complete checkpoint at or before the newest commit not newer than the cutoff;
  // nullopt when there is none (then nothing may be deleted).
  std::optional<std::int64_t> cutoff_checkpoint;
  // Commit, checkpoint (every part) and .crc files of versions before cutoff_checkpoint,
  // table-relative, ascending by version (the order to delete them in: no gap opens).
  std::vector<std::string> files;
  std::int64_t oldest_version_kept = -1;  // the oldest version readable after deleting `files`
};

// `cutoff_ms`: ms since the epoch; commit times are the commit files' modification times.
// A commit file whose store reports no modification time counts as new (kept). With
// `max_versions`, the cutoff commit is at least the newest version less max_versions - 1:
// the count bounds the log whatever the commit rate.
Result<ExpiredLog> ExpiredLogFiles(storage::FileIO& table_root, std::int64_t cutoff_ms,
                                   std::optional<std::int64_t> max_versions = std::nullopt);

}  // namespace floe::delta
