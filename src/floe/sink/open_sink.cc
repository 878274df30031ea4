#include "floe/sink/open_sink.h"

#include <algorithm>

#include "floe/sink/delta_sink.h"
#include "floe/sink/dual_sink.h"
#include "floe/sink/iceberg_sink.h"

namespace floe::sink {
namespace {

// config_glue.cc checks names with the same suffix.
constexpr std::string_view kDeltaRegistrySuffix = "_delta";

}  // namespace

Result<catalog::TableIdentifier> TableFor(const TopicConfig& topic, const TopicDefaults& defaults) {
  if (!topic.table.empty()) return catalog::ParseTableIdentifier(topic.table);
  return catalog::TableIdentifier{catalog::NamespaceFromString(defaults.namespace_name), SanitizeTableName(topic.name)};
}

catalog::TableIdentifier DeltaRegistryName(const catalog::TableIdentifier& table, bool also_iceberg) {
  if (!also_iceberg) return table;
  return {table.ns, table.name + std::string(kDeltaRegistrySuffix)};
}

Result<std::unique_ptr<TableSink>> OpenTableSink(const FloeConfig& config, catalog::TableCatalog& catalog,
                                                 const TopicConfig& topic, catalog::DeltaTableRegistry* delta_registry) {
  FLOE_ASSIGN_OR_RETURN(auto id, TableFor(topic, config.defaults));
  const bool iceberg = std::find(topic.formats.begin(), topic.formats.end(), TableFormat::kIceberg) != topic.formats.end();
  const bool delta = std::find(topic.formats.begin(), topic.formats.end(), TableFormat::kDelta) != topic.formats.end();
  DataFileOptions files;
  files.target_file_size = topic.target_file_size;
  if (iceberg && delta) {
    auto dual = std::make_unique<DualSink>(std::make_unique<IcebergSink>(catalog, id, topic.partition_by, files, topic.sort_by),
                                           topic.partition_by, files);
    dual->RegisterDeltaIn(delta_registry, DeltaRegistryName(id, /*also_iceberg=*/true));
    return std::unique_ptr<TableSink>(std::move(dual));
  }
  if (delta) {
    FLOE_ASSIGN_OR_RETURN(auto sink, DeltaSink::Open(catalog::TableIdentifierToString(id) + " (delta)",
                                                     catalog::DefaultTableLocation(config.warehouse, id),
                                                     topic.partition_by, files));
    sink->RegisterIn(delta_registry, DeltaRegistryName(id, /*also_iceberg=*/false));
    return std::unique_ptr<TableSink>(std::move(sink));
  }
  return std::unique_ptr<TableSink>(
      std::make_unique<IcebergSink>(catalog, id, topic.partition_by, files, topic.sort_by));
}

}  // namespace floe::sink
