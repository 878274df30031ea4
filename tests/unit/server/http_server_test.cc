// HttpServer's routing over a real socket: path captures are percent-decoded after matching
// (so an encoded '/' stays inside its segment), and a malformed escape is a 400.
#include "floe/server/http_server.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace floe::server {
namespace {

class HttpServerRouting : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<HttpServer>(HttpServerOptions{});
    server_->Route("GET", "/v1/namespaces/([^/]+)/tables/([^/]+)", [](const HttpRequest& req) {
      return HttpResponse{200, "text/plain", req.path_params.at(0) + "|" + req.path_params.at(1), {}};
    });
    ASSERT_TRUE(server_->Start().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    client_->set_url_encode(false);  // send the path exactly as written
  }

  httplib::Result Get(const std::string& path) { return client_->Get(path.c_str()); }

  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(HttpServerRouting, DecodesCapturesAfterMatching) {
  auto res = Get("/v1/namespaces/a%1Fb/tables/x%2Fy%20z");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "a\x1f" "b|x/y z");
  res = Get("/v1/namespaces/a+b/tables/%c3%A9");  // '+' is a plus; hex in either case
  ASSERT_TRUE(res);
  EXPECT_EQ(res->body, "a+b|\xc3\xa9");
}

TEST_F(HttpServerRouting, AMalformedEscapeIsABadRequest) {
  for (const char* path : {"/v1/namespaces/a%zz/tables/t", "/v1/namespaces/a/tables/t%", "/v1/namespaces/a/tables/t%4"}) {
    auto res = Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 400) << path;
    const auto body = nlohmann::json::parse(res->body);
    EXPECT_EQ(body["error"]["type"], "BadRequestException") << res->body;
    EXPECT_EQ(body["error"]["code"], 400);
    EXPECT_NE(body["error"]["message"].get<std::string>().find("percent-encoding"), std::string::npos) << res->body;
  }
}

}  // namespace
}  // namespace floe::server
