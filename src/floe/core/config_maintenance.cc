// The maintenance: section, top level and per topic (docs/maintenance.md).
#include <charconv>
#include <string>

#include "floe/core/config_reader_internal.h"
#include "floe/core/units.h"

namespace floe::config_internal {
namespace {

constexpr std::chrono::milliseconds kMinInterval{1000};
// An unreferenced file younger than this may be a write whose commit has not landed yet:
// removing it would lose that commit's data. An hour is far above any commit's duration.
constexpr std::chrono::milliseconds kMinOrphanAge{3'600'000};

Result<std::int64_t> ParseCount(std::string_view text) {
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a whole number");
  }
  return n;
}

Result<double> ParseShare(std::string_view text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a number (e.g. 0.25)");
  }
  return v;
}

void ReadCompaction(ConfigReader& r, const YAML::Node& node, const std::string& path, CompactionConfig& c) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!r.ExpectMap(node, path, {"enabled", "min_files", "target_file_size"})) return;
  if (auto v = r.Choice(node, path, "enabled", kBooleans)) c.enabled = *v;
  if (auto v = r.Parsed<std::int64_t>(node, path, "min_files", ParseCount)) {
    if (*v < 2 || *v > 1'000'000) {
      r.Error(node["min_files"], path + ".min_files", "must be between 2 and 1000000 (merging one file gains nothing)");
    } else {
      c.min_files = static_cast<int>(*v);
    }
  }
  if (auto v = r.Parsed<std::int64_t>(node, path, "target_file_size", ParseByteSize)) {
    if (*v < (1 << 20)) {
      r.Error(node["target_file_size"], path + ".target_file_size", "must be at least 1MiB");
    } else {
      c.target_file_size = *v;
    }
  }
}

}  // namespace

void ReadMaintenance(ConfigReader& r, const YAML::Node& node, const std::string& path, bool top_level,
                     MaintenanceConfig& m) {
  if (!node.IsDefined() || node.IsNull()) return;
  std::vector<std::string> keys = {"enabled",       "interval",   "compaction", "snapshot_retention",
                                   "min_snapshots", "max_snapshots", "orphan_age"};
  if (top_level) keys.push_back("cpu_share");
  if (!node.IsMap()) {
    r.Error(node, path, "expected a mapping of keys to values, got " + ConfigReader::KindName(node));
    return;
  }
  if (!top_level && node["cpu_share"]) {
    r.Error(node["cpu_share"], path + ".cpu_share",
            "only in the top-level maintenance section (one maintenance thread serves every table)");
  }
  std::vector<std::string> allowed = keys;
  if (!top_level) allowed.push_back("cpu_share");  // reported above, not as an unknown key
  r.ExpectMap(node, path, allowed);

  if (auto v = r.Choice(node, path, "enabled", kBooleans)) m.enabled = *v;
  if (auto v = r.Parsed<std::chrono::milliseconds>(node, path, "interval", ParseDuration)) {
    if (*v < kMinInterval) r.Error(node["interval"], path + ".interval", "must be at least 1s");
    else m.interval = *v;
  }
  ReadCompaction(r, node["compaction"], path + ".compaction", m.compaction);
  if (auto v = r.Parsed<std::chrono::milliseconds>(node, path, "snapshot_retention", ParseDuration)) {
    if (v->count() <= 0) r.Error(node["snapshot_retention"], path + ".snapshot_retention", "must be greater than 0");
    else m.snapshot_retention = *v;
  }
  if (auto v = r.Parsed<std::int64_t>(node, path, "min_snapshots", ParseCount)) {
    if (*v < 1 || *v > 1'000'000) {
      r.Error(node["min_snapshots"], path + ".min_snapshots", "must be between 1 and 1000000 (the current snapshot is always kept)");
    } else {
      m.min_snapshots = static_cast<int>(*v);
    }
  }
  if (auto v = r.Parsed<std::int64_t>(node, path, "max_snapshots", ParseCount)) {
    if (*v < 1 || *v > 1'000'000) {
      r.Error(node["max_snapshots"], path + ".max_snapshots", "must be between 1 and 1000000");
    } else {
      m.max_snapshots = static_cast<int>(*v);
    }
  }
  if (auto v = r.Parsed<std::chrono::milliseconds>(node, path, "orphan_age", ParseDuration)) {
    if (*v < kMinOrphanAge) {
      r.Error(node["orphan_age"], path + ".orphan_age",
              "must be at least 1h: a younger unreferenced file may be a write whose commit has not landed yet");
    } else {
      m.orphan_age = *v;
    }
  }
  if (top_level) {
    if (auto v = r.Parsed<double>(node, path, "cpu_share", ParseShare)) {
      if (!(*v > 0.0 && *v <= 1.0)) r.Error(node["cpu_share"], path + ".cpu_share", "must be greater than 0 and at most 1");
      else m.cpu_share = *v;
    }
  }
}

void ResolveTopicMaintenance(ConfigReader& r, const YAML::Node& node, const std::string& path, TopicConfig& t) {
  if (t.maintenance.compaction.target_file_size == 0) t.maintenance.compaction.target_file_size = t.target_file_size;
  if (t.maintenance.min_snapshots > t.maintenance.max_snapshots) {
    r.Error(node, path + ".maintenance.max_snapshots",
            "must be at least min_snapshots (" + std::to_string(t.maintenance.min_snapshots) + "), got " +
                std::to_string(t.maintenance.max_snapshots));
  }
  // An orphan younger than two commit intervals may still be waiting for its commit.
  if (t.maintenance.enabled && t.maintenance.orphan_age < 2 * t.commit_interval) {
    r.Error(node, path + ".maintenance.orphan_age",
            "must be at least twice commit_interval: a younger unreferenced file may be a write whose commit has "
            "not landed yet");
  }
}

}  // namespace floe::config_internal
