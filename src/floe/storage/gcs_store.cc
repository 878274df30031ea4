#include <spdlog/spdlog.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include "floe/core/arrow_interop.h"
#include "floe/storage/gcs_store_internal.h"

namespace floe::storage {
namespace {

struct GcsRegistry {
  std::mutex mutex;
  std::optional<GcsStorageConfig> config;
  std::shared_ptr<const GcsStore> store;  // built on first use
};

GcsRegistry& TheGcsRegistry() {
  static auto* registry = new GcsRegistry();  // never destroyed: stores may be used during exit
  return *registry;
}

}  // namespace

bool IsGcsUri(const std::string& uri) { return uri.rfind("gs://", 0) == 0; }

std::string GcsPath(const std::string& uri) {
  std::string path = uri.substr(5);
  const auto query = path.find('?');
  if (query != std::string::npos) path.resize(query);
  return path;
}

Result<arrow::fs::GcsOptions> MakeGcsOptions(const GcsStorageConfig& c) {
  arrow::fs::GcsOptions o;
  switch (c.credentials) {
    case GcsCredentialsKind::kAnonymous: o = arrow::fs::GcsOptions::Anonymous(); break;
    case GcsCredentialsKind::kServiceAccountFile: {
      std::ifstream in(c.service_account_file);
      if (!in) return Status::IoError("storage.gcs.service_account_file: cannot read " + c.service_account_file);
      std::stringstream json;
      json << in.rdbuf();
      o = arrow::fs::GcsOptions::FromServiceAccountCredentials(json.str());
      break;
    }
    case GcsCredentialsKind::kDefault: o = arrow::fs::GcsOptions::Defaults(); break;
  }
  if (!c.endpoint.empty()) {
    const auto scheme_end = c.endpoint.find("://");
    o.scheme = c.endpoint.substr(0, scheme_end);
    o.endpoint_override = c.endpoint.substr(scheme_end + 3);
    while (!o.endpoint_override.empty() && o.endpoint_override.back() == '/') o.endpoint_override.pop_back();
    if (o.endpoint_override.find('/') != std::string::npos) {
      return Status::InvalidArgument("storage.gcs.endpoint: give scheme://host[:port] without a path");
    }
  }
  if (!c.project_id.empty()) o.project_id = c.project_id;
  // A store that is down is retried for a few minutes, not Arrow's default quarter of an hour:
  // the pipeline's own retries take over after that.
  o.retry_limit_seconds = 120;
  return o;
}

std::string DescribeGcsCredentials(const GcsStorageConfig& c) {
  switch (c.credentials) {
    case GcsCredentialsKind::kAnonymous: return "anonymous";
    case GcsCredentialsKind::kServiceAccountFile: return "service account key " + c.service_account_file;
    case GcsCredentialsKind::kDefault: break;
  }
  return "Google application default credentials";
}

void ConfigureGcsStore(const StorageConfig& config) {
  GcsRegistry& r = TheGcsRegistry();
  std::lock_guard lock(r.mutex);
  r.config = config.gcs;
  r.store.reset();
}

Result<std::shared_ptr<const GcsStore>> SharedGcsStore() {
  GcsRegistry& r = TheGcsRegistry();
  std::lock_guard lock(r.mutex);
  if (r.store) return r.store;
  auto store = std::make_shared<GcsStore>();
  store->config = r.config.value_or(GcsStorageConfig{});
  FLOE_ASSIGN_OR_RETURN(store->options, MakeGcsOptions(store->config));
  auto fs = arrow::fs::GcsFileSystem::Make(store->options);
  if (!fs.ok()) return FromArrow(fs.status()).WithContext("opening the GCS store (storage.gcs)");
  store->fs = *fs;
  if (store->config.credentials != GcsCredentialsKind::kAnonymous) {
    store->tokens = std::make_shared<TokenCache>(GcsTokenFetch(store->config));
  }
  spdlog::info("GCS store: endpoint {}, credentials: {}",
               store->config.endpoint.empty() ? "Google" : store->config.endpoint, DescribeGcsCredentials(store->config));
  r.store = store;
  return r.store;
}

std::map<std::string, std::string> GcsClientReadProperties(const GcsStore& store) {
  std::map<std::string, std::string> out;
  const auto& c = store.config;
  if (!c.endpoint.empty()) out["gcs.service.host"] = c.endpoint;
  if (!c.project_id.empty()) out["gcs.project-id"] = c.project_id;
  return out;
}

}  // namespace floe::storage
