#pragma once
// Which tables maintenance looks after, and with which settings: one MaintenanceTarget per
// table a topic entry of floe.yaml writes (docs/maintenance.md). Pattern entries without a
// `table:` name a table per matching topic, so `floe run` adds those as it meets the topics.
#include <string>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::maintenance {

struct MaintenanceTarget {
  std::string table_name;  // "<namespace>.<table>": in messages, /status, metrics
  catalog::TableIdentifier id;
  bool iceberg = false;  // the table is in the catalog (formats has iceberg)
  bool delta = false;    // a Delta log: at the Iceberg table's location, or delta_location
  std::string delta_location;  // formats [delta] alone: <warehouse>/<namespace…>/<table>
  MaintenanceConfig settings;  // the topic's (top-level section with its overrides)
  std::vector<std::string> sort_by;  // the topic's: Delta compaction sorts by it (Iceberg: the table's order)
  // Data files `floe run` has committed to the table since it started (the pipeline's count,
  // SeenTopic): the scheduler compacts between passes once min_files more were committed.
  std::int64_t files_committed = 0;
};

// A topic a running process reads, and the data files it has committed to its table so far.
struct SeenTopic {
  std::string topic;
  std::int64_t files_committed = 0;
};

// The tables of the config's topic entries: named topics, pattern entries with a `table:`,
// and, for pattern entries without one, each of `seen_topics` (topics a running process
// reads) they match, as the pipeline matches them (an exact name first, then the first
// pattern). One target per table, in config order, with the files committed of the seen
// topics that write it; entries with maintenance disabled are kept (the scheduler skips them,
// `floe maintain` says so).
std::vector<MaintenanceTarget> TargetsFor(const FloeConfig& config, const std::vector<SeenTopic>& seen_topics = {});

// `floe maintain --table NAME`: NAME is a topic (matched like the pipeline matches it) or a
// table ("<namespace>.<table>", or a bare name in defaults.namespace) of a topic entry.
// kNotFound names what was looked for and the tables there are.
Result<MaintenanceTarget> TargetNamed(const FloeConfig& config, const std::string& name);

}  // namespace floe::maintenance
