// The one Azure request arrow::fs cannot make: a Put Blob that fails when the blob exists
// (`If-None-Match: *`). Delta's commit protocol rests on it. Authorized like the data path:
// Shared Key with the account key, the SAS token appended to the URL, or a bearer token from
// the default credential chain's source (azure_access_token.h).
#include <ctime>
#include <vector>

#include "floe/storage/azure_shared_key.h"
#include "floe/storage/azure_store_internal.h"
#include "floe/storage/object_put.h"

namespace floe::storage {
namespace {

constexpr const char* kApiVersion = "2021-12-02";

std::string HttpDate() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

std::string Hint(const AzureStorageConfig& c, const std::string& azure_code, const std::string& message) {
  // Azure answers a bad signature with AuthenticationFailed, Azurite with AuthorizationFailure;
  // both say "Server failed to authenticate the request". A bearer token refused: also
  // AuthenticationFailed (Azurite: its issuer, audience or lifetime), or InvalidAuthenticationInfo.
  if (c.credentials == AzureCredentialsKind::kDefault &&
      (azure_code == "AuthenticationFailed" || azure_code == "InvalidAuthenticationInfo")) {
    return "the store refused the Entra ID token of the " + DescribeAzureCredentials(c);
  }
  if (azure_code == "AuthenticationFailed" || message.find("failed to authenticate") != std::string::npos) {
    return "a wrong storage.azure.account_key, or an invalid or expired sas_token";
  }
  if (azure_code.rfind("Authorization", 0) == 0) {
    return "the identity needs the role Storage Blob Data Contributor on the container, a SAS the permissions "
           "racwdl: docs/storage.md";
  }
  if (azure_code == "ContainerNotFound") return "the warehouse container does not exist";
  return "";
}

}  // namespace

Status AzurePutIfAbsent(const AzureStore& store, const std::string& container_blob, const std::string& content) {
  const auto slash = container_blob.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == container_blob.size()) {
    return Status::InvalidArgument("'" + container_blob + "' is not container/blob");
  }
  const auto& c = store.config;
  const std::string what = "conditional Put Blob " + container_blob;
  std::string token;
  if (c.credentials == AzureCredentialsKind::kDefault) {
    if (!store.tokens) return Status(store.no_tokens.code(), what + ": " + store.no_tokens.message());
    auto got = store.tokens->Get();
    if (!got.ok()) return got.status().WithContext(what);
    token = std::move(got).value();
  }
  std::string base = store.options.AccountBlobUrl(c.account);
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string url_path_suffix = "/" + EncodeObjectPath(container_blob);
  std::string url = base + url_path_suffix;

  SharedKeyRequest request;
  request.method = "PUT";
  request.account = c.account;
  request.headers = {{"content-length", std::to_string(content.size())},
                     {"content-type", "application/octet-stream"},
                     {"if-none-match", "*"},
                     {"x-ms-blob-type", "BlockBlob"},
                     {"x-ms-date", HttpDate()},
                     {"x-ms-version", kApiVersion}};
  std::vector<std::string> lines;
  for (const auto& [name, value] : request.headers) {
    if (name != "content-length") lines.push_back(name + ": " + value);  // libcurl sends the length
  }
  if (c.credentials == AzureCredentialsKind::kKey) {
    // The signed resource is the URL's path after the account: with an emulator's
    // path-style URL that path starts with the account again, as the Azure SDK signs it.
    const auto host = base.find("://") + 3;
    const auto path_start = base.find('/', host);
    request.path = (path_start == std::string::npos ? "" : base.substr(path_start)) + url_path_suffix;
    FLOE_ASSIGN_OR_RETURN(auto authorization, SharedKeyAuthorization(request, c.account_key));
    lines.push_back("Authorization: " + authorization);
  } else if (c.credentials == AzureCredentialsKind::kSas) {
    url += "?" + c.sas_token;
  } else {
    lines.push_back("Authorization: Bearer " + token);
  }

  ObjectPut put;
  put.store = "azure";
  put.method = "PUT";
  put.url = url;
  put.headers = std::move(lines);
  FLOE_ASSIGN_OR_RETURN(auto answer, SendObjectPut(put, content, what));
  if (answer.code >= 200 && answer.code < 300) return Status::OK();
  const std::string azure_code = XmlElement(answer.body, "Code");
  // A token the store no longer takes (expired early, revoked, clocks apart): the next put fetches anew.
  if (store.tokens && (answer.code == 401 || azure_code == "AuthenticationFailed")) store.tokens->Invalidate(token);
  std::string message = XmlElement(answer.body, "Message");
  message = message.substr(0, message.find('\n'));  // then RequestId and Time lines
  return ObjectPutStatus("azure", answer.code, azure_code, message, what, Hint(c, azure_code, message),
                         answer.code == 412 || (answer.code == 409 && azure_code == "BlobAlreadyExists"));
}

}  // namespace floe::storage
