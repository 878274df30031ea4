#pragma once
// The shared Google Cloud Storage file system and what the conditional put needs beside it.
#include <arrow/filesystem/gcsfs.h>

#include <map>
#include <memory>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/storage/oauth_token.h"

namespace floe::storage {

bool IsGcsUri(const std::string& uri);
// gs://bucket/path -> bucket/path, the path GcsFileSystem takes.
std::string GcsPath(const std::string& uri);

struct GcsStore {
  GcsStorageConfig config;
  arrow::fs::GcsOptions options;
  std::shared_ptr<arrow::fs::GcsFileSystem> fs;
  // Bearer tokens for the conditional upload (none with anonymous credentials).
  std::shared_ptr<TokenCache> tokens;
};

// How GcsPutIfAbsent gets a token for the configured credentials (gcs_access_token.cc).
TokenCache::Fetch GcsTokenFetch(const GcsStorageConfig& config);

// Sets the settings the store is built from on first use (storage.gcs; none: Google's
// default credentials).
void ConfigureGcsStore(const StorageConfig& config);
// The store for gs:// URIs, built on first use.
Result<std::shared_ptr<const GcsStore>> SharedGcsStore();

// Arrow's options for the settings: endpoint, credentials (reading the service account key).
Result<arrow::fs::GcsOptions> MakeGcsOptions(const GcsStorageConfig& config);

// Creates <bucket>/<object> (`bucket_object`) with `content` only if no object has that name:
// a JSON API media upload with `ifGenerationMatch=0` (412 -> kConflict), authorized with a
// bearer token of the store's credentials (Arrow keeps its own tokens to itself).
Status GcsPutIfAbsent(const GcsStore& store, const std::string& bucket_object, const std::string& content);

// How the credentials are obtained, for reports and logs (never the secret itself).
std::string DescribeGcsCredentials(const GcsStorageConfig& config);

// LoadTable config properties for Iceberg clients: gcs.service.host, gcs.project-id.
std::map<std::string, std::string> GcsClientReadProperties(const GcsStore& store);

}  // namespace floe::storage
