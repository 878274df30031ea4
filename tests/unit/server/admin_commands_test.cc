// The admin API's mutating routes over a real HttpServer on loopback: admin.token (off without
// one, 401 without or with a wrong one), the skip body, and Status codes mapped to HTTP.
#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <optional>

#include "floe/server/admin_commands.h"

namespace floe::server {
namespace {

using nlohmann::json;

class AdminCommandsTest : public ::testing::Test {
 protected:
  void Serve(const std::string& token, std::optional<CatalogAuthConfig> auth = std::nullopt) {
    AdminCommands handlers;
    handlers.auth = std::move(auth);
    handlers.resume = [this](const std::string& topic) -> Result<json> {
      resumed_.push_back(topic);
      if (topic == "missing") return Status::NotFound("topic 'missing' is not materialized by this process");
      if (topic == "running") return Status::Conflict("topic 'running' is not suspended");
      return json{{"topic", topic}, {"resumed_partitions", {0, 1}}};
    };
    handlers.skip = [this](const std::string& topic, std::int32_t partition, std::int64_t offset) -> Result<json> {
      skipped_.push_back(topic + "/" + std::to_string(partition) + "@" + std::to_string(offset));
      if (offset != 42) return Status::Conflict("topic 'orders' is suspended at orders/3@42");
      return json{{"topic", topic}, {"partition", partition}, {"offset", offset}, {"skipped", true}};
    };
    handlers.token = token;
    server_ = std::make_unique<HttpServer>(HttpServerOptions{});
    AddAdminCommandRoutes(*server_, std::move(handlers));
    ASSERT_TRUE(server_->Start().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }

  httplib::Response Post(const std::string& path, const std::string& body, const std::string& token) {
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
    auto result = client_->Post(path.c_str(), headers, body, "application/json");
    if (!result) {
      ADD_FAILURE() << "request to " << path << " failed";
      return {};
    }
    return *result;
  }

  std::vector<std::string> resumed_;
  std::vector<std::string> skipped_;
  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(AdminCommandsTest, WithoutATokenConfiguredTheRoutesAreOff) {
  Serve("");
  auto r = Post("/topics/orders/resume", "", "anything");
  EXPECT_EQ(r.status, 403);
  EXPECT_NE(json::parse(r.body)["error"]["message"].get<std::string>().find("admin.token"), std::string::npos);
  EXPECT_TRUE(resumed_.empty());
}

TEST_F(AdminCommandsTest, AMissingOrWrongTokenIsRefusedAndNotEchoed) {
  Serve("s3cret-token");
  for (const std::string token : {"", "s3cret", "s3cret-token-", "S3CRET-TOKEN"}) {
    auto r = Post("/topics/orders/resume", "", token);
    EXPECT_EQ(r.status, 401) << token;
    EXPECT_EQ(r.body.find("s3cret"), std::string::npos);
  }
  auto skip = Post("/topics/orders/skip", R"({"partition":3,"offset":42})", "wrong");
  EXPECT_EQ(skip.status, 401);
  EXPECT_TRUE(resumed_.empty());
  EXPECT_TRUE(skipped_.empty());
}

TEST_F(AdminCommandsTest, ResumeAnswersWithTheHandlersOutcome) {
  Serve("t");
  auto ok = Post("/topics/orders/resume", "", "t");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(json::parse(ok.body), json::parse(R"({"topic":"orders","resumed_partitions":[0,1]})"));
  EXPECT_EQ(Post("/topics/missing/resume", "", "t").status, 404);
  EXPECT_EQ(Post("/topics/running/resume", "", "t").status, 409);
  // Topic names are percent-decoded path segments.
  EXPECT_EQ(Post("/topics/a%2Eb/resume", "", "t").status, 200);
  EXPECT_EQ(resumed_.back(), "a.b");
}

TEST_F(AdminCommandsTest, SkipReadsPartitionAndOffsetFromTheBody) {
  Serve("t");
  auto ok = Post("/topics/orders/skip", R"({"partition":3,"offset":42})", "t");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(skipped_, (std::vector<std::string>{"orders/3@42"}));
  auto other = Post("/topics/orders/skip", R"({"partition":3,"offset":41})", "t");
  EXPECT_EQ(other.status, 409);
  EXPECT_NE(other.body.find("orders/3@42"), std::string::npos);
  for (const char* bad : {"", "[]", R"({"partition":3})", R"({"partition":"3","offset":42})",
                          R"({"partition":-1,"offset":42})"}) {
    EXPECT_EQ(Post("/topics/orders/skip", bad, "t").status, 400) << bad;
  }
  EXPECT_EQ(skipped_.size(), 2u);
}

TEST_F(AdminCommandsTest, AdminAuthClientsGetTokensAndOnlyWriteTokensMayChangeThings) {
  CatalogAuthConfig auth;
  auth.clients = {{"ops", "ops-secret", CatalogAuthConfig::Scope::kWrite},
                  {"viewer", "viewer-secret", CatalogAuthConfig::Scope::kRead}};
  Serve("", auth);
  auto token_of = [&](const std::string& id, const std::string& secret) {
    auto r = client_->Post("/v1/oauth/tokens",
                           "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret,
                           "application/x-www-form-urlencoded");
    if (!r || r->status != 200) {
      ADD_FAILURE() << "no token for " << id << ": " << (r ? r->body : "request failed");
      return std::string();
    }
    return json::parse(r->body)["access_token"].get<std::string>();
  };
  const std::string write = token_of("ops", "ops-secret");
  const std::string read = token_of("viewer", "viewer-secret");
  auto wrong = client_->Post("/v1/oauth/tokens", "grant_type=client_credentials&client_id=ops&client_secret=nope",
                             "application/x-www-form-urlencoded");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 401);

  auto refused = Post("/topics/orders/resume", "", read);
  EXPECT_EQ(refused.status, 403);
  EXPECT_NE(refused.body.find("read-only"), std::string::npos) << refused.body;
  EXPECT_EQ(refused.body.find(read), std::string::npos);
  EXPECT_EQ(Post("/topics/orders/skip", R"({"partition":3,"offset":42})", read).status, 403);
  EXPECT_TRUE(resumed_.empty());
  EXPECT_TRUE(skipped_.empty());
  EXPECT_EQ(Post("/topics/orders/resume", "", "made-up").status, 401);
  EXPECT_EQ(Post("/topics/orders/resume", "", write).status, 200);
  EXPECT_EQ(Post("/topics/orders/skip", R"({"partition":3,"offset":42})", write).status, 200);
  EXPECT_EQ(resumed_.size(), 1u);
  EXPECT_EQ(skipped_.size(), 1u);
}

TEST_F(AdminCommandsTest, WithoutClientsThereIsNoTokenEndpoint) {
  Serve("t");
  auto r = client_->Post("/v1/oauth/tokens", "grant_type=client_credentials&client_id=a&client_secret=b",
                         "application/x-www-form-urlencoded");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

}  // namespace
}  // namespace floe::server
