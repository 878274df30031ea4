// The one Azure request arrow::fs cannot make: a Put Blob that fails when the blob exists
// (`If-None-Match: *`). Delta's commit protocol rests on it. Authorized like the data path:
// Shared Key with the account key, or the SAS token appended to the URL.
#include <curl/curl.h>

#include <ctime>
#include <memory>
#include <mutex>
#include <vector>

#include "floe/core/percent_encoding.h"
#include "floe/storage/azure_shared_key.h"
#include "floe/storage/azure_store_internal.h"

namespace floe::storage {
namespace {

constexpr const char* kApiVersion = "2021-12-02";

std::once_flag g_curl_init;

std::size_t AppendToString(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

std::string XmlElement(const std::string& body, const std::string& name) {
  const auto open = body.find("<" + name + ">");
  if (open == std::string::npos) return "";
  const auto start = open + name.size() + 2;
  const auto close = body.find("</" + name + ">", start);
  return close == std::string::npos ? "" : body.substr(start, close - start);
}

// Each path segment percent-encoded once (the URL and the signed resource must agree).
std::string EncodePath(const std::string& path) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const auto slash = path.find('/', start);
    out += PercentEncode(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    out += '/';
    start = slash + 1;
  }
  return out;
}

std::string HttpDate() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

Status FromHttp(long code, const std::string& body, const std::string& what) {
  const std::string azure_code = XmlElement(body, "Code");
  std::string message = XmlElement(body, "Message");
  message = message.substr(0, message.find('\n'));  // then RequestId and Time lines
  std::string text = what + ": HTTP " + std::to_string(code);
  if (!azure_code.empty()) text += " " + azure_code;
  if (!message.empty()) text += ": " + message;
  if (code == 412 || (code == 409 && azure_code == "BlobAlreadyExists")) {
    return Status::Conflict(text + " (the blob exists: a concurrent writer won)");
  }
  // Azure answers a bad signature with AuthenticationFailed, Azurite with AuthorizationFailure;
  // both say "Server failed to authenticate the request".
  if (azure_code == "AuthenticationFailed" || message.find("failed to authenticate") != std::string::npos) {
    text += " (a wrong storage.azure.account_key, or an invalid or expired sas_token)";
  } else if (azure_code.rfind("Authorization", 0) == 0) {
    text += " (the identity needs the role Storage Blob Data Contributor on the container, a SAS the permissions "
            "racwdl: docs/storage.md)";
  }
  if (azure_code == "ContainerNotFound") text += " (the warehouse container does not exist)";
  if (code >= 500 || code == 429) return Status::Unavailable(text);
  return Status::IoError(text);
}

}  // namespace

Status AzurePutIfAbsent(const AzureStore& store, const std::string& container_blob, const std::string& content) {
  const auto slash = container_blob.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == container_blob.size()) {
    return Status::InvalidArgument("'" + container_blob + "' is not container/blob");
  }
  const auto& c = store.config;
  const std::string what = "conditional Put Blob " + container_blob;
  if (c.credentials == AzureCredentialsKind::kDefault) {
    return Status::Unsupported(what + ": needs storage.azure.credentials key or sas (Floe's conditional create "
                                      "cannot use the Azure default credential chain yet)");
  }
  std::string base = store.options.AccountBlobUrl(c.account);
  while (!base.empty() && base.back() == '/') base.pop_back();
  const std::string url_path_suffix = "/" + EncodePath(container_blob);
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
  } else {
    url += "?" + c.sas_token;
  }

  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return Status::Internal("curl_easy_init failed");
  CURL* h = curl.get();
  std::string body;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "PUT");
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, content.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(content.size()));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, AppendToString);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10'000L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 60'000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_USERAGENT, "floe-azure-conditional-put");
  lines.push_back("Expect:");  // no 100-continue round trip for these small bodies
  curl_slist* raw = nullptr;
  for (const auto& l : lines) raw = curl_slist_append(raw, l.c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw, curl_slist_free_all);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    // The outcome is unknown (the blob may exist now): the caller's retry re-reads the log,
    // and fencing recognises a commit that did land. The URL may hold a SAS: not quoted.
    return Status::Unavailable(what + ": " + (error[0] ? std::string(error) : curl_easy_strerror(rc)));
  }
  long code = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
  if (code >= 200 && code < 300) return Status::OK();
  return FromHttp(code, body, what);
}

}  // namespace floe::storage
