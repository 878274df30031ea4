#include "floe/maintenance/delta_cleanup.h"

#include <arrow/filesystem/filesystem.h>

#include <algorithm>
#include <chrono>

#include "floe/core/arrow_interop.h"
#include "floe/delta/delta_log.h"
#include "floe/delta/file_references.h"
#include "floe/delta/log_cleanup.h"
#include "floe/delta/table_properties.h"

namespace floe::maintenance {
namespace {

constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;

std::int64_t Now(const DeltaCleanupOptions& options) {
  if (options.now_ms) return *options.now_ms;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<std::int64_t> RetentionMs(const delta::TableState& state, const DeltaCleanupOptions& options,
                                 const char* key, std::chrono::milliseconds fallback) {
  if (options.retention_ms) {
    if (*options.retention_ms < 0) return Status::InvalidArgument(std::string(key) + " override must not be negative");
    return *options.retention_ms;
  }
  FLOE_ASSIGN_OR_RETURN(auto window, delta::RetentionProperty(state.configuration, key, fallback));
  return static_cast<std::int64_t>(window.count());
}

// Deletes one file; one that is gone already counts as deleted (a cleanup interrupted midway
// runs again).
Status DeleteIfPresent(const std::shared_ptr<arrow::fs::FileSystem>& fs, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN_ARROW(auto info, fs->GetFileInfo(path));
  if (info.type() == arrow::fs::FileType::NotFound) return Status::OK();
  FLOE_RETURN_IF_ARROW_ERROR(fs->DeleteFile(path));
  return Status::OK();
}

Result<LogCleanupReport> CleanUpLog(storage::FileIO& io, const DeltaCleanupOptions& options) {
  LogCleanupReport report;
  FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io));
  if (state.version < 0) return report;
  FLOE_ASSIGN_OR_RETURN(auto window, RetentionMs(state, options, delta::kLogRetentionKey, delta::kDefaultLogRetention));
  // PROTOCOL.md: the cutoff is midnight UTC of the day the window starts, so a whole day of
  // versions goes at once and a version is never deleted earlier than the window says.
  const std::int64_t start = Now(options) - window;
  const std::int64_t cutoff = start >= 0 ? start / kDayMs * kDayMs : start;
  FLOE_ASSIGN_OR_RETURN(auto expired, delta::ExpiredLogFiles(io, cutoff, options.max_versions));
  report.cutoff_checkpoint = expired.cutoff_checkpoint;
  report.oldest_version_kept = expired.oldest_version_kept;
  for (const auto& relative : expired.files) {
    if (!options.dry_run) {
      FLOE_ASSIGN_OR_RETURN_ARROW(auto path, io.filesystem()->PathFromUri(io.Uri(relative)));
      FLOE_RETURN_IF_ERROR(DeleteIfPresent(io.filesystem(), path));
    }
    report.deleted.push_back(relative);
  }
  return report;
}

Result<VacuumReport> Vacuum(storage::FileIO& io, const DeltaCleanupOptions& options) {
  VacuumReport report;
  FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(io));
  report.version = state.version;
  if (state.version < 0) return report;
  FLOE_ASSIGN_OR_RETURN(auto window, RetentionMs(state, options, delta::kDeletedFileRetentionKey,
                                                 delta::kDefaultDeletedFileRetention));
  // Never longer than the table's own window: checkpoints drop tombstones a day after it
  // (delta/table_properties.h, TombstoneExpiry), and a file whose tombstone is gone would
  // never be vacuumed.
  FLOE_ASSIGN_OR_RETURN(auto table_window, delta::RetentionProperty(state.configuration, delta::kDeletedFileRetentionKey,
                                                                    delta::kDefaultDeletedFileRetention));
  window = std::min<std::int64_t>(window, table_window.count());
  const std::int64_t cutoff = Now(options) - window;
  FLOE_ASSIGN_OR_RETURN(auto references, delta::ReferencedFiles(io, state));
  std::map<std::string, std::int64_t> size_of;  // URI -> the tombstone's size
  for (const auto& [path, remove] : state.tombstones) {
    FLOE_ASSIGN_OR_RETURN(auto uri, delta::DataFileUri(io, path));
    size_of[uri] = remove.value("size", std::int64_t{0});
  }
  for (const auto& [uri, deleted_at] : references.removed) {
    // A tombstone without a time may be of any age: keep its file.
    if (deleted_at <= 0 || deleted_at >= cutoff) {
      ++report.kept_tombstones;
      continue;
    }
    if (!options.dry_run) {
      std::string path;
      FLOE_ASSIGN_OR_RETURN(auto fs, storage::FileSystemForUri(uri, &path));
      FLOE_RETURN_IF_ERROR(DeleteIfPresent(fs, path).WithContext("vacuum deleting " + uri));
    }
    report.deleted.push_back(uri);
    report.bytes += size_of[uri];
  }
  return report;
}

}  // namespace

Result<LogCleanupReport> CleanUpDeltaLog(storage::FileIO& table_root, const DeltaCleanupOptions& options) {
  auto report = CleanUpLog(table_root, options);
  if (!report.ok()) return report.status().WithContext("cleaning up the Delta log at " + table_root.Uri(""));
  return report;
}

Result<VacuumReport> VacuumDelta(storage::FileIO& table_root, const DeltaCleanupOptions& options) {
  auto report = Vacuum(table_root, options);
  if (!report.ok()) return report.status().WithContext("vacuuming the Delta table at " + table_root.Uri(""));
  return report;
}

}  // namespace floe::maintenance
