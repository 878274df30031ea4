#include "floe/maintenance/table_pass.h"

#include <spdlog/spdlog.h>

#include <time.h>

#include <algorithm>
#include <utility>

#include "floe/core/fault_injection.h"
#include "floe/core/percent_encoding.h"
#include "floe/delta/delta_log.h"
#include "floe/iceberg/table_scan.h"
#include "floe/maintenance/compaction.h"
#include "floe/maintenance/delta_cleanup.h"
#include "floe/maintenance/delta_compaction.h"
#include "floe/maintenance/dual_compaction.h"
#include "floe/maintenance/expire_snapshots.h"
#include "floe/maintenance/merge_manifests.h"
#include "floe/maintenance/orphan_files.h"
#include "floe/sink/delta_catch_up.h"
#include "floe/storage/file_io.h"

namespace floe::maintenance {
namespace {

using Clock = std::chrono::steady_clock;

void Count(TableShape& shape, std::int64_t size, std::int64_t target) {
  ++shape.data_files;
  shape.data_bytes += size;
  if (size < target) ++shape.small_files;
}

// Where the "during deletes" fault points fire: after half of the deletes (at least one), so
// some files are gone and some are left, as when the process dies in the middle.
// Before the delete that follows half of them (rounded down): at least one file is left, also
// when there is only one.
bool IsMidway(std::size_t attempted, std::size_t total) { return attempted == total / 2; }

std::chrono::nanoseconds ThreadCpuTime() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return {};
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

class Pass {
 public:
  Pass(catalog::TableCatalog& catalog, const MaintenanceTarget& target, const PassOptions& options,
       TablePassReport& report)
      : catalog_(catalog), target_(target), settings_(target.settings), options_(options), report_(report) {}

  void Run() {
    if (!Step("inspect", [&] { return Open(); }) || !exists_) return;
    report_.before = shape_;
    if (settings_.compaction.enabled) {
      Step("compaction", [&] { return Compact(); });
    } else {
      report_.notes.push_back("compaction is disabled");
    }
    if (options_.light) {
      // A tenth over the bound before a light pass expires: each expiry reads the kept
      // snapshots' manifest lists, and at 1 s commits expiring every few seconds would read
      // hundreds of them each time; this way one expiry in ~max_snapshots/10 commits does.
      const std::size_t bound = static_cast<std::size_t>(settings_.max_snapshots) +
                                std::max<std::size_t>(1, static_cast<std::size_t>(settings_.max_snapshots) / 10);
      const bool over = target_.iceberg && shape_.snapshots && *shape_.snapshots + (report_.compacted ? 1 : 0) > bound;
      if (over) Step("snapshot expiry", [&] { return Expire(); });
      if (!report_.compacted && report_.snapshots_expired == 0) report_.after = shape_;
      else if (Step("inspect", [&] { return Inspect(); })) report_.after = shape_;
      return;
    }
    if (target_.iceberg) {
      Step("manifest merge", [&] { return MergeManifestsStep(); });
      Step("snapshot expiry", [&] { return Expire(); });
      Step("orphan removal", [&] { return RemoveOrphans(); });
    }
    if (target_.delta) {
      Step("delta log", [&] { return CleanUpLog(); });
      if (!target_.iceberg) Step("vacuum", [&] { return Vacuum(); });
    }
    if (!options_.dry_run && Step("inspect", [&] { return Inspect(); })) report_.after = shape_;
  }

 private:
  // Runs `step` unless stopping; its error goes into the report. False when it did not run or failed.
  template <typename F>
  bool Step(const char* name, F&& step) {
    if (report_.stopped || (options_.stop_requested && options_.stop_requested())) {
      report_.stopped = true;
      return false;
    }
    const auto started = Clock::now();
    const auto cpu_started = ThreadCpuTime();
    Status st = step();
    if (options_.after_step) options_.after_step({Clock::now() - started, ThreadCpuTime() - cpu_started});
    if (st.ok()) return true;
    report_.errors.push_back({name, st.ToString()});
    return false;
  }

  // Where the table is: the Iceberg table's location holds both formats' files; a Delta-only
  // table is at its default location. A table that does not exist yet is left alone.
  Status Open() {
    std::string delta_location = target_.delta_location;
    if (target_.iceberg) {
      auto table = catalog_.LoadTable(target_.id);
      if (table.status().code() == StatusCode::kNotFound) {
        report_.notes.push_back("the table does not exist yet");
        return Status::OK();
      }
      FLOE_RETURN_IF_ERROR(table.status());
      delta_location = table->metadata.location;
    }
    if (target_.delta) {
      FLOE_ASSIGN_OR_RETURN(auto io, storage::FileIO::Open(delta_location));
      delta_root_.emplace(std::move(io));
    }
    FLOE_RETURN_IF_ERROR(Inspect());
    return Status::OK();
  }

  // The data files now: the Iceberg table's (with both formats Delta mirrors them), else Delta's.
  Status Inspect() {
    const std::int64_t target = settings_.compaction.target_file_size;
    TableShape shape;
    if (target_.iceberg) {
      auto table = catalog_.LoadTable(target_.id);
      if (table.status().code() == StatusCode::kNotFound) return Status::OK();
      FLOE_RETURN_IF_ERROR(table.status());
      FLOE_ASSIGN_OR_RETURN(auto live, iceberg::LiveDataFiles(table->metadata));
      for (const auto& f : live) Count(shape, f.file_size_in_bytes, target);
      shape.snapshots = table->metadata.snapshots.size();
      // What every commit rewrites and every query reads first (docs/maintenance.md). A commit
      // since the load may have deleted that file (it fell off the metadata-log): then the
      // current one's.
      auto size = storage::FileSizeAt(table->metadata_location);
      if (!size.ok()) {
        if (auto again = catalog_.LoadTable(target_.id); again.ok()) size = storage::FileSizeAt(again->metadata_location);
      }
      if (size.ok()) shape.metadata_bytes = *size;
    } else {
      FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(*delta_root_));
      if (state.version < 0) {
        report_.notes.push_back("the table does not exist yet");
        return Status::OK();
      }
      for (const auto& [path, add] : state.files) Count(shape, add.value("size", std::int64_t{0}), target);
    }
    shape.manifests = shape_.manifests;
    shape_ = shape;
    exists_ = true;
    return Status::OK();
  }

  CompactionOptions CompactionSettings() const {
    CompactionOptions o;
    o.target_file_size = settings_.compaction.target_file_size;
    o.dry_run = options_.dry_run;
    o.sort_by = target_.sort_by;
    o.before_first_commit = [] {
      CrashIfArmed(kFaultCrashBeforeCompactionCommit);
      return Status::OK();
    };
    return o;
  }

  Status Compact() {
    if (shape_.small_files < static_cast<std::size_t>(settings_.compaction.min_files)) {
      report_.notes.push_back("compaction: " + std::to_string(shape_.small_files) + " small files, fewer than min_files " +
                              std::to_string(settings_.compaction.min_files));
      if (target_.iceberg && target_.delta && !options_.dry_run) return Mirror();
      return Status::OK();
    }
    const CompactionOptions o = CompactionSettings();
    std::size_t given_up = 0;
    if (target_.iceberg && target_.delta) {
      FLOE_ASSIGN_OR_RETURN(auto r, CompactDualTable(catalog_, target_.id, o));
      Record(r.iceberg.rewritten_files, r.iceberg.added_files, r.iceberg.bytes_rewritten, r.iceberg.attempts);
      given_up = r.iceberg.partitions_given_up;
      const sink::DeltaMirrorReport& mirror = r.iceberg.attempts > 0 ? r.delta : r.delta_before;
      if (!options_.dry_run) NoteMirror(mirror);
    } else if (target_.iceberg) {
      FLOE_ASSIGN_OR_RETURN(auto r, CompactTable(catalog_, target_.id, o));
      Record(r.rewritten_files, r.added_files, r.bytes_rewritten, r.attempts);
      given_up = r.partitions_given_up;
    } else {
      FLOE_ASSIGN_OR_RETURN(auto r, CompactDeltaTable(*delta_root_, o));
      Record(r.rewritten_files, r.added_files, r.bytes_rewritten, r.attempts);
      given_up = r.partitions_given_up;
    }
    if (given_up > 0) {
      report_.notes.push_back("compaction: " + std::to_string(given_up) +
                              " partition(s) given up: another commit removed some of their files");
    }
    if (report_.compacted) CrashIfArmed(kFaultCrashAfterCompactionCommit);
    return Status::OK();
  }

  void Record(std::size_t rewritten, std::size_t added, std::int64_t bytes, int attempts) {
    report_.files_rewritten = rewritten;
    report_.files_added = added;
    report_.bytes_rewritten = bytes;
    report_.compacted = !options_.dry_run && attempts > 0;
  }

  // Both formats: Delta's files level with Iceberg's (idempotent), which expiry waits for.
  Status Mirror() {
    FLOE_ASSIGN_OR_RETURN(auto mirror, sink::MirrorIcebergFiles(catalog_, target_.id, *delta_root_));
    NoteMirror(mirror);
    return Status::OK();
  }

  void NoteMirror(const sink::DeltaMirrorReport& mirror) {
    delta_level_ = mirror.mirrored;
    if (!mirror.mirrored) report_.notes.push_back("delta: not level with iceberg yet (" + mirror.skipped_because + ")");
  }

  Status MergeManifestsStep() {
    ManifestMergeOptions o;
    o.dry_run = options_.dry_run;
    FLOE_ASSIGN_OR_RETURN(auto r, MergeManifests(catalog_, target_.id, o));
    report_.manifests_replaced = r.manifests_replaced;
    report_.manifests_created = r.manifests_created;
    shape_.manifests = r.manifests_after;
    if (report_.before) report_.before->manifests = r.manifests_before;
    return Status::OK();
  }

  Status Expire() {
    // With both formats, expiry deletes data files Iceberg's kept snapshots no longer have;
    // Delta must not have them live any more (delta_level_ comes from this pass's mirror).
    if (target_.delta && !options_.dry_run && !delta_level_) {
      report_.notes.push_back("snapshot expiry: waits until Delta's files are level with Iceberg's");
      return Status::OK();
    }
    ExpiryOptions o;
    o.retention = settings_.snapshot_retention;
    o.min_snapshots = settings_.min_snapshots;
    o.max_snapshots = settings_.max_snapshots;
    o.dry_run = options_.dry_run;
    o.after_commit = [] { CrashIfArmed(kFaultCrashAfterExpiryCommit); };
    o.before_delete = [](std::size_t attempted, std::size_t total) {
      if (IsMidway(attempted, total)) CrashIfArmed(kFaultCrashDuringExpiryDeletes);
    };
    FLOE_ASSIGN_OR_RETURN(auto r, ExpireSnapshots(catalog_, target_.id, o));
    report_.snapshots_expired = r.expired_snapshot_ids.size();
    report_.expired_files_deleted = r.deleted.data_files + r.deleted.manifests + r.deleted.manifest_lists;
    report_.expired_bytes_deleted = r.deleted.bytes;
    if (r.delete_failures > 0) {
      report_.notes.push_back("snapshot expiry: " + std::to_string(r.delete_failures) +
                              " file(s) could not be deleted (left for orphan removal): " + r.first_delete_error);
    }
    return Status::OK();
  }

  Status RemoveOrphans() {
    OrphanOptions o;
    o.older_than = settings_.orphan_age;
    o.dry_run = options_.dry_run;
    o.before_delete = [](std::size_t attempted, std::size_t total) {
      if (IsMidway(attempted, total)) CrashIfArmed(kFaultCrashDuringOrphanRemoval);
    };
    if (target_.delta) {
      // The Delta log's files are live too: its adds, and its removes until vacuum or
      // Iceberg's expiry deletes them (older Delta versions still read them).
      FLOE_ASSIGN_OR_RETURN(auto state, delta::LoadState(*delta_root_));
      for (const auto* actions : {&state.files, &state.tombstones}) {
        for (const auto& [path, action] : *actions) {
          FLOE_ASSIGN_OR_RETURN(auto decoded, PercentDecode(path));
          o.extra_live_paths.push_back(std::move(decoded));
        }
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto r, RemoveOrphanFiles(catalog_, target_.id, o));
    report_.orphans_removed = r.orphans.size() - r.delete_failures;
    if (options_.dry_run) report_.orphans_removed = r.orphans.size();
    report_.orphan_bytes = r.orphan_bytes;
    // The first few by name (a zombie's files are the usual ones), the rest counted.
    constexpr std::size_t kNamed = 5;
    for (std::size_t i = 0; i < r.orphans.size() && i < kNamed; ++i) {
      spdlog::info("maintenance {}: orphan file {}{}", target_.table_name, r.orphans[i],
                   options_.dry_run ? " (dry run: kept)" : " removed");
    }
    if (r.orphans.size() > kNamed) {
      spdlog::info("maintenance {}: {} more orphan files{}", target_.table_name, r.orphans.size() - kNamed,
                   options_.dry_run ? " (dry run: kept)" : " removed");
    }
    if (r.delete_failures > 0) {
      report_.notes.push_back("orphan removal: " + std::to_string(r.delete_failures) +
                              " file(s) could not be deleted: " + r.first_delete_error);
    }
    return Status::OK();
  }

  DeltaCleanupOptions CleanupSettings() const {
    DeltaCleanupOptions o;
    o.retention_ms = settings_.snapshot_retention.count();
    o.max_versions = std::max(settings_.max_snapshots, settings_.min_snapshots);
    o.dry_run = options_.dry_run;
    return o;
  }

  Status CleanUpLog() {
    FLOE_ASSIGN_OR_RETURN(auto r, CleanUpDeltaLog(*delta_root_, CleanupSettings()));
    report_.delta_log_files_deleted = r.deleted.size();
    return Status::OK();
  }

  Status Vacuum() {
    FLOE_ASSIGN_OR_RETURN(auto r, VacuumDelta(*delta_root_, CleanupSettings()));
    report_.vacuumed_files = r.deleted.size();
    report_.vacuumed_bytes = r.bytes;
    return Status::OK();
  }

  catalog::TableCatalog& catalog_;
  const MaintenanceTarget& target_;
  const MaintenanceConfig& settings_;
  const PassOptions& options_;
  TablePassReport& report_;
  std::optional<storage::FileIO> delta_root_;
  TableShape shape_;
  bool exists_ = false;
  bool delta_level_ = false;
};

nlohmann::json ShapeJson(const std::optional<TableShape>& s) {
  if (!s) return nullptr;
  nlohmann::json j = {{"data_files", s->data_files}, {"small_files", s->small_files}, {"data_bytes", s->data_bytes}};
  j["snapshots"] = s->snapshots ? nlohmann::json(*s->snapshots) : nlohmann::json(nullptr);
  j["metadata_bytes"] = s->metadata_bytes ? nlohmann::json(*s->metadata_bytes) : nlohmann::json(nullptr);
  j["manifests"] = s->manifests ? nlohmann::json(*s->manifests) : nlohmann::json(nullptr);
  return j;
}

}  // namespace

nlohmann::json TablePassReport::ToJson() const {
  nlohmann::json errors_json = nlohmann::json::array();
  for (const auto& e : errors) errors_json.push_back({{"step", e.step}, {"message", e.message}});
  return {{"table", table},
          {"dry_run", dry_run},
          {"stopped", stopped},
          {"before", ShapeJson(before)},
          {"after", ShapeJson(after)},
          {"compaction", {{"committed", compacted}, {"files_rewritten", files_rewritten}, {"files_added", files_added},
                          {"bytes_rewritten", bytes_rewritten}}},
          {"manifests", {{"replaced", manifests_replaced}, {"created", manifests_created}}},
          {"expiry", {{"snapshots_expired", snapshots_expired}, {"files_deleted", expired_files_deleted},
                      {"bytes_deleted", expired_bytes_deleted}}},
          {"orphans", {{"removed", orphans_removed}, {"bytes", orphan_bytes}}},
          {"delta", {{"log_files_deleted", delta_log_files_deleted}, {"vacuumed_files", vacuumed_files},
                     {"vacuumed_bytes", vacuumed_bytes}}},
          {"notes", notes},
          {"errors", std::move(errors_json)}};
}

TablePassReport RunTablePass(catalog::TableCatalog& catalog, const MaintenanceTarget& target,
                             const PassOptions& options) {
  TablePassReport report;
  report.table = target.table_name;
  report.dry_run = options.dry_run;
  Pass(catalog, target, options, report).Run();
  return report;
}

}  // namespace floe::maintenance
