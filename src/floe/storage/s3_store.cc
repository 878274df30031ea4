#include <arrow/filesystem/s3fs.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <mutex>

#include "floe/core/arrow_interop.h"
#include "floe/storage/object_stores.h"
#include "floe/storage/retry_metrics.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

constexpr int kS3MaxAttempts = 8;  // tries per request, with the SDK's exponential backoff and jitter

struct S3Registry {
  std::mutex mutex;
  StorageConfig config;
  std::shared_ptr<const S3Store> s3;  // built on first use
  bool initialized = false;           // arrow::fs::InitializeS3 ran
};

S3Registry& TheS3Registry() {
  // Never destroyed: the at-exit finalizer below may run after static destructors would.
  static auto* registry = new S3Registry();
  return *registry;
}

// Arrow requires FinalizeS3 before the process ends (else the AWS SDK crashes or leaks at
// exit); the store is dropped first so no S3 client outlives the SDK.
void FinalizeAtExit() {
  S3Registry& r = TheS3Registry();
  std::lock_guard lock(r.mutex);
  r.s3.reset();
  DropDelegatedStores();
  if (r.initialized) (void)arrow::fs::EnsureS3Finalized();
}

// FinalizeAtExit is registered once, after Arrow built its first S3 client (SharedS3Store).
std::once_flag g_finalizer_registered;

Status InitializeOnce(S3Registry& r) {
  if (r.initialized) return Status::OK();
  auto options = arrow::fs::S3GlobalOptions::Defaults();
  FLOE_RETURN_IF_ARROW_ERROR(arrow::fs::InitializeS3(options));
  r.initialized = true;
  return Status::OK();
}

// The AWS SDK reads AWS_REQUEST_CHECKSUM_CALCULATION when it builds a client; arrow::fs has no
// option for it. An explicit storage.s3.request_checksums wins over the environment; `auto`
// keeps what the environment says, else asks for checksums only where required when the store
// is not AWS: S3-compatible stores often refuse the SDK's CRC trailers (S3Proxy answers 400).
// Set while configuring, before any S3 client exists.
void ApplyRequestChecksums(const S3StorageConfig& c) {
  constexpr const char* kVariable = "AWS_REQUEST_CHECKSUM_CALCULATION";
  const char* value = nullptr;
  if (c.request_checksums == S3RequestChecksums::kWhenSupported) value = "WHEN_SUPPORTED";
  if (c.request_checksums == S3RequestChecksums::kWhenRequired) value = "WHEN_REQUIRED";
  if (c.request_checksums == S3RequestChecksums::kAuto) {
    if (std::getenv(kVariable) != nullptr || c.endpoint.empty()) return;
    value = "WHEN_REQUIRED";
  }
  ::setenv(kVariable, value, /*overwrite=*/1);
}

std::string DescribeChecksums() {
  const char* v = std::getenv("AWS_REQUEST_CHECKSUM_CALCULATION");
  return v == nullptr ? "when supported" : std::string(v) == "WHEN_REQUIRED" ? "when required" : "when supported";
}

}  // namespace

Result<arrow::fs::S3Options> MakeS3Options(const S3StorageConfig& config) {
  arrow::fs::S3Options o = arrow::fs::S3Options::Defaults();
  o.region = config.region;
  // The SDK's standard backoff, with more tries than its default 3 so that a short SlowDown
  // storm or store restart is absorbed inside one request; each retry is counted for /metrics.
  o.retry_strategy = CountingS3RetryStrategy(kS3MaxAttempts);
  if (!config.endpoint.empty()) {
    std::string endpoint = config.endpoint;
    const auto scheme_end = endpoint.find("://");
    o.scheme = endpoint.substr(0, scheme_end);
    endpoint = endpoint.substr(scheme_end + 3);
    while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
    if (endpoint.find('/') != std::string::npos) {
      return Status::InvalidArgument("storage.s3.endpoint: give scheme://host[:port] without a path");
    }
    o.endpoint_override = endpoint;
    // Arrow addresses buckets by path whenever an endpoint is set, unless forced virtual.
    o.force_virtual_addressing = !config.path_style;
  }
  if (config.credentials == S3CredentialsKind::kStatic) {
    o.ConfigureAccessKey(config.access_key_id, config.secret_access_key, config.session_token);
  }
  if (!config.role_arn.empty()) {
    // The AWS SDK's assume-role provider: STS called with the default chain's credentials,
    // the temporary credentials refreshed before they expire.
    o.ConfigureAssumeRoleCredentials(config.role_arn, "floe", config.external_id);
  }
  return o;
}

std::string DescribeCredentials(const S3StorageConfig& config) {
  std::string out = config.credentials == S3CredentialsKind::kStatic ? "static keys" : "AWS default chain";
  if (!config.role_arn.empty()) out += ", then the assumed role " + config.role_arn;
  return out;
}

Status ConfigureS3Store(const StorageConfig& config) {
  S3Registry& r = TheS3Registry();
  std::lock_guard lock(r.mutex);
  r.config = config;
  r.s3.reset();
  if (config.s3) ApplyRequestChecksums(*config.s3);
  return Status::OK();
}

namespace {

// Builds a store for `config`; the registry's mutex is held.
Result<std::shared_ptr<const S3Store>> BuildStore(S3Registry& r, const S3StorageConfig& config,
                                                  const std::string& what) {
  FLOE_RETURN_IF_ERROR(InitializeOnce(r));
  auto store = std::make_shared<S3Store>();
  store->config = config;
  FLOE_ASSIGN_OR_RETURN(store->options, MakeS3Options(store->config));
  auto fs = arrow::fs::S3FileSystem::Make(store->options);
  if (!fs.ok()) return FromArrow(fs.status()).WithContext("opening the S3 store (" + what + ")");
  store->fs = *fs;
  // Registered only now, after Arrow built its first S3 client: exit handlers run in reverse
  // order, and Arrow's client finalizer (a static created with that first client) must still
  // exist when FinalizeS3 runs, or it is destroyed twice.
  std::call_once(g_finalizer_registered, [] { std::atexit(FinalizeAtExit); });
  spdlog::info("S3 store ({}): region {}, endpoint {}, {} addressing, credentials: {}, upload checksums {}", what,
               store->fs->region(), store->config.endpoint.empty() ? "AWS" : store->config.endpoint,
               store->config.path_style ? "path-style" : "virtual-hosted", DescribeCredentials(store->config),
               DescribeChecksums());
  return std::shared_ptr<const S3Store>(std::move(store));
}

}  // namespace

Result<std::shared_ptr<const S3Store>> SharedS3Store() {
  S3Registry& r = TheS3Registry();
  std::lock_guard lock(r.mutex);
  if (r.s3) return r.s3;
  FLOE_ASSIGN_OR_RETURN(r.s3, BuildStore(r, r.config.s3.value_or(S3StorageConfig{}), "storage.s3"));
  return r.s3;
}

S3StorageConfig ConfiguredS3Settings() {
  S3Registry& r = TheS3Registry();
  std::lock_guard lock(r.mutex);
  return r.config.s3.value_or(S3StorageConfig{});
}

Result<std::shared_ptr<const S3Store>> MakeS3Store(const S3StorageConfig& config, const std::string& what) {
  S3Registry& r = TheS3Registry();
  std::lock_guard lock(r.mutex);
  return BuildStore(r, config, what);
}

Result<std::pair<arrow::fs::S3Options, std::string>> AwsOptionsAndRegion(const S3StorageConfig& config) {
  S3Registry& r = TheS3Registry();
  std::lock_guard lock(r.mutex);
  FLOE_RETURN_IF_ERROR(InitializeOnce(r));
  FLOE_ASSIGN_OR_RETURN(auto options, MakeS3Options(config));
  // A client only to learn the region the SDK resolves (AWS_REGION, profile, IMDS) when none is
  // configured; building it sends no request.
  auto fs = arrow::fs::S3FileSystem::Make(options);
  if (!fs.ok()) return FromArrow(fs.status()).WithContext("AWS client settings");
  std::call_once(g_finalizer_registered, [] { std::atexit(FinalizeAtExit); });  // as in SharedS3Store
  return std::make_pair(std::move(options), (*fs)->region());
}

Result<std::map<std::string, std::string>> S3ClientReadProperties() {
  std::map<std::string, std::string> out;
  FLOE_ASSIGN_OR_RETURN(auto store, SharedS3Store());
  const auto& c = store->config;
  if (!c.endpoint.empty()) out["s3.endpoint"] = c.endpoint;
  out["s3.region"] = store->fs->region();  // resolved, so engines need no chain of their own for it
  out["client.region"] = out["s3.region"];  // the same, for Java S3FileIO (Spark, Trino): it reads client.region
  out["s3.path-style-access"] = c.path_style ? "true" : "false";
  // Only keys configured for readers: Floe's own (write) credentials never leave the process.
  if (!c.reader_access_key_id.empty()) {
    out["s3.access-key-id"] = c.reader_access_key_id;
    out["s3.secret-access-key"] = c.reader_secret_access_key;
  }
  return out;
}

}  // namespace floe::storage
