#include "floe/maintenance/targets.h"

#include <algorithm>
#include <regex>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/sink/open_sink.h"

namespace floe::maintenance {
namespace {

bool Has(const TopicConfig& t, TableFormat f) { return std::find(t.formats.begin(), t.formats.end(), f) != t.formats.end(); }

// The entry the pipeline would use for `topic` (pipeline/materializer.cc, ConfigFor).
const TopicConfig* EntryFor(const FloeConfig& config, const std::string& topic) {
  for (const auto& t : config.topics) {
    if (t.name == topic) return &t;
  }
  for (const auto& t : config.topics) {
    if (!t.pattern.empty() && std::regex_search(topic, std::regex(t.pattern))) return &t;
  }
  return nullptr;
}

// `entry` as it applies to `topic` (a pattern entry takes the concrete topic's name).
Result<MaintenanceTarget> TargetOf(const FloeConfig& config, const TopicConfig& entry, const std::string& topic) {
  TopicConfig concrete = entry;
  concrete.name = topic;
  FLOE_ASSIGN_OR_RETURN(auto id, sink::TableFor(concrete, config.defaults));
  MaintenanceTarget target;
  target.table_name = catalog::TableIdentifierToString(id);
  target.id = id;
  target.iceberg = Has(entry, TableFormat::kIceberg);
  target.delta = Has(entry, TableFormat::kDelta);
  if (target.delta && !target.iceberg) target.delta_location = catalog::DefaultTableLocation(config.warehouse, id);
  target.settings = entry.maintenance;
  target.sort_by = entry.sort_by;
  return target;
}

void AddOnce(std::vector<MaintenanceTarget>& out, Result<MaintenanceTarget> target, std::int64_t files_committed = 0) {
  if (!target.ok()) return;  // a name the config check already refused
  for (auto& t : out) {
    if (t.id == target->id) {
      t.files_committed += files_committed;
      return;
    }
  }
  target->files_committed = files_committed;
  out.push_back(std::move(*target));
}

}  // namespace

std::vector<MaintenanceTarget> TargetsFor(const FloeConfig& config, const std::vector<SeenTopic>& seen_topics) {
  std::vector<MaintenanceTarget> out;
  for (const auto& entry : config.topics) {
    if (!entry.name.empty() || !entry.table.empty()) AddOnce(out, TargetOf(config, entry, entry.name));
  }
  for (const auto& seen : seen_topics) {
    if (const TopicConfig* entry = EntryFor(config, seen.topic)) {
      AddOnce(out, TargetOf(config, *entry, seen.topic), seen.files_committed);
    }
  }
  return out;
}

Result<MaintenanceTarget> TargetNamed(const FloeConfig& config, const std::string& name) {
  if (const TopicConfig* entry = EntryFor(config, name)) return TargetOf(config, *entry, name);
  const std::string qualified = name.find('.') == std::string::npos ? config.defaults.namespace_name + "." + name : name;
  std::string known;
  for (const auto& target : TargetsFor(config)) {
    if (target.table_name == name || target.table_name == qualified) return target;
    known += (known.empty() ? "" : ", ") + target.table_name;
  }
  return Status::NotFound("'" + name + "' is neither a topic of the config's topics: nor one of its tables (" +
                          (known.empty() ? "none" : known) + ")");
}

}  // namespace floe::maintenance
