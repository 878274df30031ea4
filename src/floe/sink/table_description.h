#pragma once
// What the web console's table page shows about a configured topic's table (docs/console.md),
// read through the same catalog and Delta log code the pipeline commits with: the schemas it
// has had, its snapshots (Iceberg) or commits (Delta), its live data files by size and its
// partitions. Read-only; every call reads the table afresh.
//
// JSON shape, per format present ({"table", "topic", "iceberg": {…}, "delta": {…}}):
//   "schemas":   [{"schema-id", "fields": […] (Iceberg JSON), "since_ms"?, "version"?}], oldest first
//   "current_schema_id"
//   Iceberg: "metadata_location", "metadata_bytes" (its size, null when unreadable), "format_version"
//   "snapshots": [{"id", "timestamp_ms", "operation", "added_records", "added_files"}], oldest first
//   "files":     {"count", "bytes", "records", "size_histogram": [{"min_bytes", "max_bytes", "count"}]}
//   "partition_fields": ["day(ts)", …]
//   "partitions": [{"values": {"<field>": "<value>"|null}, "files", "records", "bytes"}] (at most 200, largest first)
#include <string>

#include <nlohmann/json.hpp>

#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::sink {

// {"tables": [{"table", "topic", "formats": ["iceberg"|"delta", …]}]}: the tables of the
// configured topics that name one (a pattern subscription without `table:` has no single table).
nlohmann::json ListConfiguredTables(const FloeConfig& config);

// `table` is "<namespace>.<name>" as listed above. kNotFound when no configured topic writes
// it (the console only shows Floe's own tables) or the table does not exist yet.
Result<nlohmann::json> DescribeTable(const FloeConfig& config, catalog::TableCatalog& catalog, const std::string& table);

}  // namespace floe::sink
