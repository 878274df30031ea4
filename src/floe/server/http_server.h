#pragma once
// A small HTTP server facade: routes of (method, regex) to handlers over plain structs, so
// that the HTTP library (cpp-httplib) stays inside http_server.cc and the REST catalog,
// admin API and /metrics are testable without it.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/core/result.h"

namespace floe::server {

struct HttpRequest {
  std::string method;  // GET, HEAD, POST, PUT, DELETE
  std::string path;    // decoded path, no query string
  std::vector<std::string> path_params;  // regex capture groups, percent-decoded
  std::multimap<std::string, std::string> query;
  std::multimap<std::string, std::string> headers;  // names lower-cased
  std::string body;

  std::string Header(const std::string& lower_name) const;
  std::string Query(const std::string& name) const;
  bool HasQuery(const std::string& name) const { return query.count(name) > 0; }
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::map<std::string, std::string> headers;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0 = any free port (see HttpServer::port())
  std::size_t max_body_bytes = 16 << 20;  // a larger body is answered 413
  int threads = 8;
  // A connection must send each whole request (headers and body) within this long from when a
  // thread picks it up or from the previous answer, else it is closed (request_deadlines_internal.h).
  std::chrono::milliseconds request_timeout{30'000};
  // HTTPS with this PEM certificate (chain) and key; both empty: plain HTTP.
  std::string tls_cert_file;
  std::string tls_key_file;
};

class HttpServer {
 public:
  explicit HttpServer(HttpServerOptions options);
  ~HttpServer();  // stops

  // `pattern` is an ECMAScript regex that must match the whole path; capture groups
  // become HttpRequest::path_params, percent-decoded (a malformed escape such as "%zz" is
  // answered 400 before the handler runs). A GET route also answers HEAD (body dropped).
  void Route(const std::string& method, const std::string& pattern, HttpHandler handler);
  // Runs before routing; a returned response short-circuits (used for authentication).
  void SetFilter(std::function<std::optional<HttpResponse>(const HttpRequest&)> filter);

  // Binds and serves on a background thread; returns once the socket accepts connections.
  Status Start();
  void Stop();
  int port() const { return port_; }
  std::string base_url() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  HttpServerOptions options_;
  int port_ = 0;
};

}  // namespace floe::server
