#pragma once
// Floe's Delta tables in Unity Catalog (catalog.type unity, docs/catalog.md): each table is an
// EXTERNAL table, data_source_format DELTA, at the table's location, in
// <catalog.unity_catalog>.<namespace>.<table>; the catalog and schema are created when missing.
// Unity's open-source API has no column update, so a schema change re-registers the table
// (DELETE then POST of an external table: Unity never touches the files of an external table),
// carrying the table's grants over (read before, granted again after).
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "floe/catalog/delta_table_registry.h"
#include "floe/catalog/unity_client.h"

namespace floe::catalog {

class UnityDeltaRegistry final : public DeltaTableRegistry {
 public:
  // azure_account: storage.azure.account, for az:// locations (empty without Azure).
  UnityDeltaRegistry(std::unique_ptr<UnityClient> client, std::string unity_catalog, std::string azure_account = "");

  Status RegisterDeltaTable(const TableIdentifier& id, const std::string& location,
                            const std::string& schema_string) override;

 private:
  Status EnsureSchema(const std::string& schema);

  std::unique_ptr<UnityClient> client_;
  std::string catalog_;
  std::string azure_account_;
  std::mutex mu_;
  std::set<std::string> schemas_ready_;  // catalog and schema known to exist
};

// Unity's storage_location for a table location: local absolute paths become file:// URIs,
// s3a:// s3://, az://container/path abfss://container@<account>.dfs.core.windows.net/path.
std::string UnityStorageLocation(const std::string& location, const std::string& azure_account = "");

}  // namespace floe::catalog
