#pragma once
// Floe's Delta tables in AWS Glue (catalog.type glue, docs/catalog.md "Delta tables in Glue"),
// registered as Athena's CREATE EXTERNAL TABLE … TBLPROPERTIES ('table_type'='DELTA') and Glue
// crawlers' native Delta tables register them, so that Athena, EMR/Glue Spark and the Glue console
// find them by name:
//   TableType   EXTERNAL_TABLE
//   Parameters  table_type=DELTA (Athena's native Delta reader), spark.sql.sources.provider=delta
//               (Spark's data source), classification=delta (crawlers, the console), EXTERNAL=TRUE
//   StorageDescriptor  Location = the table root; Columns = the log's schema (glue_columns.h);
//               SerdeInfo.Parameters.path = the table root (where Spark looks for a data source
//               table's location). No InputFormat or SerDe library: an engine that does not read
//               Delta logs must fail rather than read every Parquet file under the root (removed
//               files included) as if it were a plain Hive table.
// No PartitionKeys: partitions live in the log, and Hive-style engines would look for Glue
// partitions that nobody registers.
//
// The database is created when missing. A registered table whose columns already match is left
// alone (no request beyond GetTable); a changed schema updates the columns with UpdateTable and
// the VersionId read. A name Glue already holds for something else (an Iceberg or Hive table, or
// a Delta table at another location) is refused with kAlreadyExists, never overwritten.
#include <string>

#include <nlohmann/json.hpp>

#include "floe/catalog/delta_table_registry.h"
#include "floe/catalog/glue_client.h"

namespace floe::catalog {

class GlueDeltaRegistry final : public DeltaTableRegistry {
 public:
  explicit GlueDeltaRegistry(GlueClient client);

  Status RegisterDeltaTable(const TableIdentifier& id, const std::string& location,
                            const std::string& schema_string) override;

 private:
  // One attempt; kConflict when a peer created or updated the table in between.
  Status RegisterOnce(const TableIdentifier& id, const std::string& location, const nlohmann::json& columns);
  Status CreateDatabase(const std::string& database);

  GlueClient client_;
};

}  // namespace floe::catalog
