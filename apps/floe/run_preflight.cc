#include "run_preflight.h"

#include "floe/kafka/consumer.h"
#include "floe/pipeline/payload_formats.h"
#include "floe/storage/object_stores.h"

namespace floe::cli {

Status CheckRunConfig(const FloeConfig& config) {
  for (const auto& t : config.topics) {
    const std::string what = t.name.empty() ? "pattern '" + t.pattern + "'" : "topic '" + t.name + "'";
    FLOE_RETURN_IF_ERROR(pipeline::CheckDecodable(t.value, pipeline::PayloadRole::kValue).WithContext(what));
    FLOE_RETURN_IF_ERROR(pipeline::CheckDecodable(t.key, pipeline::PayloadRole::kKey).WithContext(what));
  }
  if (config.catalog.type == CatalogType::kBuiltin) FLOE_RETURN_IF_ERROR(DefaultCatalogUri(config).status());
  FLOE_RETURN_IF_ERROR(kafka::Consumer::CheckOptions(
      {config.kafka.bootstrap_servers, config.kafka.group_id, config.kafka.properties, config.kafka.instance_id}));
  return storage::ConfigureObjectStores(config.storage);
}

}  // namespace floe::cli
