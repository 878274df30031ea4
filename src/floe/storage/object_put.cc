#include "floe/storage/object_put.h"

#include <curl/curl.h>

#include <cstdlib>
#include <memory>
#include <mutex>

#include "floe/core/percent_encoding.h"
#include "floe/storage/retry_metrics.h"

namespace floe::storage {
namespace {

std::once_flag g_curl_init;

std::size_t AppendToString(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

}  // namespace

Result<ObjectPutAnswer> SendObjectPut(const ObjectPut& put, const std::string& content, const std::string& what) {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return Status::Internal("curl_easy_init failed");
  CURL* h = curl.get();
  ObjectPutAnswer answer;
  char error[CURL_ERROR_SIZE] = {0};
  const std::string user_agent = put.user_agent.empty() ? "floe-" + put.store + "-conditional-put" : put.user_agent;
  curl_easy_setopt(h, CURLOPT_URL, put.url.c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, put.method.c_str());
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, content.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(content.size()));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, AppendToString);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &answer.body);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(put.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 60'000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_USERAGENT, user_agent.c_str());
  // SSL_CERT_FILE and SSL_CERT_DIR are OpenSSL's variables, which the Azure SDK inside Arrow
  // honours (test_pipeline_azure_entra.py trusts its test CA so): honoured here too, one setting
  // trusts a private CA on the data path and on these requests alike. libcurl reads neither;
  // unset, its built-in CA bundle applies.
  if (const char* file = std::getenv("SSL_CERT_FILE"); file && *file) curl_easy_setopt(h, CURLOPT_CAINFO, file);
  if (const char* dir = std::getenv("SSL_CERT_DIR"); dir && *dir) curl_easy_setopt(h, CURLOPT_CAPATH, dir);
  if (!put.aws_sigv4.empty()) {
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, put.aws_sigv4.c_str());
    curl_easy_setopt(h, CURLOPT_USERNAME, put.user.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, put.password.c_str());
  }
  curl_slist* raw = nullptr;
  for (const auto& line : put.headers) raw = curl_slist_append(raw, line.c_str());
  // No 100-continue round trip for these small bodies; not with SigV4, whose signature would
  // cover the emptied header that is then not sent.
  if (put.aws_sigv4.empty()) raw = curl_slist_append(raw, "Expect:");
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw, curl_slist_free_all);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    CountRetry(put.store, "network", curl_easy_strerror(rc));
    return Status::Unavailable(what + ": " + (error[0] ? std::string(error) : curl_easy_strerror(rc)));
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &answer.code);
  return answer;
}

Status ObjectPutStatus(const std::string& store, long code, const std::string& store_code, const std::string& message,
                       const std::string& what, const std::string& hint, bool conflict) {
  std::string text = what + ": HTTP " + std::to_string(code);
  if (!store_code.empty()) text += " " + store_code;
  if (!message.empty()) text += ": " + message;
  if (conflict) return Status::Conflict(text + " (the object exists: a concurrent writer won)");
  // 501 NotImplemented: the store does not support conditional writes (S3Proxy, older MinIO/Ceph).
  // Not a failure to retry: the caller falls back or refuses Delta (docs/storage.md).
  if (code == 501) return Status::Unsupported(text + " (this store does not implement conditional writes)");
  if (!hint.empty()) text += " (" + hint + ")";
  if (code >= 500 || code == 429) {
    CountRetry(store, store_code.empty() ? "HTTP " + std::to_string(code) : store_code, text);
    return Status::Unavailable(text);
  }
  return Status::IoError(text);
}

std::string XmlElement(const std::string& body, const std::string& name) {
  const auto open = body.find("<" + name + ">");
  if (open == std::string::npos) return "";
  const auto start = open + name.size() + 2;
  const auto close = body.find("</" + name + ">", start);
  return close == std::string::npos ? "" : body.substr(start, close - start);
}

std::string EncodeObjectPath(const std::string& path) {
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

}  // namespace floe::storage
