#pragma once
// Object storage at start-up, shared by `floe run` and `floe catalog serve`: hands the
// `storage:` section to storage/, probes an object-store warehouse, and decides whether Delta
// may be written there.
#include <map>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::cli {

// Configures the object stores; with `probe`, checks that the warehouse takes writes and,
// when a topic writes Delta, that it refuses a second create of one name (else refuses to
// start unless storage.delta_single_writer).
Status PrepareStorage(const FloeConfig& config, bool probe);

// LoadTable's `config` for the served REST catalog (storage::ClientReadProperties).
std::map<std::string, std::string> CatalogTableConfig(const FloeConfig& config);

}  // namespace floe::cli
