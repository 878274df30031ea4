#include <spdlog/spdlog.h>

#include <mutex>

#include "floe/core/arrow_interop.h"
#include "floe/storage/azure_access_token.h"
#include "floe/storage/azure_store_internal.h"

namespace floe::storage {
namespace {

struct AzureRegistry {
  std::mutex mutex;
  std::optional<AzureStorageConfig> config;
  std::shared_ptr<const AzureStore> store;  // built on first use
};

AzureRegistry& TheAzureRegistry() {
  static auto* registry = new AzureRegistry();  // never destroyed: stores may be used during exit
  return *registry;
}

struct Endpoint {
  std::string scheme;
  std::string authority;
};

// http(s)://host:port[/account] -> scheme and authority. A full host name makes Arrow put the
// account in the URL path (http://127.0.0.1:10000/devstoreaccount1/…), as emulators expect.
Result<Endpoint> ParseEndpoint(const AzureStorageConfig& c) {
  const auto scheme_end = c.endpoint.find("://");
  Endpoint e{c.endpoint.substr(0, scheme_end), c.endpoint.substr(scheme_end + 3)};
  while (!e.authority.empty() && e.authority.back() == '/') e.authority.pop_back();
  const auto slash = e.authority.find('/');
  if (slash != std::string::npos) {
    if (e.authority.substr(slash + 1) != c.account) {
      return Status::InvalidArgument("storage.azure.endpoint: the path may only name the account ('/" + c.account +
                                     "'), as in http://127.0.0.1:10000/" + c.account);
    }
    e.authority.resize(slash);
  }
  return e;
}

}  // namespace

bool IsAzureUri(const std::string& uri) {
  return uri.rfind("abfs://", 0) == 0 || uri.rfind("abfss://", 0) == 0 || uri.rfind("az://", 0) == 0;
}

Result<AzureLocation> ParseAzureUri(const std::string& uri) {
  const auto start = uri.find("://") + 3;
  std::string rest = uri.substr(start);
  const auto query = rest.find('?');
  if (query != std::string::npos) rest.resize(query);
  const auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  const std::string path = slash == std::string::npos ? "" : rest.substr(slash);
  AzureLocation out;
  if (uri.rfind("az://", 0) == 0) {
    out.path = authority + path;
  } else {
    const auto at = authority.find('@');
    if (at == std::string::npos || at == 0) {
      return Status::InvalidArgument(uri + ": expected abfs[s]://<container>@<account>.dfs.core.windows.net/<path>");
    }
    out.account = authority.substr(at + 1, authority.find('.', at + 1) - at - 1);
    out.path = authority.substr(0, at) + path;
  }
  while (out.path.size() > 1 && out.path.back() == '/') out.path.pop_back();
  if (out.path.empty()) return Status::InvalidArgument(uri + ": no container");
  return out;
}

Result<arrow::fs::AzureOptions> MakeAzureOptions(const AzureStorageConfig& c) {
  arrow::fs::AzureOptions o;
  o.account_name = c.account;
  if (!c.endpoint.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto e, ParseEndpoint(c));
    o.blob_storage_scheme = o.dfs_storage_scheme = e.scheme;
    o.blob_storage_authority = o.dfs_storage_authority = e.authority;
  }
  switch (c.credentials) {
    case AzureCredentialsKind::kKey: FLOE_RETURN_IF_ARROW_ERROR(o.ConfigureAccountKeyCredential(c.account_key)); break;
    case AzureCredentialsKind::kSas: FLOE_RETURN_IF_ARROW_ERROR(o.ConfigureSASCredential("?" + c.sas_token)); break;
    case AzureCredentialsKind::kDefault: FLOE_RETURN_IF_ARROW_ERROR(o.ConfigureDefaultCredential()); break;
  }
  return o;
}

std::string DescribeAzureCredentials(const AzureStorageConfig& c) {
  switch (c.credentials) {
    case AzureCredentialsKind::kKey: return "account key";
    case AzureCredentialsKind::kSas: return "SAS token";
    case AzureCredentialsKind::kDefault: break;
  }
  auto source = ResolveAzureTokenSource(ProcessEnv);
  return "Azure default credential chain: " + (source.ok() ? source->name : source.status().message());
}

void ConfigureAzureStore(const StorageConfig& config) {
  AzureRegistry& r = TheAzureRegistry();
  std::lock_guard lock(r.mutex);
  r.config = config.azure;
  r.store.reset();
}

Result<std::shared_ptr<const AzureStore>> SharedAzureStore(const std::string& uri_account) {
  AzureRegistry& r = TheAzureRegistry();
  std::lock_guard lock(r.mutex);
  if (r.store) {
    if (!uri_account.empty() && uri_account != r.store->config.account) {
      return Status::InvalidArgument("the Azure store is configured for the account '" + r.store->config.account +
                                     "', not '" + uri_account + "' (one account per process)");
    }
    return r.store;
  }
  auto store = std::make_shared<AzureStore>();
  store->config = r.config.value_or(AzureStorageConfig{});
  if (store->config.account.empty()) store->config.account = uri_account;
  if (store->config.account.empty()) {
    return Status::InvalidArgument("an az:// URI names no storage account: set storage.azure.account");
  }
  FLOE_ASSIGN_OR_RETURN(store->options, MakeAzureOptions(store->config));
  auto fs = arrow::fs::AzureFileSystem::Make(store->options);
  if (!fs.ok()) return FromArrow(fs.status()).WithContext("opening the Azure store (storage.azure)");
  store->fs = *fs;
  if (store->config.credentials == AzureCredentialsKind::kDefault) {
    auto source = ResolveAzureTokenSource(ProcessEnv);
    if (!source.ok()) {
      store->no_tokens = source.status().WithContext("the Azure default credential chain");
    } else if (source->kind == AzureTokenSourceKind::kNone) {
      store->no_tokens = Status::Unsupported("the Azure default credential chain: " + source->name);
    } else {
      store->tokens = std::make_shared<TokenCache>(AzureTokenFetch(*source));
    }
  }
  spdlog::info("Azure store: account {}, endpoint {}, credentials: {}", store->config.account,
               store->config.endpoint.empty() ? "Azure" : store->config.endpoint,
               DescribeAzureCredentials(store->config));
  r.store = store;
  return r.store;
}

std::map<std::string, std::string> AzureClientReadProperties(const AzureStore& store) {
  const auto& c = store.config;
  std::map<std::string, std::string> out;
  out["adls.account-name"] = c.account;
  if (!c.endpoint.empty()) {
    // PyArrow's AzureFileSystem (pyiceberg's PyArrowFileIO) takes authority and scheme.
    out["adls.blob-storage-authority"] = store.options.blob_storage_authority;
    out["adls.dfs-storage-authority"] = store.options.dfs_storage_authority;
    out["adls.blob-storage-scheme"] = store.options.blob_storage_scheme;
    out["adls.dfs-storage-scheme"] = store.options.dfs_storage_scheme;
  }
  // Only a SAS meant for readers: Floe's own key or SAS never leaves the process.
  if (!c.reader_sas_token.empty()) {
    out["adls.sas-token"] = c.reader_sas_token;
    if (!c.endpoint.empty()) {
      // adlfs (pyiceberg's default FileIO for abfs://) reaches an emulator's http endpoint
      // only through a connection string.
      out["adls.connection-string"] = "BlobEndpoint=" + std::string(store.options.AccountBlobUrl(c.account)) +
                                      ";SharedAccessSignature=" + c.reader_sas_token;
    }
  }
  return out;
}

}  // namespace floe::storage
