#pragma once
// The HTTP exchange under the Iceberg REST client: one request, one answer, no retries and no
// interpretation (rest_catalog_client.cc does both). An interface so that unit tests can stand
// in for the server; the real one is libcurl.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace floe::catalog::rest {

struct HttpRequest {
  std::string method;  // GET, HEAD, POST, DELETE
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // sent for POST (with the Content-Type header the caller set)
};

struct HttpResponse {
  long status = 0;  // 0: no HTTP answer, see `error`
  std::string body;
  std::string error;             // the transport failure when status == 0
  bool maybe_delivered = false;  // status == 0: the request may have reached the server
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Thread-safe.
  virtual HttpResponse Send(const HttpRequest& request) = 0;
};

struct CurlTransportOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds request_timeout{60'000};  // whole exchange
};

std::unique_ptr<HttpTransport> MakeCurlTransport(const CurlTransportOptions& options);

}  // namespace floe::catalog::rest
