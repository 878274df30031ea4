#pragma once
// Named points where tests make Floe fail on purpose, to prove that recovery works from
// exactly that instant (e.g. a crash between the Iceberg and the Delta commit of one flush).
// A point is armed through the environment, FLOE_FAULT_POINTS=<name>[,<name>…], read once;
// the product never arms one itself. Every point is listed here and in docs/development.md.
#include <string_view>

namespace floe {

// After the Iceberg commit of a dual-format flush, before the Delta one (sink/dual_sink.cc).
inline constexpr std::string_view kFaultCrashBetweenFormatCommits = "crash-between-format-commits";
// Maintenance (maintenance/table_pass.cc): after compaction wrote its merged files, before
// the replace commit is sent; and right after a compaction committed (both formats: after
// Iceberg's replace and Delta's mirror), before the pass goes on.
inline constexpr std::string_view kFaultCrashBeforeCompactionCommit = "crash-before-compaction-commit";
inline constexpr std::string_view kFaultCrashAfterCompactionCommit = "crash-after-compaction-commit";
// Snapshot expiry (maintenance/table_pass.cc): right after the expire commit landed, before
// any file is deleted; and midway through deleting the expired snapshots' files (before the
// delete that follows half of them, rounded down: at least one is left). Orphan removal:
// midway through deleting the orphans (likewise).
inline constexpr std::string_view kFaultCrashAfterExpiryCommit = "crash-after-expiry-commit";
inline constexpr std::string_view kFaultCrashDuringExpiryDeletes = "crash-during-expiry-deletes";
inline constexpr std::string_view kFaultCrashDuringOrphanRemoval = "crash-during-orphan-removal";

bool FaultPointArmed(std::string_view point);

// At an armed point: ends the process at once with exit code 137, no cleanup, like kill -9.
void CrashIfArmed(std::string_view point);

}  // namespace floe
