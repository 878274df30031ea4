#pragma once
// The process's object-store settings (floe.yaml's `storage:` section). One file system per
// store serves every URI of that store (s3_store.cc, azure_store.cc, gcs_store.cc): creating one is not
// free (with role_arn it costs an STS call), Arrow's S3 support is process-wide anyway
// (InitializeS3/FinalizeS3), and the table code deep inside iceberg/ and delta/ opens files
// by URI alone.
#include <map>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::storage {

// Sets the settings of every store used from now on (replacing the file systems built from
// earlier ones). Without a call, s3:// URIs use Arrow's defaults (the AWS chain, AWS
// endpoints), Azure URIs the URI's account with Azure's default credential chain, gs:// URIs
// Google's application default credentials.
Status ConfigureObjectStores(const StorageConfig& config);

// What a start-up probe of a warehouse found (ProbeWarehouse).
struct ProbeReport {
  bool object_store = false;        // false: a local path, nothing probed
  bool conditional_create = false;  // a second put of one name was refused, and racing ones had one winner
  // Why conditional_create is what it is, for the log and for refusing Delta: "refused the
  // second create", "accepted a second create", or why the store has none in Floe.
  std::string conditional_create_detail;
  std::string region;             // the region the S3 client uses; the account on Azure
  std::string credential_source;  // "static keys", "AWS default chain", "+ assumed role <arn>"; never a secret
};

// Probes a warehouse on an object store: creates <warehouse>/_floe_probe-<uuid> twice with
// put-if-absent (the second must be refused), uploads, reads back and deletes an object through
// the data path (arrow::fs), and races simultaneous creates of one name (exactly one may win).
// A failure names what was being done and the store's error (AccessDenied, NoSuchBucket);
// conditional_create false means the store accepted a second create, let several racing
// creates win, or has no conditional create in Floe.
Result<ProbeReport> ProbeWarehouse(const std::string& warehouse);

// What an Iceberg engine needs to read files under `warehouse`, as FileIO properties for the
// REST catalog's LoadTable `config`: S3's s3.endpoint, s3.region, s3.path-style-access;
// Azure's adls.account-name and emulator authority/scheme; GCS's gcs.service.host and
// gcs.project-id; the reader credentials when the
// config has them (never Floe's own). Empty for local warehouses.
Result<std::map<std::string, std::string>> ClientReadProperties(const std::string& warehouse);

}  // namespace floe::storage
