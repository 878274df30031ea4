#pragma once
// catalog.type glue: the pointer store of catalog.h kept in the AWS Glue Data Catalog, with
// tables registered exactly as Iceberg's own GlueCatalog (Java) and pyiceberg's GlueCatalog
// register them, so Athena, EMR, Spark and pyiceberg find Floe's tables there:
//   namespace  = a Glue database (one level: Glue has no nested databases); its properties are
//                the database's Parameters, plus "location" (LocationUri) and "comment"
//                (Description) as Iceberg maps them
//   table      = a Glue table, TableType EXTERNAL_TABLE, Parameters table_type=ICEBERG,
//                metadata_location, previous_metadata_location; StorageDescriptor.Location the
//                table location and StorageDescriptor.Columns the column list (glue_columns.h),
//                both from the metadata the new location names (SwapRequest::metadata,
//                CreateTableWithMetadata), so the columns change in the same UpdateTable as the
//                pointer; Description the table property "comment" when set. Without metadata
//                (a bare CreateTable/SwapMetadataLocation) the location is the metadata file's
//                directory's parent and the columns are left as they are.
// The swap is GetTable, a check of Parameters.metadata_location against `expected`, then
// UpdateTable with the VersionId that was read: Glue refuses it with
// ConcurrentModificationException when another writer updated the table in between, so two
// writers that started from one metadata file cannot both win (kConflict, the caller retries).
// Glue has no multi-table transaction: SwapMetadataLocations swaps one table after the other.
// Names follow Iceberg's GlueCatalog rules: databases [a-z0-9_]{1,252}, tables [a-z0-9_]{1,255}
// (Glue stores names lower-cased; Floe refuses upper case instead of silently folding it).
// Listings follow NextToken to the last page. Not yet: RenameTable (Glue has none; Iceberg
// emulates it by create + delete).
#include <memory>

#include "floe/catalog/catalog.h"
#include "floe/catalog/glue_client.h"
#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::catalog {

// Over `client` (tests pass one with a fake transport).
std::unique_ptr<Catalog> MakeGlueCatalog(GlueClient client);

// Over OpenGlueClient(config) (glue_client.h).
Result<std::unique_ptr<Catalog>> OpenGlueCatalog(const GlueCatalogConfig& config);

// The naming rules above; messages name the rule.
Status ValidateGlueNamespace(const Namespace& ns);
Status ValidateGlueTableIdentifier(const TableIdentifier& id);

// Where a table lives, from its metadata file: <location>/metadata/<file> -> <location>;
// "" when the file is not in a metadata/ directory.
std::string TableLocationOfMetadata(const std::string& metadata_location);

}  // namespace floe::catalog
