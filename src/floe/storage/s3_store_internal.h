#pragma once
// The shared S3 file system and what the conditional put needs beside it (the same options,
// hence the same credentials provider).
#include <arrow/filesystem/s3fs.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::storage {

struct S3Store {
  S3StorageConfig config;
  arrow::fs::S3Options options;
  std::shared_ptr<arrow::fs::S3FileSystem> fs;
};

// Sets the settings the store is built from on first use (storage.s3).
Status ConfigureS3Store(const StorageConfig& config);

// The store for s3:// URIs, built on first use from the configured settings.
Result<std::shared_ptr<const S3Store>> SharedS3Store();

// storage.s3 as configured (defaults when absent), and a store of its own for other settings
// (delegated_access.cc: a catalog's vended credentials for a prefix); `what` names it in logs.
S3StorageConfig ConfiguredS3Settings();
Result<std::shared_ptr<const S3Store>> MakeS3Store(const S3StorageConfig& config, const std::string& what);

// Drops the delegated prefixes' stores (at exit, before Arrow's S3 is finalised).
void DropDelegatedStores();

// Arrow's options for the settings: endpoint, addressing style, region, credentials
// (default chain, static keys, assume-role on top of either).
Result<arrow::fs::S3Options> MakeS3Options(const S3StorageConfig& config);

// For AWS requests Floe signs itself beside the store (the Glue catalog, aws_credentials.h):
// Arrow's S3 support initialised as for the store (once, finalised at exit), the options for
// `config`'s region and credentials, and the region the AWS SDK resolved for them.
Result<std::pair<arrow::fs::S3Options, std::string>> AwsOptionsAndRegion(const S3StorageConfig& config);

// Creates s3://<bucket_key> with `content` only if no object has that key: PUT with
// `If-None-Match: *`, signed with SigV4 by libcurl using the store's current credentials.
// 412 (and 409, a concurrent conditional write in flight) is kConflict.
Status S3PutIfAbsent(const S3Store& store, const std::string& bucket_key, const std::string& content);

// LoadTable config properties for Iceberg clients: s3.endpoint, s3.region,
// s3.path-style-access, the reader keys.
Result<std::map<std::string, std::string>> S3ClientReadProperties();

// How the credentials are obtained, for reports and logs (never the secret itself).
std::string DescribeCredentials(const S3StorageConfig& config);

}  // namespace floe::storage
