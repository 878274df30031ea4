#include "storage_setup.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "floe/storage/local_dirs.h"
#include "floe/storage/object_stores.h"
#include "floe/storage/retry_metrics.h"
#include "floe/storage/vended_credentials.h"

namespace floe::cli {
namespace {

bool WritesDelta(const FloeConfig& config) {
  return std::any_of(config.topics.begin(), config.topics.end(), [](const TopicConfig& t) {
    return std::find(t.formats.begin(), t.formats.end(), TableFormat::kDelta) != t.formats.end();
  });
}

// A store that is briefly unavailable at start should not fail it: a few tries, then give up.
Result<storage::ProbeReport> ProbeWithRetries(const std::string& warehouse) {
  for (int attempt = 1;; ++attempt) {
    auto report = storage::ProbeWarehouse(warehouse);
    if (report.ok() || report.status().code() != StatusCode::kUnavailable || attempt == 3) return report;
    spdlog::warn("{}; retrying", report.status().message());
    std::this_thread::sleep_for(std::chrono::seconds(attempt));
  }
}

}  // namespace

Status PrepareStorage(const FloeConfig& config, bool probe) {
  FLOE_RETURN_IF_ERROR(storage::ConfigureObjectStores(config.storage));
  // A local warehouse that does not exist yet is created here, before anything opens it.
  FLOE_RETURN_IF_ERROR(storage::PrepareLocalWarehouse(config.warehouse));
  if (!probe) return Status::OK();
  if (config.catalog.access_delegation == "vended-credentials" && !WritesDelta(config)) {
    // Floe's own credentials may rightly reach nothing: each table's files are written with
    // what the catalog vends for them.
    spdlog::info("warehouse {}: not probed: the catalog vends the storage credentials of each table "
                 "(catalog.access_delegation: vended-credentials)",
                 config.warehouse);
    return Status::OK();
  }
  FLOE_ASSIGN_OR_RETURN(auto report, ProbeWithRetries(config.warehouse));
  if (!report.object_store) return Status::OK();
  spdlog::info("warehouse {}: writable (region {}, credentials: {}), conditional create {}", config.warehouse,
               report.region.empty() ? "-" : report.region, report.credential_source.empty() ? "-" : report.credential_source,
               report.conditional_create ? "honoured" : "NOT honoured");
  return CheckDeltaSupport(config, report);
}

Status CheckDeltaSupport(const FloeConfig& config, const storage::ProbeReport& report) {
  if (!report.object_store || report.conditional_create || !WritesDelta(config)) return Status::OK();
  if (config.storage.delta_single_writer) {
    spdlog::warn("warehouse {}: no conditional create ({}); Delta commits are check-then-write "
                 "(storage.delta_single_writer: true): run one writer per Delta table",
                 config.warehouse, report.conditional_create_detail);
    return Status::OK();
  }
  return Status::Unsupported(
      "formats: [delta] needs a store that refuses to create an object that exists (S3/Azure If-None-Match: *, "
      "GCS ifGenerationMatch=0), and on the warehouse " + config.warehouse + " the probe found: " +
      report.conditional_create_detail + ". Two writers could both commit one Delta version and a commit would "
      "be lost. Use a store and credentials with atomic conditional writes, or set storage.delta_single_writer: true if "
      "exactly one Floe process writes each Delta table (docs/storage.md)");
}

std::map<std::string, std::string> CatalogTableConfig(const FloeConfig& config) {
  auto props = storage::ClientReadProperties(config.warehouse);
  if (!props.ok()) {
    spdlog::warn("the REST catalog hands out no storage properties: {}", props.status().message());
    return {};
  }
  return *props;
}

server::RestCatalogOptions ServedCatalogOptions(const FloeConfig& config) {
  server::RestCatalogOptions options;
  options.bearer_token = config.catalog.token;
  options.auth = config.catalog.auth;
  options.table_config = CatalogTableConfig(config);
  if (config.catalog.vend_credentials) options.vend_credentials = storage::VendReadCredentials;
  options.allowed_locations = config.catalog.allowed_locations;
  return options;
}

nlohmann::json StorageRetriesStatus() {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [store, retries] : storage::RetriesSoFar()) {
    std::uint64_t total = 0;
    for (const auto& [error, n] : retries.by_error) total += n;
    out[store] = {{"total", total},
                  {"by_error", retries.by_error},
                  {"last_error", retries.last_error},
                  {"last_message", retries.last_message},
                  {"seconds_since_last", std::chrono::duration_cast<std::chrono::seconds>(
                                             std::chrono::system_clock::now() - retries.last_at)
                                             .count()}};
  }
  return out;
}

}  // namespace floe::cli
