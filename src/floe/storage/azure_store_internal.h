#pragma once
// The shared Azure Blob Storage / ADLS Gen2 file system and what the conditional put needs
// beside it (the same settings, hence the same account and credentials).
#include <arrow/filesystem/azurefs.h>

#include <map>
#include <memory>
#include <string>

#include "floe/core/config.h"
#include "floe/core/result.h"
#include "floe/storage/oauth_token.h"

namespace floe::storage {

bool IsAzureUri(const std::string& uri);

// An abfs[s]://container@<account>.dfs.core.windows.net/path or az://container/path URI:
// the account it names (empty for az://) and the path AzureFileSystem takes (container/path).
struct AzureLocation {
  std::string account;
  std::string path;
};
Result<AzureLocation> ParseAzureUri(const std::string& uri);

struct AzureStore {
  AzureStorageConfig config;
  arrow::fs::AzureOptions options;
  std::shared_ptr<arrow::fs::AzureFileSystem> fs;
  // credentials: default: Entra ID tokens for the conditional put (azure_access_token.h), or
  // why there are none (kUnsupported: no usable source; else the chain's misconfiguration).
  std::shared_ptr<TokenCache> tokens;
  Status no_tokens;
};

// Sets the settings the store is built from on first use (storage.azure; none: the account
// of the warehouse URI with Azure's default credential chain).
void ConfigureAzureStore(const StorageConfig& config);
// The store for Azure URIs, built on first use. `uri_account` (from the URI, may be empty)
// names the account when storage.azure does not.
Result<std::shared_ptr<const AzureStore>> SharedAzureStore(const std::string& uri_account);

// Arrow's options for the settings: account, emulator endpoint, credentials.
Result<arrow::fs::AzureOptions> MakeAzureOptions(const AzureStorageConfig& config);

// Creates <container>/<blob> (`container_blob`) with `content` only if no blob has that name:
// Put Blob with `If-None-Match: *`, authorized by Shared Key, the SAS token or (default
// credentials) an Entra ID bearer token. 409 BlobAlreadyExists and 412 are kConflict;
// kUnsupported when the default chain has no source Floe can use.
Status AzurePutIfAbsent(const AzureStore& store, const std::string& container_blob, const std::string& content);

// How the credentials are obtained, for reports and logs (never the secret itself); for the
// default chain, the source of the conditional put's tokens the environment selects.
std::string DescribeAzureCredentials(const AzureStorageConfig& config);

// LoadTable config properties for Iceberg clients (pyiceberg's adls.* names).
std::map<std::string, std::string> AzureClientReadProperties(const AzureStore& store);

}  // namespace floe::storage
