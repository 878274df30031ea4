#pragma once
// Orphan-file removal of an Iceberg table: files under the table's data/ and metadata
// directories that nothing references any more and that are old enough not to be an
// in-flight write. They come from commits that lost a race or were never made (a fenced
// zombie writer's data files, sink/fencing.h), crashes between a commit and expiry's deletes,
// and metadata.json files that fell off the metadata log.
//
// What is listed: every file under <location>/data/ and under the metadata directory
// (write.metadata.path, else <location>/metadata/), recursively, through the table's FileIO
// (local, S3, GCS, Azure). Nothing else under the location is looked at: in particular a
// Delta table's _delta_log/ sharing the location is never listed or touched (any path with a
// _delta_log component is skipped), and version-hint.text is kept.
//
// What is live (never removed), from the table metadata loaded *after* the listing (so a
// commit that landed while listing is seen):
//   - the current metadata file and every metadata-log entry;
//   - for every snapshot in the metadata (all branches, tags and unreferenced ones): its
//     manifest list, its manifests and the files those list as ADDED or EXISTING;
//   - statistics files of the metadata (statistics-path entries);
//   - options.extra_live_paths: files another format's log references (with formats
//     [iceberg, delta] the Delta log's add actions name the same data files).
// Paths are compared without scheme and authority ("file:/a", "file:///a" and "/a" are one
// file; so are "s3://bucket/a" and "s3a://bucket/a"), so a writer spelling a location
// differently can only make a file look live, never orphaned.
//
// A file is an orphan when it is not live and its modification time is older than
// now - older_than; a file whose store reports no modification time is kept. Orphans are
// deleted (dry_run: only listed). A failed delete is counted and does not stop the others.
//
// Concurrency: writers only ever add files younger than older_than (keep it well above the
// longest time between writing a file and committing it), and expiry only removes files, so
// running concurrently with ingestion, compaction and expiry is safe.
//
// Errors: kInvalidArgument for bad options; kNotFound for an unknown table; kUnsupported for
// v1 snapshots without a manifest list; kUnavailable / kIoError from the catalog or storage
// (then nothing was deleted when the failure came before the deletes).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/result.h"

namespace floe::maintenance {

struct OrphanOptions {
  // Unreferenced files younger than this are kept. At least 1 minute (in-flight writes).
  std::chrono::milliseconds older_than{24LL * 3'600'000};
  bool dry_run = false;
  // "Now" in milliseconds since the epoch (tests); nullopt: the system clock.
  std::optional<std::int64_t> now_ms;
  // More live files: absolute URIs (any spelling) or paths relative to the table location
  // ("data/x.parquet"), already URL-decoded (Delta's add.path is URL-encoded).
  std::vector<std::string> extra_live_paths;
  // Where tests crash the process on purpose (table_pass.cc arms core/fault_injection.h's
  // points through it): before each delete, with the deletes attempted so far and the orphans
  // to delete. Not in dry runs.
  std::function<void(std::size_t attempted, std::size_t total)> before_delete;
};

struct OrphanReport {
  std::size_t files_listed = 0;
  std::size_t live_files = 0;       // listed files that are live
  std::size_t young_files = 0;      // listed, not live, but younger than older_than (kept)
  std::vector<std::string> orphans;  // absolute URIs removed (dry run: to remove)
  std::int64_t orphan_bytes = 0;
  std::size_t delete_failures = 0;  // orphans that could not be deleted (still there)
  std::string first_delete_error;
};

Result<OrphanReport> RemoveOrphanFiles(catalog::TableCatalog& catalog, const catalog::TableIdentifier& id,
                                       const OrphanOptions& options = {});

// Every file the table's metadata references, as the metadata spells it: the current metadata
// file and the metadata log, statistics files, and for every snapshot its manifest list,
// manifests and live data files. What another format's cleanup must spare (with formats
// [iceberg, delta], Delta's vacuum: the data files Iceberg snapshots still read).
Result<std::vector<std::string>> IcebergReferencedFiles(catalog::TableCatalog& catalog,
                                                        const catalog::TableIdentifier& id);

}  // namespace floe::maintenance
