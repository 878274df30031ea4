#pragma once
// Storage access a catalog delegates to Floe for a table's files: Iceberg REST "access
// delegation" with vended credentials (Polaris / Snowflake Open Catalog, Unity's and Glue's
// Iceberg REST endpoints, S3 Tables). The catalog answers LoadTable with S3 FileIO properties,
// in its `config` (for the table's location) and in `storage-credentials` (for given
// prefixes); Floe then reads and writes every file under such a prefix with them instead of
// storage.s3's own, as Iceberg's S3FileIO does.
//
// Process-wide, like the stores (object_stores.h): the catalog client registers what it was
// given, and every s3:// URI under a registered prefix (data files, manifests, metadata reads)
// gets a store built from storage.s3 with the delegated properties on top. The longest prefix
// wins. Credentials with an expiry (s3.session-token-expires-at-ms) are asked for again, through
// the refresh function the client registered, once less than five minutes remain.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe::storage {

struct S3Store;  // s3_store_internal.h

// One grant: S3 FileIO properties for the files under `prefix` (s3://bucket[/path]). The keys
// honoured are Iceberg's: s3.access-key-id, s3.secret-access-key, s3.session-token,
// s3.session-token-expires-at-ms, s3.endpoint, s3.region (or client.region) and
// s3.path-style-access; other keys are ignored.
struct DelegatedAccess {
  std::string prefix;
  std::map<std::string, std::string> properties;
};

// Asks the catalog again (the client then calls Delegate with the new answer).
using DelegationRefresh = std::function<Status()>;

// Sets the grants of `owner` for these prefixes (replacing what any owner had registered for
// them). A grant without S3 settings is dropped; an access key without its secret is
// kInvalidArgument, naming the prefix (never a value).
Status Delegate(const void* owner, const std::vector<DelegatedAccess>& grants, DelegationRefresh refresh);

// Forgets every grant of `owner` (a catalog client going away).
void RevokeDelegations(const void* owner);

// The store serving `uri` (s3://…): the store of the longest delegated prefix the URI is
// under, else the shared store of storage.s3 (SharedS3Store).
Result<std::shared_ptr<const S3Store>> S3StoreForUri(const std::string& uri);

}  // namespace floe::storage
