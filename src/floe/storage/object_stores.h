#pragma once
// The process's object-store settings (floe.yaml's `storage:` section). One S3 file system
// serves every s3:// URI of the process: creating one is not free (with role_arn it costs an
// STS call), Arrow's S3 support is process-wide anyway (InitializeS3/FinalizeS3), and the
// table code deep inside iceberg/ and delta/ opens files by URI alone.
#include <map>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"

namespace floe::storage {

// Sets the settings used from now on (replacing the file system built from earlier ones).
// Without a call, s3:// URIs use Arrow's defaults (the AWS chain, AWS endpoints).
Status ConfigureObjectStores(const StorageConfig& config);

// What a start-up probe of a warehouse found (ProbeWarehouse).
struct ProbeReport {
  bool object_store = false;        // false: a local path, nothing probed
  bool conditional_create = false;  // the second put of one name was refused
  std::string region;               // the region the S3 client uses
  std::string credential_source;    // "static keys", "AWS default chain", "+ assumed role <arn>"; never a secret
};

// Writes a probe object <warehouse>/_floe_probe-<uuid> twice with put-if-absent (the second
// must be refused), reads it back and deletes it. A failure names what was being done and the
// store's error (AccessDenied, NoSuchBucket); conditional_create false means the store
// accepted the second create.
Result<ProbeReport> ProbeWarehouse(const std::string& warehouse);

// What an Iceberg engine needs to read files under `warehouse`, as FileIO properties for the
// REST catalog's LoadTable `config`: s3.endpoint, s3.region, s3.path-style-access, and the
// reader keys when storage.s3 configures them (never Floe's own credentials). Empty for local
// warehouses.
Result<std::map<std::string, std::string>> ClientReadProperties(const std::string& warehouse);

}  // namespace floe::storage
