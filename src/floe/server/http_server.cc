#include "floe/server/http_server.h"

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <regex>
#include <thread>

#include "floe/core/ascii.h"
#include "floe/core/percent_encoding.h"
#include "floe/server/request_deadlines_internal.h"

namespace floe::server {
namespace {

// Iceberg's ErrorModel; the message may quote raw request bytes, so invalid UTF-8 is replaced
// rather than thrown on.
std::string ErrorBody(int code, const std::string& type, const std::string& message) {
  const nlohmann::json body = {{"error", {{"message", message}, {"type", type}, {"code", code}}}};
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string TooLargeBody(std::size_t max) {
  return ErrorBody(413, "RequestEntityTooLargeException",
                   "request body is larger than the limit of " + std::to_string(max) + " bytes");
}

HttpResponse BadRequest(const std::string& message) {
  return {400, "application/json", ErrorBody(400, "BadRequestException", message), {}};
}

}  // namespace

std::string HttpRequest::Header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

std::string HttpRequest::Query(const std::string& name) const {
  auto it = query.find(name);
  return it == query.end() ? std::string() : it->second;
}

// An SSLServer when the options name a certificate: everything else is the same server.
std::unique_ptr<httplib::Server> MakeServer(const HttpServerOptions& options) {
  if (options.tls_cert_file.empty()) return std::make_unique<httplib::Server>();
  return std::make_unique<httplib::SSLServer>(options.tls_cert_file.c_str(), options.tls_key_file.c_str());
}

struct HttpServer::Impl {
  // A member type, not one of the anonymous namespace: Impl (declared in the header) has
  // external linkage.
  struct RouteEntry {
    std::string method;
    std::regex pattern;
    HttpHandler handler;
  };

  explicit Impl(const HttpServerOptions& options)
      : deadlines(options.request_timeout), owned(MakeServer(options)), server(*owned) {}
  RequestDeadlines deadlines;  // outlives the server, whose task queue uses it
  std::unique_ptr<httplib::Server> owned;
  httplib::Server& server;
  std::vector<RouteEntry> routes;
  std::function<std::optional<HttpResponse>(const HttpRequest&)> filter;
  std::thread thread;

  HttpResponse Dispatch(HttpRequest& request) const {
    if (filter) {
      if (auto early = filter(request)) return *early;
    }
    const std::string method = request.method == "HEAD" ? "GET" : request.method;
    bool path_matched = false;
    for (const auto& route : routes) {
      std::smatch m;
      if (!std::regex_match(request.path, m, route.pattern)) continue;
      path_matched = true;
      if (route.method != method) continue;
      // Captures are decoded here, not by httplib: it decodes '+' and %XX before matching, and
      // the path matched on is the raw one so that an encoded '/' (%2F) inside a name cannot
      // split a path segment.
      request.path_params.clear();
      for (std::size_t i = 1; i < m.size(); ++i) {
        auto decoded = PercentDecode(m[i].str());
        if (!decoded.ok()) return BadRequest(decoded.status().message());
        request.path_params.push_back(std::move(decoded).value());
      }
      try {
        return route.handler(request);
      } catch (const std::exception& e) {  // a handler bug must not take the server down
        spdlog::error("http: {} {} failed: {}", request.method, request.path, e.what());
        return {500, "application/json",
                R"({"error":{"message":"internal error","type":"InternalServerError","code":500}})", {}};
      }
    }
    if (path_matched) {
      return {405, "application/json",
              R"({"error":{"message":"method not allowed","type":"MethodNotAllowedException","code":405}})", {}};
    }
    return {404, "application/json",
            R"({"error":{"message":"no such route","type":"NoSuchRouteException","code":404}})", {}};
  }
};

HttpServer::HttpServer(HttpServerOptions options)
    : impl_(std::make_unique<Impl>(options)), options_(std::move(options)) {}

HttpServer::~HttpServer() { Stop(); }

void HttpServer::Route(const std::string& method, const std::string& pattern, HttpHandler handler) {
  impl_->routes.push_back({method, std::regex(pattern), std::move(handler)});
}

void HttpServer::SetFilter(std::function<std::optional<HttpResponse>(const HttpRequest&)> filter) {
  impl_->filter = std::move(filter);
}

std::string HttpServer::base_url() const {
  return (options_.tls_cert_file.empty() ? "http://" : "https://") + options_.host + ":" + std::to_string(port_);
}

Status HttpServer::Start() {
  Impl* impl = impl_.get();
  if (!impl->server.is_valid()) {  // only an SSLServer can be invalid: its context did not load
    return Status::InvalidArgument("cannot serve HTTPS with certificate " + options_.tls_cert_file + " and key " +
                                   options_.tls_key_file +
                                   ": OpenSSL refused them (not PEM, an encrypted key, or a key that does not match "
                                   "the certificate)");
  }
  impl->server.set_payload_max_length(options_.max_body_bytes);
  impl->server.set_tcp_nodelay(true);
  // httplib's own timeouts bound each read and write and an idle keep-alive connection; the
  // whole request is bounded by the deadlines (request_deadlines_internal.h).
  const auto io_timeout = std::min<std::chrono::milliseconds>(options_.request_timeout, std::chrono::seconds(5));
  impl->server.set_read_timeout(io_timeout);
  impl->server.set_write_timeout(io_timeout);
  impl->server.set_keep_alive_timeout(
      std::max<time_t>(1, std::chrono::duration_cast<std::chrono::seconds>(io_timeout).count()));
  const int threads = options_.threads;
  impl->server.new_task_queue = [this, impl, threads] { return impl->deadlines.NewTaskQueue(port_, threads); };
  // Answers httplib makes itself (413 for a body over max_body_bytes, 400 for a request it
  // cannot parse, 414 for a long URI) get the Iceberg ErrorModel too.
  impl->server.set_error_handler(httplib::Server::HandlerWithResponse(
      [max = options_.max_body_bytes](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (res.status == 413) {
      res.set_content(TooLargeBody(max),
                      "application/json");
    } else {
      res.set_content(ErrorBody(res.status, res.status < 500 ? "BadRequestException" : "InternalServerError",
                                "the request is not valid HTTP or exceeds a limit (HTTP " + std::to_string(res.status) + ")"),
                      "application/json");
    }
    return httplib::Server::HandlerResponse::Handled;
  }));
  // One catch-all per method: routing happens in Dispatch against the raw (undecoded) path.
  auto serve = [impl](const httplib::Request& req, std::string body, httplib::Response& res) {
    impl->deadlines.Handling();
    HttpRequest request;
    request.method = req.method;
    std::string target = req.target;
    const auto q = target.find('?');
    request.path = q == std::string::npos ? target : target.substr(0, q);
    for (const auto& [k, v] : req.params) request.query.emplace(k, v);
    for (const auto& [k, v] : req.headers) request.headers.emplace(AsciiLower(k), v);
    request.body = std::move(body);
    HttpResponse response = impl->Dispatch(request);
    res.status = response.status;
    for (const auto& [k, v] : response.headers) res.set_header(k, v);
    if (!response.body.empty() || !response.content_type.empty()) {
      res.set_content(response.body, response.content_type.c_str());
    }
    impl->deadlines.Handled();
  };
  auto handle = [serve](const httplib::Request& req, httplib::Response& res) { serve(req, req.body, res); };
  // Bodies are read here rather than by httplib: it checks max_body_bytes against a declared
  // Content-Length only, and would read a chunked body of any size into memory.
  auto handle_body = [serve, max = options_.max_body_bytes](const httplib::Request& req, httplib::Response& res,
                                                            const httplib::ContentReader& read) {
    std::string body;
    bool too_large = std::strtoull(req.get_header_value("Content-Length").c_str(), nullptr, 10) > max;
    const bool complete = !too_large && read([&](const char* data, std::size_t size) {
      if (body.size() + size > max) {
        too_large = true;
        return false;  // stops reading: the rest of the body is never buffered
      }
      body.append(data, size);
      return true;
    });
    if (too_large || !complete) {
      res.status = too_large ? 413 : 400;
      res.set_header("Connection", "close");  // the unread rest of the body cannot start a request
      res.set_content(too_large ? TooLargeBody(max)
                                : ErrorBody(400, "BadRequestException", "the request body was cut short"),
                      "application/json");
      return;
    }
    serve(req, std::move(body), res);
  };
  const std::string any = ".*";
  impl->server.Get(any, handle);
  impl->server.Post(any, handle_body);
  impl->server.Put(any, handle_body);
  impl->server.Delete(any, handle);
  impl->server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(R"({"error":{"message":"internal error","type":"InternalServerError","code":500}})",
                    "application/json");
  });
  if (options_.port == 0) {
    port_ = impl->server.bind_to_any_port(options_.host);
    if (port_ < 0) return Status::Unavailable("cannot bind " + options_.host + ": no free port");
  } else {
    if (!impl->server.bind_to_port(options_.host, options_.port)) {
      return Status::Unavailable("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                                 " (address in use or not local?)");
    }
    port_ = options_.port;
  }
  auto returned = std::make_shared<std::atomic<bool>>(false);  // the thread outlives this call
  impl->thread = std::thread([impl, returned] {
    impl->server.listen_after_bind();
    *returned = true;
  });
  // httplib's stop() does nothing before its accept loop runs, so a Stop() right after Start()
  // (a SIGTERM as soon as the address is printed) would leave the loop running and hang the
  // join: Start returns only once the loop runs (or ended at once).
  while (!impl->server.is_running() && !*returned) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return Status::OK();
}

void HttpServer::Stop() {
  if (!impl_ || !impl_->thread.joinable()) return;
  impl_->server.stop();
  impl_->thread.join();
}

}  // namespace floe::server
