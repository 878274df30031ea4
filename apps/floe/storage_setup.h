#pragma once
// Storage at start-up, shared by `floe run`, `floe catalog serve`, `floe maintain` and
// `floe validate --check-storage`: hands the `storage:` section to storage/, creates a local
// warehouse's folder, probes an object-store warehouse, and decides whether Delta may be
// written there.
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/server/rest_catalog_service.h"
#include "floe/storage/object_stores.h"

namespace floe::cli {

// Configures the object stores and creates a local warehouse's folder (or refuses, naming it:
// storage::PrepareLocalWarehouse); with `probe`, checks that the warehouse takes writes and,
// when a topic writes Delta, that it refuses a second create of one name (else refuses to
// start unless storage.delta_single_writer).
Status PrepareStorage(const FloeConfig& config, bool probe);

// Delta's part of that check, on a probe's report: kUnsupported when a topic writes Delta to a
// store that accepted a second create of one name, unless storage.delta_single_writer.
Status CheckDeltaSupport(const FloeConfig& config, const storage::ProbeReport& report);

// LoadTable's `config` for the served REST catalog (storage::ClientReadProperties).
std::map<std::string, std::string> CatalogTableConfig(const FloeConfig& config);

// The served REST catalog's options: its token, the storage properties above and, with
// catalog.vend_credentials, per-table read credentials (storage/vended_credentials.h).
server::RestCatalogOptions ServedCatalogOptions(const FloeConfig& config);

// /status's "storage_retries": per store, the object-store requests retried so far by error
// code, and the latest (error, message, seconds ago): a struggling store shows before commits fail.
nlohmann::json StorageRetriesStatus();

}  // namespace floe::cli
