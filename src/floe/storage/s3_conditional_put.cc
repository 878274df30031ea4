// The one S3 request arrow::fs cannot make: a create that fails when the key exists
// (`If-None-Match: *`, honoured by AWS since 2024 and by S3-compatible stores). Delta's
// commit protocol rests on it. libcurl signs it (CURLOPT_AWS_SIGV4) with the credentials
// the store's Arrow options hold, so both paths act as the same principal.
#include <curl/curl.h>
#include <openssl/sha.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

#include "floe/core/percent_encoding.h"
#include "floe/storage/retry_metrics.h"
#include "floe/storage/s3_store_internal.h"

namespace floe::storage {
namespace {

std::once_flag g_curl_init;

std::size_t AppendToString(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  std::string hex;
  char buf[3];
  for (unsigned char b : digest) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    hex += buf;
  }
  return hex;
}

// <Code>…</Code> from S3's XML error body ("" when there is none).
std::string XmlElement(const std::string& body, const std::string& name) {
  const auto open = body.find("<" + name + ">");
  if (open == std::string::npos) return "";
  const auto start = open + name.size() + 2;
  const auto close = body.find("</" + name + ">", start);
  return close == std::string::npos ? "" : body.substr(start, close - start);
}

// Each key segment percent-encoded once, as SigV4's canonical URI for S3 expects.
std::string EncodeKey(const std::string& key) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const auto slash = key.find('/', start);
    out += PercentEncode(key.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    out += '/';
    start = slash + 1;
  }
  return out;
}

std::string ObjectUrl(const S3Store& store, const std::string& bucket, const std::string& key) {
  const auto& c = store.config;
  if (c.endpoint.empty()) {
    return "https://" + bucket + ".s3." + store.fs->region() + ".amazonaws.com/" + EncodeKey(key);
  }
  std::string endpoint = c.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  if (c.path_style) return endpoint + "/" + bucket + "/" + EncodeKey(key);
  const auto host = endpoint.find("://") + 3;
  return endpoint.substr(0, host) + bucket + "." + endpoint.substr(host) + "/" + EncodeKey(key);
}

Status FromHttp(long code, const std::string& body, const std::string& what) {
  const std::string s3_code = XmlElement(body, "Code");
  const std::string message = XmlElement(body, "Message");
  std::string text = what + ": HTTP " + std::to_string(code);
  if (!s3_code.empty()) text += " " + s3_code;
  if (!message.empty()) text += ": " + message;
  if (code == 412 || code == 409) return Status::Conflict(text + " (the object exists: a concurrent writer won)");
  if (code == 403 && s3_code == "AccessDenied") {
    text += " (the IAM policy must allow s3:PutObject on this key: docs/storage.md)";
  }
  if (code == 404 && s3_code == "NoSuchBucket") text += " (the warehouse bucket does not exist)";
  if (code >= 500 || code == 429) {
    CountRetry("s3", s3_code.empty() ? "HTTP " + std::to_string(code) : s3_code, text);  // the caller retries
    return Status::Unavailable(text);
  }
  return Status::IoError(text);
}

}  // namespace

Status S3PutIfAbsent(const S3Store& store, const std::string& bucket_key, const std::string& content) {
  const auto slash = bucket_key.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == bucket_key.size()) {
    return Status::InvalidArgument("'" + bucket_key + "' is not bucket/key");
  }
  const std::string bucket = bucket_key.substr(0, slash);
  const std::string key = bucket_key.substr(slash + 1);
  const std::string what = "conditional PUT s3://" + bucket_key;
  // Asked each time: the assume-role provider refreshes expiring credentials itself.
  const std::string access_key = store.options.GetAccessKey();
  const std::string secret_key = store.options.GetSecretKey();
  const std::string session_token = store.options.GetSessionToken();
  if (access_key.empty()) return Status::IoError(what + ": no AWS credentials found (" + DescribeCredentials(store.config) + ")");

  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return Status::Internal("curl_easy_init failed");
  CURL* c = curl.get();
  const std::string url = ObjectUrl(store, bucket, key);
  const std::string sigv4 = "aws:amz:" + store.fs->region() + ":s3";
  std::string body;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, content.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(content.size()));
  curl_easy_setopt(c, CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(c, CURLOPT_USERNAME, access_key.c_str());
  curl_easy_setopt(c, CURLOPT_PASSWORD, secret_key.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, AppendToString);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 10'000L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 60'000L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_USERAGENT, "floe-s3-conditional-put");

  // x-amz-* headers are part of the signature; S3 needs the payload hash as a header.
  std::vector<std::string> lines = {"If-None-Match: *", "Content-Type: application/octet-stream",
                                    "x-amz-content-sha256: " + Sha256Hex(content)};
  if (!session_token.empty()) lines.push_back("x-amz-security-token: " + session_token);
  if (!store.config.sse_type.empty()) lines.push_back("x-amz-server-side-encryption: " + store.config.sse_type);
  curl_slist* raw = nullptr;
  for (const auto& l : lines) raw = curl_slist_append(raw, l.c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw, curl_slist_free_all);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode rc = curl_easy_perform(c);
  if (rc != CURLE_OK) {
    // The outcome is unknown (the object may exist now): the caller's retry re-reads the log,
    // and fencing recognises a commit that did land.
    CountRetry("s3", "network", curl_easy_strerror(rc));
    return Status::Unavailable(what + ": " + (error[0] ? std::string(error) : curl_easy_strerror(rc)));
  }
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  if (code >= 200 && code < 300) return Status::OK();
  return FromHttp(code, body, what);
}

}  // namespace floe::storage
