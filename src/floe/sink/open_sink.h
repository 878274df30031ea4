#pragma once
// The sink a topic's `formats:` asks for: [iceberg] (the default) through the configured
// catalog, [delta] at <warehouse>/<namespace…>/<table>, or [iceberg, delta] over one copy of
// the files. The only place outside sink/ that learns which formats exist is the config.
#include <memory>

#include "floe/catalog/delta_table_registry.h"
#include "floe/catalog/iceberg_catalog.h"
#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/sink/table_sink.h"

namespace floe::sink {

// The table a topic goes to: `table:` when set, else <defaults.namespace>.<sanitized topic name>.
Result<catalog::TableIdentifier> TableFor(const TopicConfig& topic, const TopicDefaults& defaults);

// The name a topic's Delta table is registered under in an external catalog
// (DeltaTableRegistry): the table's own name, or, when the topic also writes Iceberg (whose
// table holds that name in the same catalog), the name + "_delta" ("lake.orders" ->
// "lake.orders_delta"). Both tables then describe the one copy of the files.
catalog::TableIdentifier DeltaRegistryName(const catalog::TableIdentifier& table, bool also_iceberg);

// `topic.name` is the concrete topic (also for pattern subscriptions). `delta_registry`
// (nullable): where Delta tables are registered by name (catalog.type glue/unity).
Result<std::unique_ptr<TableSink>> OpenTableSink(const FloeConfig& config, catalog::TableCatalog& catalog,
                                                 const TopicConfig& topic,
                                                 catalog::DeltaTableRegistry* delta_registry = nullptr);

}  // namespace floe::sink
