// The checks `floe run` makes of a loaded config before it starts anything, as one function so
// that `floe validate` refuses exactly what `floe run` would (issue 15: validate must never
// accept a config that run then refuses).
#pragma once

#include "floe/core/config.h"
#include "floe/core/status.h"

namespace floe::cli {

// Everything that can be known without a network round trip: each topic's key and value
// formats are ones floe run decodes; the built-in catalog has a database (catalog.uri, or a
// local warehouse to put catalog.db in); librdkafka accepts every kafka property; the object
// stores accept the storage settings. Reachability (Kafka, the registry, the store's permissions
// and conditional writes) is for `floe validate --check-storage` and floe run's start-up probe.
Status CheckRunConfig(const FloeConfig& config);

}  // namespace floe::cli
