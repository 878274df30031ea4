#pragma once
// Where engines look Floe's Delta tables up by name: an external catalog (AWS Glue, Unity
// Catalog) that registers a Delta table as an external table over its location. The Delta log
// stays the truth (offsets, files, schema); the registry only mirrors name, location and
// columns, so that Athena, Databricks, Spark or DuckDB find the table without a manual step.
// The Delta sink calls it after the commit that created the table and after every commit that
// changed its schema.
#include <memory>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::catalog {

class DeltaTableRegistry {
 public:
  virtual ~DeltaTableRegistry() = default;

  // Makes `id` name the Delta table at `location` whose columns are those of `schema_string`
  // (the Delta log's metaData.schemaString). Idempotent: registering the same table twice
  // changes nothing; a different schema updates the columns. A name already registered for
  // another location is refused (kAlreadyExists), never overwritten. kUnavailable: try later.
  virtual Status RegisterDeltaTable(const TableIdentifier& id, const std::string& location,
                                    const std::string& schema_string) = 0;
};

// The registry catalog.type asks for: Unity Catalog for `unity`, AWS Glue for `glue`
// (glue_delta_registry.h); nullptr where the catalog keeps no Delta tables (builtin, rest: Delta
// tables are found by their location).
Result<std::unique_ptr<DeltaTableRegistry>> OpenDeltaTableRegistry(const FloeConfig& config);

}  // namespace floe::catalog
