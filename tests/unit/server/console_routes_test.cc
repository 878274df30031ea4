// The web console's routes over a real HttpServer on loopback: the embedded page and its
// assets (with the headers that keep every script on Floe's origin), the history and the
// table JSON, and how a handler's Status becomes an HTTP error.
#include "floe/server/console_routes.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <memory>

namespace floe::server {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class ConsoleRoutesTest : public ::testing::Test {
 protected:
  void Serve(ConsoleHandlers handlers) {
    server_ = std::make_unique<HttpServer>(HttpServerOptions{});
    AddConsoleRoutes(*server_, std::move(handlers));
    ASSERT_TRUE(server_->Start().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }
  httplib::Response Get(const std::string& path) {
    auto result = client_->Get(path.c_str());
    if (!result) {
      ADD_FAILURE() << "request to " << path << " failed";
      return {};
    }
    return *result;
  }

  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ConsoleRoutesTest, ServesTheEmbeddedPageAndAssetsFromFloeOnly) {
  Serve({});
  for (const char* path : {"/ui", "/ui/"}) {
    auto page = Get(path);
    EXPECT_EQ(page.status, 200) << path;
    EXPECT_EQ(page.get_header_value("Content-Type"), "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("<script src=\"/ui/console.js\">"), std::string::npos);
    EXPECT_NE(page.get_header_value("Content-Security-Policy").find("script-src 'self'"), std::string::npos);
  }
  auto js = Get("/ui/console.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(js.body.find("function render"), std::string::npos);
  EXPECT_EQ(Get("/ui/console.css").get_header_value("Content-Type"), "text/css; charset=utf-8");
  // Nothing else is served under /ui, and no path escapes the embedded files.
  EXPECT_EQ(Get("/ui/missing.js").status, 404);
  EXPECT_EQ(Get("/ui/..%2fsecret.js").status, 404);
  EXPECT_EQ(Get("/ui/index.html.bak").status, 404);
}

TEST_F(ConsoleRoutesTest, HistoryIsTheRingAsJson) {
  StatusHistory history(10, 5s);
  history.Record(1, json{{"topics", {{{"topic", "t"}, {"state", "running"}, {"partitions", json::array()}}}}});
  Serve({&history, nullptr, nullptr});
  auto r = Get("/ui/api/history");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.get_header_value("Cache-Control"), "no-store");
  EXPECT_EQ(json::parse(r.body)["topics"]["t"]["state"], json({"running"}));
}

TEST_F(ConsoleRoutesTest, TablesComeFromTheHandlersAndStatusesBecomeErrors) {
  ConsoleHandlers handlers;
  handlers.list_tables = []() -> Result<json> { return json{{"tables", {{{"table", "kafka.orders"}}}}}; };
  handlers.describe_table = [](const std::string& table) -> Result<json> {
    if (table == "kafka.orders") return json{{"table", table}};
    if (table == "kafka.broken") return Status::IoError("manifest unreadable");
    return Status::NotFound("'" + table + "' is not the table of a configured topic");
  };
  Serve(std::move(handlers));
  EXPECT_EQ(json::parse(Get("/ui/api/tables").body)["tables"][0]["table"], "kafka.orders");
  auto orders = Get("/ui/api/tables/kafka.orders");
  EXPECT_EQ(orders.status, 200);
  EXPECT_EQ(json::parse(orders.body)["table"], "kafka.orders");
  auto missing = Get("/ui/api/tables/kafka.nope");
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(json::parse(missing.body)["error"]["message"].get<std::string>().find("kafka.nope"), std::string::npos);
  EXPECT_EQ(Get("/ui/api/tables/kafka.broken").status / 100, 5);
}

TEST_F(ConsoleRoutesTest, WithoutHandlersTheApiAnswersEmpty) {
  Serve({});
  EXPECT_EQ(json::parse(Get("/ui/api/history").body)["t"], json::array());
  EXPECT_EQ(json::parse(Get("/ui/api/tables").body)["tables"], json::array());
  EXPECT_EQ(Get("/ui/api/tables/kafka.orders").status, 404);
}

}  // namespace
}  // namespace floe::server
