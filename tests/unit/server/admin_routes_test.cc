// The admin API over a real HttpServer on loopback, requested with httplib's client:
// status codes, content types, bodies, HEAD, and failures of the callbacks.
#include "floe/server/admin_routes.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>

namespace floe::server {
namespace {

using nlohmann::json;

class AdminRoutesTest : public ::testing::Test {
 protected:
  void Serve(AdminHandlers handlers) {
    server_ = std::make_unique<HttpServer>(HttpServerOptions{});
    AddAdminRoutes(*server_, std::move(handlers));
    ASSERT_TRUE(server_->Start().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }

  // Fails the test (and returns an empty response) when the request itself fails.
  httplib::Response Get(const std::string& path) { return Unwrap(client_->Get(path.c_str()), path); }
  httplib::Response Head(const std::string& path) { return Unwrap(client_->Head(path.c_str()), path); }

  static httplib::Response Unwrap(httplib::Result result, const std::string& path) {
    if (!result) {
      ADD_FAILURE() << "request to " << path << " failed: " << httplib::to_string(result.error());
      return {};
    }
    return *result;
  }

  static json Json(const httplib::Response& response) { return json::parse(response.body); }

  MetricsRegistry metrics_;
  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(AdminRoutesTest, IndexListsTheEndpointsServed) {
  Serve({[] { return json::object(); }, nullptr, &metrics_});
  auto r = Get("/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(Json(r), json::parse(R"({"service":"floe","endpoints":["/healthz","/status","/metrics"]})"));
}

TEST_F(AdminRoutesTest, WithoutProvidersOnlyHealthzIsServed) {
  Serve({});
  EXPECT_EQ(Json(Get("/"))["endpoints"], json::array({"/healthz"}));
  auto health = Get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(Json(health), json::parse(R"({"status":"ok"})"));
  EXPECT_EQ(Get("/status").status, 404);
  EXPECT_EQ(Get("/metrics").status, 404);
}

TEST_F(AdminRoutesTest, HealthzFollowsTheCallback) {
  auto healthy = std::make_shared<std::atomic<bool>>(true);
  Serve({nullptr, [healthy] { return healthy->load(); }, nullptr});
  auto ok = Get("/healthz");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(ok.body, R"({"status":"ok"})");
  healthy->store(false);
  auto bad = Get("/healthz");
  EXPECT_EQ(bad.status, 503);
  EXPECT_EQ(bad.get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(bad.body, R"({"status":"unhealthy"})");
}

TEST_F(AdminRoutesTest, AThrowingHealthCheckIsUnhealthy) {
  Serve({nullptr, []() -> bool { throw std::runtime_error("catalog unreachable"); }, nullptr});
  auto r = Get("/healthz");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.body, R"({"status":"unhealthy"})");
}

TEST_F(AdminRoutesTest, StatusIsTheCallbacksJson) {
  const json status = json::parse(R"({
    "version": "0.1.0", "uptime_seconds": 12.5,
    "topics": [{"topic": "orders", "table": "kafka.orders", "state": "suspended",
                "error": {"position": "orders/3@42", "reason": "incompatible schema"},
                "partitions": [{"partition": 3, "committed_offset": 42, "buffered_records": 0,
                                "high_watermark": 50}]}]})");
  auto calls = std::make_shared<std::atomic<int>>(0);
  Serve({[status, calls] {
           calls->fetch_add(1);
           return status;
         },
         nullptr, nullptr});
  auto r = Get("/status");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(r.get_header_value("Cache-Control"), "no-store");
  EXPECT_EQ(Json(r), status);
  Get("/status");
  EXPECT_EQ(calls->load(), 2);  // computed per request, never cached
}

TEST_F(AdminRoutesTest, AThrowingStatusCallbackIsA500JsonError) {
  Serve({[]() -> json { throw std::runtime_error("topic table vanished"); }, nullptr, nullptr});
  auto r = Get("/status");
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.get_header_value("Content-Type"), "application/json");
  const json body = Json(r);
  EXPECT_EQ(body["error"]["code"], 500);
  EXPECT_EQ(body["error"]["type"], "InternalServerError");
  EXPECT_EQ(body["error"]["message"], "status failed: topic table vanished");
  // The server survives and keeps answering.
  EXPECT_EQ(Get("/healthz").status, 200);
}

TEST_F(AdminRoutesTest, ANonStandardExceptionIsA500Too) {
  Serve({[]() -> json { throw 42; }, nullptr, nullptr});
  auto r = Get("/status");
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(Json(r)["error"]["code"], 500);
}

TEST_F(AdminRoutesTest, StatusWithInvalidUtf8IsStillServed) {
  // An error reason quoting a corrupt record must not break the status page.
  Serve({[] { return json{{"reason", std::string("bad \xff byte")}}; }, nullptr, nullptr});
  auto r = Get("/status");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Json(r)["reason"], "bad \xEF\xBF\xBD byte");  // U+FFFD
}

TEST_F(AdminRoutesTest, MetricsIsThePrometheusText) {
  Counter& consumed = metrics_.GetCounter("floe_records_consumed_total", "Records read", {{"topic", "orders"}});
  consumed.Increment(5);
  Serve({nullptr, nullptr, &metrics_});
  auto r = Get("/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(r.get_header_value("Cache-Control"), "no-store");
  EXPECT_EQ(r.body,
            "# HELP floe_records_consumed_total Records read\n"
            "# TYPE floe_records_consumed_total counter\n"
            "floe_records_consumed_total{topic=\"orders\"} 5\n");
  consumed.Increment();
  metrics_.GetGauge("floe_buffered_bytes", "Bytes buffered").Set(64);
  EXPECT_EQ(Get("/metrics").body, metrics_.RenderPrometheus());
  EXPECT_NE(Get("/metrics").body.find("floe_records_consumed_total{topic=\"orders\"} 6\n"), std::string::npos);
}

TEST_F(AdminRoutesTest, HeadAnswersWithoutABody) {
  metrics_.GetCounter("c_total", "h").Increment();
  Serve({[] { return json{{"version", "x"}}; }, nullptr, &metrics_});
  for (const char* path : {"/", "/healthz", "/status"}) {
    auto r = Head(path);
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.get_header_value("Content-Type"), "application/json") << path;
    EXPECT_TRUE(r.body.empty()) << path;
  }
  auto m = Head("/metrics");
  EXPECT_EQ(m.status, 200);
  EXPECT_EQ(m.get_header_value("Content-Type"), kPrometheusContentType);
  EXPECT_TRUE(m.body.empty());
}

TEST_F(AdminRoutesTest, UnknownPathsAndMethodsAreJsonErrors) {
  Serve({[] { return json::object(); }, nullptr, &metrics_});
  auto missing = Get("/nope");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(Json(missing)["error"]["code"], 404);
  EXPECT_EQ(Get("/status/extra").status, 404);
  EXPECT_EQ(Get("/healthz/").status, 404);

  auto post = client_->Post("/status", "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(json::parse(post->body)["error"]["code"], 405);
}

TEST_F(AdminRoutesTest, SharesAServerWithOtherRoutes) {
  server_ = std::make_unique<HttpServer>(HttpServerOptions{});
  server_->Route("GET", "/v1/config",
                 [](const HttpRequest&) { return HttpResponse{200, "application/json", "{}", {}}; });
  AddAdminRoutes(*server_, {});
  ASSERT_TRUE(server_->Start().ok());
  client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  EXPECT_EQ(Get("/v1/config").status, 200);
  EXPECT_EQ(Get("/healthz").status, 200);
}

TEST_F(AdminRoutesTest, ConcurrentScrapesWhileCountersMove) {
  Counter& c = metrics_.GetCounter("c_total", "h");
  Serve({[] { return json{{"ok", true}}; }, nullptr, &metrics_});
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    while (!stop.load()) c.Increment();
  });
  std::vector<std::thread> scrapers;
  std::atomic<int> good{0};
  const int port = server_->port();
  for (int t = 0; t < 4; ++t) {
    scrapers.emplace_back([&good, port] {
      httplib::Client client("127.0.0.1", port);
      for (int i = 0; i < 10; ++i) {
        auto m = client.Get("/metrics");
        auto s = client.Get("/status");
        if (m && m->status == 200 && m->body.find("c_total ") != std::string::npos && s && s->status == 200) {
          good.fetch_add(1);
        }
      }
    });
  }
  for (auto& t : scrapers) t.join();
  stop.store(true);
  writer.join();
  EXPECT_EQ(good.load(), 40);
}

}  // namespace
}  // namespace floe::server
