// The entry points over all stores; each store keeps its own shared file system
// (s3_store.cc, azure_store.cc, gcs_store.cc).
#include "floe/storage/object_stores.h"

#include "floe/storage/azure_store_internal.h"
#include "floe/storage/gcs_store_internal.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {

Status ConfigureObjectStores(const StorageConfig& config) {
  FLOE_RETURN_IF_ERROR(ConfigureS3Store(config));
  ConfigureAzureStore(config);
  ConfigureGcsStore(config);
  return Status::OK();
}

Result<std::map<std::string, std::string>> ClientReadProperties(const std::string& warehouse) {
  if (IsAzureUri(warehouse)) {
    FLOE_ASSIGN_OR_RETURN(auto location, ParseAzureUri(warehouse));
    FLOE_ASSIGN_OR_RETURN(auto store, SharedAzureStore(location.account));
    return AzureClientReadProperties(*store);
  }
  if (IsGcsUri(warehouse)) {
    FLOE_ASSIGN_OR_RETURN(auto store, SharedGcsStore());
    return GcsClientReadProperties(*store);
  }
  if (warehouse.rfind("s3://", 0) == 0) return S3ClientReadProperties();
  return std::map<std::string, std::string>{};
}

}  // namespace floe::storage
