#include "floe/delta/log_cleanup.h"

#include <arrow/filesystem/filesystem.h>

#include <chrono>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <map>

#include "floe/core/arrow_interop.h"
#include "floe/delta/log_store_internal.h"

namespace floe::delta {
namespace {

std::optional<std::int64_t> LeadingVersion(const std::string& name) {
  if (name.size() < 21 || name[20] != '.') return std::nullopt;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(name.data(), name.data() + 20, v);
  if (ec != std::errc() || p != name.data() + 20) return std::nullopt;
  return v;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

Result<ExpiredLog> ExpiredLogFiles(storage::FileIO& io, std::int64_t cutoff_ms,
                                   std::optional<std::int64_t> max_versions) {
  ExpiredLog out;
  FLOE_ASSIGN_OR_RETURN(auto listing, ListLog(io));
  if (!listing.exists) return out;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto dir, io.filesystem()->PathFromUri(io.Uri(kLogDir)));
  arrow::fs::FileSelector selector;
  selector.base_dir = dir;
  FLOE_ASSIGN_OR_RETURN_ARROW(auto infos, io.filesystem()->GetFileInfo(selector));
  // Per version: its commit file's time, and every file named after it that cleanup deletes.
  std::map<std::int64_t, std::int64_t> commit_time_ms;
  std::map<std::int64_t, std::vector<std::string>> files_of;
  for (const auto& info : infos) {
    if (info.type() != arrow::fs::FileType::File) continue;
    const std::string name = info.base_name();
    const auto version = LeadingVersion(name);
    if (!version) continue;
    const std::string rest = name.substr(20);
    const bool commit = rest == ".json";
    // Classic checkpoints, single or multi-part (complete or not), and checksums. Compacted
    // logs (NNN.MMM.compacted.json) and v2 checkpoints are not written by Floe and are left.
    const bool checkpoint = rest.rfind(".checkpoint.", 0) == 0 && EndsWith(rest, ".parquet") &&
                            rest.find('-') == std::string::npos;
    if (!commit && !checkpoint && rest != ".crc") continue;
    files_of[*version].push_back(std::string(kLogDir) + "/" + name);
    if (commit) {
      const auto mtime = info.mtime();
      commit_time_ms[*version] =
          mtime == arrow::fs::kNoTime
              ? INT64_MAX
              : std::chrono::duration_cast<std::chrono::milliseconds>(mtime.time_since_epoch()).count();
    }
  }
  std::optional<std::int64_t> cutoff_commit;
  for (const auto& [version, time] : commit_time_ms) {
    if (time <= cutoff_ms) cutoff_commit = version;
  }
  if (max_versions && *max_versions >= 1 && !commit_time_ms.empty()) {
    const std::int64_t by_count = commit_time_ms.rbegin()->first - (*max_versions - 1);
    auto it = commit_time_ms.upper_bound(by_count);  // the newest commit at or before by_count
    if (it != commit_time_ms.begin() && (!cutoff_commit || std::prev(it)->first > *cutoff_commit)) {
      cutoff_commit = std::prev(it)->first;
    }
  }
  if (!listing.commits.empty()) out.oldest_version_kept = listing.commits.front();
  if (!listing.checkpoints.empty() && (listing.commits.empty() || listing.checkpoints.front().first < out.oldest_version_kept)) {
    out.oldest_version_kept = listing.checkpoints.front().first;
  }
  if (!cutoff_commit) return out;
  for (const auto& [version, _] : listing.checkpoints) {
    if (version <= *cutoff_commit) out.cutoff_checkpoint = version;
  }
  if (!out.cutoff_checkpoint) return out;
  for (const auto& [version, files] : files_of) {
    if (version >= *out.cutoff_checkpoint) break;
    out.files.insert(out.files.end(), files.begin(), files.end());
  }
  out.oldest_version_kept = *out.cutoff_checkpoint;
  return out;
}

}  // namespace floe::delta
