#include "floe/catalog/rest_client_http.h"

#include <curl/curl.h>

#include <cstdlib>
#include <mutex>

namespace floe::catalog::rest {
namespace {

std::once_flag g_curl_init;

std::size_t AppendToString(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// Failures where the request cannot have reached the server's application.
bool NeverDelivered(CURLcode rc) {
  switch (rc) {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
      return true;
    default:
      return false;
  }
}

class CurlTransport final : public HttpTransport {
 public:
  explicit CurlTransport(CurlTransportOptions options) : options_(options) {
    std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  }

  HttpResponse Send(const HttpRequest& request) override {
    HttpResponse response;
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) {
      response.error = "curl_easy_init failed";
      return response;
    }
    CURL* c = curl.get();
    char error[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, AppendToString);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout.count()));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode (gzip, …)
    curl_easy_setopt(c, CURLOPT_USERAGENT, "floe-iceberg-rest-client");
    // Only http(s), also on redirects: a catalog URI must not turn into file:// or the like.
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    // A catalog behind a private CA (e.g. `floe catalog serve` with catalog.tls): OpenSSL's
    // SSL_CERT_FILE / SSL_CERT_DIR, which Floe's other HTTPS clients honour too; unset,
    // libcurl's built-in bundle applies.
    if (const char* file = std::getenv("SSL_CERT_FILE"); file && *file) curl_easy_setopt(c, CURLOPT_CAINFO, file);
    if (const char* dir = std::getenv("SSL_CERT_DIR"); dir && *dir) curl_easy_setopt(c, CURLOPT_CAPATH, dir);
    if (request.method == "GET") {
      curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    } else if (request.method == "HEAD") {
      curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else if (request.method == "POST") {
      curl_easy_setopt(c, CURLOPT_POST, 1L);
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    } else {
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      if (!request.body.empty()) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      }
    }
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(nullptr, curl_slist_free_all);
    // No "Expect: 100-continue" round trip for larger commit bodies.
    headers.reset(curl_slist_append(headers.release(), "Expect:"));
    for (const auto& [name, value] : request.headers) {
      const std::string line = name + ": " + value;
      headers.reset(curl_slist_append(headers.release(), line.c_str()));
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    const CURLcode rc = curl_easy_perform(c);
    if (rc != CURLE_OK) {
      response.error = error[0] ? std::string(error) : std::string(curl_easy_strerror(rc));
      response.maybe_delivered = !NeverDelivered(rc);
      response.body.clear();
      return response;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
  }

 private:
  CurlTransportOptions options_;
};

}  // namespace

std::unique_ptr<HttpTransport> MakeCurlTransport(const CurlTransportOptions& options) {
  return std::make_unique<CurlTransport>(options);
}

}  // namespace floe::catalog::rest
