#include "floe/catalog/delta_table_registry.h"

#include "floe/catalog/glue_delta_registry.h"
#include "floe/catalog/unity_delta_registry.h"

namespace floe::catalog {

Result<std::unique_ptr<DeltaTableRegistry>> OpenDeltaTableRegistry(const FloeConfig& config) {
  if (config.catalog.type == CatalogType::kUnity) {
    return std::unique_ptr<DeltaTableRegistry>(std::make_unique<UnityDeltaRegistry>(
        std::make_unique<UnityClient>(config.catalog.uri, config.catalog.token), config.catalog.unity_catalog,
        config.storage.azure ? config.storage.azure->account : ""));
  }
  if (config.catalog.type == CatalogType::kGlue) {
    FLOE_ASSIGN_OR_RETURN(auto client, OpenGlueClient(config.catalog.glue));
    return std::unique_ptr<DeltaTableRegistry>(std::make_unique<GlueDeltaRegistry>(std::move(client)));
  }
  return std::unique_ptr<DeltaTableRegistry>();
}

}  // namespace floe::catalog
